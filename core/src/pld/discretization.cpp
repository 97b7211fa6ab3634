#include "dpcalc/pld/discretization.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dpcalc/checks.hpp"

namespace dpcalc::pld {
namespace {

// An atom this close above a grid point (in grid steps) counts as on it: the aligned default grid
// puts atoms there up to double rounding.
constexpr double kOnGridTolerance = 1e-9;

// Smallest loss t (found by bisection, rounded up) with fraction(t) <= tail_mass, where fraction
// decreases in t; starts from `start`, a loss at which the fraction may still be large.
template <class F>
double cut_point(F fraction, double start, double tail_mass) {
  double lo = start, hi = start + 1;
  for (int i = 0; i < 60 && fraction(hi) > tail_mass; ++i) {
    lo = hi;
    hi = start + 2 * (hi - start);
  }
  for (int i = 0; i < 60; ++i) {
    const double mid = 0.5 * (lo + hi);
    (fraction(mid) > tail_mass ? lo : hi) = mid;
  }
  return hi;
}

// Mass of (a, b] from the masses of {L > .} and {L <= .}, using the complement that avoids
// cancellation.
double cell_mass(double above_a, double above_b, double at_most_a, double at_most_b) {
  const double mass = above_a <= 0.5 ? above_a - above_b : at_most_b - at_most_a;
  return std::max(0.0, mass);
}

void trim(DiscretePld& pld) {
  auto& m = pld.masses;
  std::size_t first = 0;
  while (first + 1 < m.size() && m[first] == 0) ++first;
  std::size_t last = m.size();
  while (last > first + 1 && m[last - 1] == 0) --last;
  m = std::vector<double>(m.begin() + static_cast<std::ptrdiff_t>(first),
                          m.begin() + static_cast<std::ptrdiff_t>(last));
  pld.lowest_index += static_cast<std::int64_t>(first);
}

}  // namespace

Result<DiscretizedPair> discretize(const PrivacyLossPair& pair, double h, double tail_mass,
                                   const ProgressCallback& progress) {
  // Grid range [k_lo h, k_hi h]: the finite loss range, or where the tails drop below tail_mass.
  double top = pair.max_finite_loss();
  if (std::isinf(top)) {
    const double start = std::isinf(pair.min_finite_loss()) ? -1.0 : pair.min_finite_loss();
    top = cut_point([&](double t) { return pair.masses(t).p_above; }, start, tail_mass);
  }
  double bottom = pair.min_finite_loss();
  if (std::isinf(bottom)) {
    // Lower tail: cut where P[L <= t] <= tail_mass; everything below lands on the lowest point.
    bottom = -cut_point([&](double t) { return pair.masses(-t).p_at_most; }, -top, tail_mass);
    bottom = std::min(bottom, top);
  }
  if (!(std::fabs(top) <= kMaxLoss && std::fabs(bottom) <= kMaxLoss)) {
    return Error{kNumeric, kLossTooLarge, format_number(std::fabs(top) >= std::fabs(bottom) ? top : bottom)};
  }
  const double points = std::ceil(top / h) - std::floor(bottom / h) + 2;
  if (!(points <= static_cast<double>(kMaxGridPoints))) return Error{kNumeric, kGridTooLarge, format_number(points)};
  // The grid points are the doubles k * h. The quotient top / h is rounded, so ceil(top / h) * h can
  // fall one ulp below `top`, and an atom at `top` (Laplace's and pure items' highest loss) would be
  // cut off as infinite loss: widen the range until the doubles k * h enclose [bottom, top].
  auto k_lo = static_cast<std::int64_t>(std::floor(bottom / h));
  while (static_cast<double>(k_lo) * h > bottom) --k_lo;
  auto k_hi = std::max(k_lo + 1, static_cast<std::int64_t>(std::ceil(top / h)));
  while (static_cast<double>(k_hi) * h < top) ++k_hi;
  const std::size_t n = static_cast<std::size_t>(k_hi - k_lo) + 1;

  // The masses are evaluated at up to two grids of n points (the continuous part separately when
  // there are atoms): the bulk of the work.
  const double evaluations = static_cast<double>(pair.atoms().empty() ? n : 2 * n);
  std::size_t evaluated = 0;
  auto heartbeat = [&]() {
    return !progress || ++evaluated % kProgressPoints != 0 || progress(static_cast<double>(evaluated) / evaluations);
  };
  const Error cancelled{kCancelled, "", "The computation was cancelled."};
  std::vector<LossMasses> at(n);
  for (std::size_t i = 0; i < n; ++i) {
    at[i] = pair.masses(static_cast<double>(k_lo + static_cast<std::int64_t>(i)) * h);
    if (!heartbeat()) return cancelled;
  }

  DiscretizedPair result;
  DiscretePld& upper = result.pessimistic;
  DiscretePld& lower = result.optimistic;
  upper.discretization_interval = lower.discretization_interval = h;
  upper.lowest_index = k_lo;
  upper.masses.assign(n, 0.0);
  lower.lowest_index = k_lo - 1;  // the final remainder may be rounded below the grid
  lower.masses.assign(n + 1, 0.0);

  const double infinite = pair.infinite_loss_mass();
  const double cut = at[n - 1].p_above + pair.pruned_mass();  // pruned mixture components: see privacy_loss.hpp
  upper.infinite_mass = infinite + cut;
  upper.truncated_mass = cut;
  lower.infinite_mass = infinite;

  // Pessimistic (connect the dots): cell (e_{i-1}, e_i] with masses (P, Q) puts
  //   (P - e^{e_{i-1}} Q) / (1 - e^{-h}) on e_i and the rest on e_{i-1};
  // both parts are >= 0 because the cell's likelihood ratio P/Q lies in [e^{e_{i-1}}, e^{e_i}].
  upper.masses[0] = at[0].p_at_most;
  const double up_share = -std::expm1(-h);
  for (std::size_t i = 1; i < n; ++i) {
    const double p = cell_mass(at[i - 1].p_above, at[i].p_above, at[i - 1].p_at_most, at[i].p_at_most);
    const double q = cell_mass(at[i - 1].q_above, at[i].q_above, at[i - 1].q_at_most, at[i].q_at_most);
    const double lower_ratio = std::exp(static_cast<double>(k_lo + static_cast<std::int64_t>(i) - 1) * h);
    const double on_upper = std::clamp((p - lower_ratio * q) / up_share, 0.0, p);
    upper.masses[i] += on_upper;
    upper.masses[i - 1] += p - on_upper;
  }

  // Optimistic: sweep the outcomes (the continuous part's merged cells and the atoms) upwards;
  // `carry` is an outcome whose likelihood ratio is at most e^{target h}; a fraction of the next
  // outcome (ratio above e^{target h}) is mixed into it so that the mixture's ratio is exactly
  // e^{target h}. An atom on a grid point is never merged into a carry at that same point: the
  // merged outcome would miss the grid point, and at the top of the loss range nothing above could
  // lift it back, so it would be rounded down a whole step. It is emitted in place instead (in
  // double it may sit at most kOnGridTolerance h above the point: rounding a loss down is sound).
  struct Outcome {
    double p, q;
    std::int64_t target;  // grid index of the smallest grid point >= this outcome's loss
    bool on_grid;         // an atom at the grid point `target`
  };
  auto emit = [&](std::int64_t index, double p) {
    lower.masses[static_cast<std::size_t>(index - lower.lowest_index)] += p;
  };
  std::vector<Outcome> atoms;
  for (const LossAtom& atom : pair.atoms()) {
    const double nearest = std::round(atom.loss / h);
    const double offset = atom.loss - nearest * h;
    const bool on_grid = offset >= 0 && offset <= kOnGridTolerance * h && nearest >= static_cast<double>(k_lo) &&
                         nearest <= static_cast<double>(k_hi);
    const double target =
        std::clamp(on_grid ? nearest : std::ceil(atom.loss / h), static_cast<double>(k_lo), static_cast<double>(k_hi));
    atoms.push_back(Outcome{atom.p, atom.q, static_cast<std::int64_t>(target), on_grid});
  }
  std::vector<LossMasses> continuous;
  if (!pair.atoms().empty()) {
    continuous.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
      continuous[i] = pair.continuous_masses(static_cast<double>(k_lo + static_cast<std::int64_t>(i)) * h);
      if (!heartbeat()) return cancelled;
    }
  }
  const std::vector<LossMasses>& cells = pair.atoms().empty() ? at : continuous;

  // The lower tail (loss <= the lowest grid point) is rounded down one step, not mixed upwards:
  // it holds nearly all of Q when the losses are large (a Gaussian with sigma << sensitivity), and
  // lifting that Q-mass to a grid point would swallow every outcome above it into one carry.
  emit(k_lo - 1, cells[0].p_at_most);
  Outcome carry{0, 0, k_lo, false};
  auto absorb = [&](const Outcome& next) {
    const double ratio = std::exp(static_cast<double>(carry.target) * h);
    const double deficit = ratio * carry.q - carry.p;  // >= 0: carry lies at or below its target
    const Outcome empty{0, 0, next.target, false};
    if (deficit <= 0) {
      emit(carry.target, carry.p);
      if (next.on_grid) emit(next.target, next.p);
      carry = next.on_grid ? empty : next;
      return;
    }
    const double surplus = next.p - ratio * next.q;  // > 0: next lies above carry's target
    if (next.on_grid && !(surplus > 0)) {
      emit(next.target, next.p);
      return;
    }
    const double fraction = surplus > 0 ? deficit / surplus : 2.0;
    if (fraction >= 1) {
      carry.p += next.p;
      carry.q += next.q;
      return;
    }
    emit(carry.target, carry.p + fraction * next.p);
    const Outcome rest{(1 - fraction) * next.p, (1 - fraction) * next.q, next.target, false};
    if (next.on_grid) emit(next.target, rest.p);
    carry = next.on_grid ? empty : rest;
  };
  std::size_t next_atom = 0;
  auto absorb_atoms_up_to = [&](std::int64_t target) {
    for (; next_atom < atoms.size() && atoms[next_atom].target <= target; ++next_atom) {
      absorb(atoms[next_atom]);
    }
  };
  absorb_atoms_up_to(k_lo);
  for (std::size_t i = 1; i < n; ++i) {
    const double p = cell_mass(cells[i - 1].p_above, cells[i].p_above, cells[i - 1].p_at_most, cells[i].p_at_most);
    const double q = cell_mass(cells[i - 1].q_above, cells[i].q_above, cells[i - 1].q_at_most, cells[i].q_at_most);
    const std::int64_t target = k_lo + static_cast<std::int64_t>(i);
    if (p > 0 || q > 0) absorb(Outcome{p, q, target, false});
    absorb_atoms_up_to(target);
  }
  if (cells[n - 1].p_above > 0) absorb(Outcome{cells[n - 1].p_above, cells[n - 1].q_above, k_hi + 1, false});
  {
    const double ratio = std::exp(static_cast<double>(std::min(carry.target, k_hi)) * h);
    const bool on_target = carry.target <= k_hi && ratio * carry.q - carry.p <= 0;
    emit(on_target ? carry.target : std::min(carry.target - 1, k_hi), carry.p);
  }
  trim(upper);
  trim(lower);
  return result;
}

}  // namespace dpcalc::pld
