#include "dpcalc/pld/group_over_profile.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstddef>

#include "dpcalc/closed_form/group_privacy.hpp"

namespace dpcalc::pld {
namespace {

// The search stops splitting an interval of per-record ε once it is this narrow (relative): far
// below the PLD's own bracket (about 1e-4 relative at the default accuracy) and the 6 digits the
// page prints.
constexpr double kBoundaryWidth = 1e-9;
// Each evaluation of δ(ε) reads the PLD's masses above ε: the search evaluates at most about
// kPointReads / (grid points) of them (between kFewestEvaluations and kMostEvaluations), which costs
// at most about what composing the PLD did. Where the budget ends, the smallest ε found to meet is
// the answer (sound, perhaps not the smallest).
constexpr double kPointReads = 268435456;  // 2^28
constexpr double kFewestEvaluations = 64;
constexpr double kMostEvaluations = 2000;
// Points of the per-record ε grid that make the group's trade-off curve (fewer on large grids).
constexpr double kFewestProfilePoints = 17;
constexpr double kProfilePoints = 129;

// `most`, or fewer on a PLD of many points (see kPointReads).
int evaluations_for(const ComposedPlds& plds, double fewest, double most) {
  const double points = static_cast<double>(std::max(plds.upper_remove.masses.size(), plds.upper_add.masses.size()));
  return static_cast<int>(std::clamp(kPointReads / std::max(points, 1.0), fewest, most));
}

// The largest finite loss with mass in either upper PLD: from there on δ(ε) is its floor (the
// infinite-loss mass), so a larger per-record ε only grows the group's δ.
double largest_loss(const ComposedPlds& plds) {
  double largest = 0;
  for (const DiscretePld* pld : {&plds.upper_remove, &plds.upper_add}) {
    for (std::size_t i = pld->masses.size(); i-- > 0;) {
      if (pld->masses[i] > 0) {
        const double loss = static_cast<double>(pld->lowest_index + static_cast<std::int64_t>(i));
        largest = std::max(largest, loss * pld->discretization_interval);
        break;
      }
    }
  }
  return largest;
}

// The smallest ε at which both upper PLDs certify δ(ε) <= delta (+infinity when one cannot).
double certified_epsilon(const ComposedPlds& plds, double delta) {
  return std::max(epsilon_for_delta(plds.upper_remove, delta, Bound::kUpper),
                  epsilon_for_delta(plds.upper_add, delta, Bound::kUpper));
}

// `intervals` + 1 evenly spaced points from `low` to `high` (one point when they are equal).
std::vector<double> spaced(double low, double high, int intervals) {
  if (!(high > low)) return {low};
  std::vector<double> points;
  for (int i = 0; i <= intervals; ++i) points.push_back(i == intervals ? high : low + (high - low) * i / intervals);
  return points;
}

}  // namespace

GroupPoint group_point(const ComposedPlds& plds, double group_size, double epsilon) {
  const ApproxDp per_record{epsilon, delta_bracket(plds, epsilon).delta_upper};
  return {per_record, group_privacy(per_record, group_size)};
}

GroupPoint pure_group_point(double pure_epsilon, double group_size) {
  const ApproxDp per_record{pure_epsilon, 0};
  return {per_record, group_privacy(per_record, group_size)};
}

// Branch and bound on the per-record ε, leftmost interval first. δ(ε) falls and the growth
// (e^{kε} − 1)/(e^ε − 1) rises with ε, so on an interval [a, b] the group's δ is at least
// δ(b)·growth(a): an interval where that exceeds the target holds no point that meets and is dropped;
// any other is split at its middle, down to kBoundaryWidth. The first narrow interval whose right end
// meets gives the answer, every interval to its left having been dropped. The product itself need
// not be monotone (on a lattice PLD it dips below each atom), so no bisection on its sign would do.
std::optional<GroupPoint> best_group_point(const ComposedPlds& plds, double group_size, double delta,
                                           std::optional<double> pure_epsilon) {
  std::optional<GroupPoint> best;  // the smallest ε evaluated that meets
  if (pure_epsilon) best = pure_group_point(*pure_epsilon, group_size);
  // The growth is at least k: below the ε where δ(ε) reaches δ/k nothing meets.
  const double start = certified_epsilon(plds, delta / group_size);
  if (!std::isfinite(start)) return best;
  double top = std::max(start, largest_loss(plds));
  if (pure_epsilon) top = std::min(top, *pure_epsilon);
  if (start > top) return best;

  int budget = evaluations_for(plds, kFewestEvaluations, kMostEvaluations);
  const auto evaluate = [&](double epsilon) {
    --budget;
    const GroupPoint point = group_point(plds, group_size, epsilon);
    if (point.group.delta <= delta && (!best || epsilon < best->per_record.epsilon)) best = point;
    return point;
  };
  if (evaluate(start).group.delta <= delta) return best;
  struct Interval {
    double low, high;
    double delta_high;  // δ(high)
    bool meets;         // at high
  };
  const auto interval = [&](double low, double high) {
    const GroupPoint at_high = evaluate(high);
    return Interval{low, high, at_high.per_record.delta, at_high.group.delta <= delta};
  };
  std::vector<Interval> stack{interval(start, top)};
  while (!stack.empty() && budget > 0) {
    const Interval next = stack.back();
    stack.pop_back();
    if (!next.meets && group_privacy(ApproxDp{next.low, next.delta_high}, group_size).delta > delta) continue;
    if (next.high - next.low <= kBoundaryWidth * next.high) {
      if (next.meets) return best;  // nothing to its left meets: `best` is its right end
      continue;
    }
    const double middle = next.low + (next.high - next.low) / 2;
    stack.push_back(Interval{middle, next.high, next.delta_high, next.meets});
    stack.push_back(interval(next.low, middle));
  }
  return best;
}

std::vector<GroupPoint> group_profile_points(const ComposedPlds& plds, double group_size,
                                             std::optional<double> pure_epsilon) {
  std::vector<GroupPoint> points;
  if (pure_epsilon) points.push_back(pure_group_point(*pure_epsilon, group_size));
  // Below the ε where δ(ε) reaches 1/k every group δ is vacuous (one record's: from δ(ε) = 1/2 on).
  const double start = std::min(certified_epsilon(plds, std::min(0.5, 1 / group_size)), largest_loss(plds));
  if (!std::isfinite(start)) return points;
  const int intervals = evaluations_for(plds, kFewestProfilePoints, kProfilePoints) - 1;
  for (double epsilon : spaced(start, std::max(start, largest_loss(plds)), intervals)) {
    const GroupPoint point = group_point(plds, group_size, epsilon);
    if (point.group.delta < 1) points.push_back(point);
  }
  return points;
}

}  // namespace dpcalc::pld
