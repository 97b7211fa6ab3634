#include "dpcalc/tradeoff/profile_tradeoff.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <utility>

#include "dpcalc/checks.hpp"
#include "dpcalc/search/sound_search.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

// How near the crossing of the two envelopes the bisection ends (relative to the crossing's α):
// the bound is taken at both ends, so this only decides how little it gives away.
const double kCrossingWidth = std::ldexp(1.0, -60);

// A line TPR <= intercept + slope alpha; both rounded up. For the advantage the same line less
// alpha, intercept + (slope - 1) alpha, is kept with its own rounding: for add-direction lines
// (slope e^-eps <= 1) it is (1 - e^-eps)(1 - alpha) + e^-eps delta, a sum of nonnegative terms.
struct Line {
  double intercept, slope;
  bool steep;                      // a remove-direction line (slope >= 1)
  double excess_slope;             // steep: e^eps - 1, rounded up
  double flat_weight, flat_delta;  // flat: 1 - e^-eps and e^-eps delta, rounded up
};

// The first invalid value of one direction's pairs, if any: on "<direction>_epsilons" or
// "<direction>_deltas" ("epsilons", "deltas" without a direction), the pair's index as Error::item.
std::optional<Error> invalid_points(const ProfilePoints& points, const std::string& direction) {
  const std::string prefix = direction.empty() ? "" : direction + "_";
  const std::string epsilons = prefix + "epsilons", deltas = prefix + "deltas";
  if (points.deltas.size() != points.epsilons.size()) {
    return invalid_argument(deltas, "A profile needs one δ per ε (" + std::to_string(points.epsilons.size()) + " ε, " +
                                        std::to_string(points.deltas.size()) + " δ).");
  }
  if (points.epsilons.size() > kMaxRequestedPoints) {
    return invalid_argument(epsilons, "A profile may hold at most " + std::to_string(kMaxRequestedPoints) +
                                          " pairs (got " + std::to_string(points.epsilons.size()) + ").");
  }
  for (std::size_t i = 0; i < points.epsilons.size(); ++i) {
    const Result<double> epsilon = check_epsilon(points.epsilons[i], epsilons);
    if (!epsilon.ok()) return about_item(epsilon.error(), i);
    if (!(points.deltas[i] >= 0 && points.deltas[i] <= 1)) {
      return about_item(invalid_argument(deltas, "Each δ must be between 0 and 1 " + got(points.deltas[i]) + "."), i);
    }
  }
  return std::nullopt;
}

std::vector<Line> lines_of(const ProfilePoints& remove, const ProfilePoints& add) {
  std::vector<Line> lines;
  for (std::size_t i = 0; i < remove.epsilons.size(); ++i) {
    const double epsilon = remove.epsilons[i], delta = remove.deltas[i];
    lines.push_back(Line{delta, exp_up(epsilon, 0), true, round_up(std::expm1(epsilon), 2), 0, 0});
  }
  for (std::size_t i = 0; i < add.epsilons.size(); ++i) {
    const double epsilon = add.epsilons[i], delta = add.deltas[i];
    const double weight = round_up(-std::expm1(-epsilon), 2), shrink = exp_up(-epsilon, 0);
    lines.push_back(Line{round_up(weight + shrink * delta, 2), shrink, false, 0, weight, round_up(shrink * delta, 1)});
  }
  return lines;
}

double tpr_upper(const std::vector<Line>& lines, double alpha) {
  double tpr = 1;
  for (const Line& line : lines) {
    tpr = std::min(tpr, alpha == 0 ? line.intercept : round_up(line.intercept + line.slope * alpha, 2));
  }
  return tpr;
}

// Upper bound on max_alpha (TPR(alpha) - alpha). TPR - alpha is at most the smallest increasing
// line (steep lines less alpha) and at most the smallest decreasing one (flat lines less alpha,
// and 1 - alpha); bisect for where the two envelopes cross. On [0, lo] the increasing envelope is
// at most its value at lo, on [hi, 1] the decreasing one at most its value at hi, and in between
// the smaller of the increasing one at hi and the decreasing one at lo.
double advantage_upper(const std::vector<Line>& lines) {
  auto increasing = [&](double alpha) {
    double value = kInfinity;
    for (const Line& line : lines) {
      if (!line.steep) continue;
      value = std::min(value, alpha == 0 ? line.intercept : round_up(line.intercept + line.excess_slope * alpha, 2));
    }
    return value;
  };
  auto decreasing = [&](double alpha) {
    double value = one_minus_up(alpha);
    for (const Line& line : lines) {
      if (!line.steep) value = std::min(value, round_up(line.flat_weight * (1 - alpha) + line.flat_delta, 3));
    }
    return value;
  };
  if (increasing(0) >= decreasing(0)) return decreasing(0);
  if (increasing(1) <= decreasing(1)) return increasing(1);
  const Boundary crossing = bisect_boundary([&](double alpha) { return increasing(alpha) <= decreasing(alpha); },
                                            Boundary{0, 1}, kCrossingWidth, Midpoint::kArithmetic);
  const double lo = crossing.meeting, hi = crossing.failing;
  return std::max({increasing(lo), decreasing(hi), std::min(increasing(hi), decreasing(lo))});
}

// sup_alpha TPR(alpha) / alpha: finite only through lines that pass through (0, 0).
double likelihood_ratio_upper(const std::vector<Line>& lines) {
  double ratio = kInfinity;
  for (const Line& line : lines) {
    if (line.intercept == 0) ratio = std::min(ratio, line.slope);
  }
  return ratio;
}

}  // namespace

Result<TradeoffResult> profile_tradeoff(const ProfilePoints& remove, const ProfilePoints& add,
                                        const TradeoffOptions& options) {
  for (const auto& [points, direction] : {std::pair{&remove, "remove"}, std::pair{&add, "add"}}) {
    if (auto error = invalid_points(*points, direction)) return *error;
  }
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  const std::vector<Line> lines = lines_of(remove, add);
  CurveSource source;
  source.evaluate = [&lines](const std::vector<double>& alphas) {
    TprBounds bounds;
    for (double alpha : alphas) bounds.upper.push_back(tpr_upper(lines, alpha));
    return bounds;
  };
  source.advantage = std::min(1.0, advantage_upper(lines));
  source.likelihood_ratio = likelihood_ratio_upper(lines);
  source.method = kProfileTradeoff;
  TradeoffResult result = summarize(source, checked);
  // A point with δ = 0 in both directions is pure DP; points with δ > 0 leave δ(ε) positive as ε grows.
  double pure = 0;
  for (const ProfilePoints* points : {&remove, &add}) {
    double smallest = kInfinity;
    for (std::size_t i = 0; i < points->epsilons.size(); ++i) {
      if (points->deltas[i] == 0) smallest = std::min(smallest, points->epsilons[i]);
    }
    pure = std::max(pure, smallest);
  }
  result.gdp = std::isfinite(pure) ? pure_gdp_bound(pure)
                                   : no_gdp_bound(
                                         "The curve is made of (ε, δ) points with δ > 0, which leave δ(ε) "
                                         "positive as ε grows: no finite μ is certified.");
  return result;
}

Result<TradeoffResult> profile_tradeoff(const ProfilePoints& both, const TradeoffOptions& options) {
  if (auto error = invalid_points(both, "")) return *error;
  return profile_tradeoff(both, both, options);
}

}  // namespace dpcalc::tradeoff
