// discretize() in stages: the grid range, the masses at its points, the pessimistic ("connect the
// dots") PLD and the optimistic PLD (discretization.hpp).
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
// How far below its atom a shifted grid point is placed (top_atom_offset): above the rounding of
// k h + c for grids of up to kMaxGridPoints steps, below kOnGridTolerance.
constexpr double kOffsetMargin = 4e-10;
// See highest_weighty_atom.
constexpr double kWeightyAtomShare = 1e-6;
// Steps of the tail search in cut_point: doublings of the bracket, then bisections (2^-60 of it).
constexpr int kCutSearchSteps = 60;

// Smallest loss t (found by bisection, rounded up) with fraction(t) <= tail_mass, where fraction
// decreases in t; starts from `start`, a loss at which the fraction may still be large.
template <class F>
double cut_point(F fraction, double start, double tail_mass) {
  double lo = start, hi = start + 1;
  for (int i = 0; i < kCutSearchSteps && fraction(hi) > tail_mass; ++i) {
    lo = hi;
    hi = start + 2 * (hi - start);
  }
  for (int i = 0; i < kCutSearchSteps; ++i) {
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

// The grid indices [lowest, highest] of the points k h.
struct GridRange {
  std::int64_t lowest = 0, highest = 0;
  std::size_t points() const { return static_cast<std::size_t>(highest - lowest) + 1; }
  double index(std::size_t i) const { return static_cast<double>(lowest + static_cast<std::int64_t>(i)); }
};

// The grid range: the finite loss range, or where the P-tails drop below tail_mass (above: the
// mass beyond goes to +infinity; below: it lands on the lowest point). Errors: kLossTooLarge,
// kGridTooLarge (see pld.hpp).
Result<GridRange> grid_range(const PrivacyLossPair& pair, double h, double tail_mass) {
  double top = pair.max_finite_loss();
  if (std::isinf(top)) {
    const double start = std::isinf(pair.min_finite_loss()) ? -1.0 : pair.min_finite_loss();
    top = cut_point([&](double t) { return pair.masses(t).p_above; }, start, tail_mass);
  }
  double bottom = pair.min_finite_loss();
  if (std::isinf(bottom)) {
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
  GridRange range;
  range.lowest = static_cast<std::int64_t>(std::floor(bottom / h));
  while (static_cast<double>(range.lowest) * h > bottom) --range.lowest;
  range.highest = std::max(range.lowest + 1, static_cast<std::int64_t>(std::ceil(top / h)));
  while (static_cast<double>(range.highest) * h < top) ++range.highest;
  return range;
}

// masses(k h + offset) (or, with `continuous`, continuous_masses(k h + offset)) at every grid point: the
// bulk of the work. `heartbeat` is called after each point; false cancels.
template <class Heartbeat>
Result<std::vector<LossMasses>> masses_on_grid(const PrivacyLossPair& pair, const GridRange& range, double h,
                                               double offset, bool continuous, Heartbeat heartbeat) {
  std::vector<LossMasses> at;
  at.reserve(range.points());
  for (std::size_t i = 0; i < range.points(); ++i) {
    const double threshold = range.index(i) * h + offset;
    at.push_back(continuous ? pair.continuous_masses(threshold) : pair.masses(threshold));
    if (!heartbeat()) return cancelled();
  }
  return at;
}

// The highest loss among the atoms whose P-mass is at least kWeightyAtomShare of the heaviest one's: the
// atom the optimistic grid is shifted to. (Atoms far out in a lattice's tail move delta by almost
// nothing; on a lattice whose spacing the step divides, every atom lands on the shifted grid anyway.)
double highest_weighty_atom(const std::vector<LossAtom>& atoms) {
  double heaviest = 0;
  for (const LossAtom& atom : atoms) heaviest = std::max(heaviest, atom.p);
  for (auto atom = atoms.rbegin(); atom != atoms.rend(); ++atom) {
    if (atom->p >= kWeightyAtomShare * heaviest) return atom->loss;
  }
  return atoms.back().loss;
}

// The shift c in [0, h) of the optimistic grid that puts the atom at `top` on the grid point
// k h + c, k = floor(top / h), lowered by kOffsetMargin h so that rounding cannot lift the grid point
// above the atom (the sweep takes an atom up to kOnGridTolerance h above a point as on it). 0 when
// the atom already sits on the unshifted grid (the aligned default grid) or within that margin of it.
// k is corrected after the division: top / h rounds, so floor(top / h) can be one step below the
// point the atom sits on (an aligned atom then shifted by almost a whole step, which its copies'
// offsets give back only as a whole step lost in their composition) or one step above the atom (an
// atom a hair below a given step's point, then rounded down a whole step in every copy).
double top_atom_offset(double top, double h) {
  double k = std::floor(top / h);
  if ((k + 1) * h <= top) k += 1;
  if (k * h > top) k -= 1;
  const double below = top - k * h - kOffsetMargin * h;
  return below >= kOffsetMargin * h && below < h ? below : 0.0;
}

// Pessimistic, connect the dots: cell (e_{i-1}, e_i] with masses (P, Q) puts
//   (P - e^{e_{i-1}} Q) / (1 - e^{-h}) on e_i and the rest on e_{i-1};
// both parts are >= 0 because the cell's likelihood ratio P/Q lies in [e^{e_{i-1}}, e^{e_i}]. The
// mass at or below the lowest point stays there; the P-mass above the highest point (and the
// pruned mixture mass, see privacy_loss.hpp) goes to +infinity and is reported as truncated.
DiscretePld connect_the_dots(const PrivacyLossPair& pair, const std::vector<LossMasses>& at, const GridRange& range,
                             double h) {
  DiscretePld upper;
  upper.discretization_interval = h;
  upper.lowest_index = range.lowest;
  upper.masses.assign(at.size(), 0.0);
  const double cut = at.back().p_above + pair.pruned_mass();
  upper.infinite_mass = pair.infinite_loss_mass() + cut;
  upper.truncated_mass = cut;
  if (upper.infinite_mass == 0) upper.top_index = static_cast<double>(range.highest);
  upper.masses[0] = at[0].p_at_most;
  const double up_share = -std::expm1(-h);
  for (std::size_t i = 1; i < at.size(); ++i) {
    const double p = cell_mass(at[i - 1].p_above, at[i].p_above, at[i - 1].p_at_most, at[i].p_at_most);
    const double q = cell_mass(at[i - 1].q_above, at[i].q_above, at[i - 1].q_at_most, at[i].q_at_most);
    const double lower_ratio = std::exp(range.index(i - 1) * h);
    const double on_upper = std::clamp((p - lower_ratio * q) / up_share, 0.0, p);
    upper.masses[i] += on_upper;
    upper.masses[i - 1] += p - on_upper;
  }
  return upper;
}

// Optimistic: the continuous part of each grid cell is merged into one outcome and the atoms are
// outcomes of their own (discretization.hpp). The outcomes are swept upwards; `carry` is an outcome
// whose likelihood ratio is at most e^{target h}; a fraction of the next outcome (ratio above
// e^{target h}) is mixed into it so that the mixture's ratio is exactly e^{target h}. An atom on a
// grid point is never merged into a carry at that same point: the merged outcome would miss the
// grid point, and at the top of the loss range nothing above could lift it back, so it would be
// rounded down a whole step. It is emitted in place instead (in double it may sit at most
// kOnGridTolerance h above the point: rounding a loss down is sound).
class OptimisticSweep {
 public:
  struct Outcome {
    double p, q;
    std::int64_t target;  // grid index of the smallest grid point >= this outcome's loss
    bool on_grid;         // an atom at the grid point `target`
  };

  // The grid points are k h + offset.
  OptimisticSweep(const GridRange& range, double h, double offset)
      : range_(range), h_(h), offset_(offset), carry_{0, 0, range.lowest, false} {
    lower_.discretization_interval = h;
    lower_.lowest_index = range.lowest - 1;  // the final remainder may be rounded below the grid
    lower_.masses.assign(range.points() + 1, 0.0);
  }

  // The atoms of the pair as outcomes, each with the grid point it is mixed towards.
  std::vector<Outcome> atoms(const PrivacyLossPair& pair) const {
    std::vector<Outcome> outcomes;
    for (const LossAtom& atom : pair.atoms()) {
      const double above_offset = atom.loss - offset_;
      const double nearest = std::round(above_offset / h_);
      const double offset = above_offset - nearest * h_;
      const bool on_grid = offset >= 0 && offset <= kOnGridTolerance * h_ &&
                           nearest >= static_cast<double>(range_.lowest) &&
                           nearest <= static_cast<double>(range_.highest);
      const double target = std::clamp(on_grid ? nearest : std::ceil(above_offset / h_),
                                       static_cast<double>(range_.lowest), static_cast<double>(range_.highest));
      outcomes.push_back(Outcome{atom.p, atom.q, static_cast<std::int64_t>(target), on_grid});
    }
    return outcomes;
  }

  // The lower tail (loss <= the lowest grid point) is rounded down one step, not mixed upwards: it
  // holds nearly all of Q when the losses are large (a Gaussian with sigma << sensitivity), and
  // lifting that Q-mass to a grid point would swallow every outcome above it into one carry.
  void round_down_below_grid(double p) { emit(range_.lowest - 1, p); }

  void absorb(const Outcome& next) {
    const double ratio = std::exp(static_cast<double>(carry_.target) * h_ + offset_);
    const double deficit = ratio * carry_.q - carry_.p;  // >= 0: carry lies at or below its target
    const Outcome empty{0, 0, next.target, false};
    if (deficit <= 0) {
      emit(carry_.target, carry_.p);
      if (next.on_grid) emit(next.target, next.p);
      carry_ = next.on_grid ? empty : next;
      return;
    }
    const double surplus = next.p - ratio * next.q;  // > 0: next lies above carry's target
    if (next.on_grid && !(surplus > 0)) {
      emit(next.target, next.p);
      return;
    }
    const double fraction = surplus > 0 ? deficit / surplus : 2.0;
    if (fraction >= 1) {
      carry_.p += next.p;
      carry_.q += next.q;
      return;
    }
    emit(carry_.target, carry_.p + fraction * next.p);
    const Outcome rest{(1 - fraction) * next.p, (1 - fraction) * next.q, next.target, false};
    if (next.on_grid) emit(next.target, rest.p);
    carry_ = next.on_grid ? empty : rest;
  }

  // The last remainder: on its target when its ratio reaches it, else rounded down one step.
  DiscretePld finish(double infinite_mass) {
    const double ratio = std::exp(static_cast<double>(std::min(carry_.target, range_.highest)) * h_ + offset_);
    const bool on_target = carry_.target <= range_.highest && ratio * carry_.q - carry_.p <= 0;
    emit(on_target ? carry_.target : std::min(carry_.target - 1, range_.highest), carry_.p);
    lower_.infinite_mass = infinite_mass;
    return std::move(lower_);
  }

 private:
  void emit(std::int64_t index, double p) { lower_.masses[static_cast<std::size_t>(index - lower_.lowest_index)] += p; }

  GridRange range_;
  double h_, offset_;
  Outcome carry_;
  DiscretePld lower_;
};

// The optimistic PLD on the grid k h + offset from the masses of its cells (`cells`: the continuous
// part when the pair has atoms) and the atoms, swept upwards in loss.
DiscretePld optimistic(const PrivacyLossPair& pair, const std::vector<LossMasses>& cells, const GridRange& range,
                       double h, double offset) {
  OptimisticSweep sweep(range, h, offset);
  const std::vector<OptimisticSweep::Outcome> atoms = sweep.atoms(pair);
  std::size_t next_atom = 0;
  auto absorb_atoms_up_to = [&](std::int64_t target) {
    for (; next_atom < atoms.size() && atoms[next_atom].target <= target; ++next_atom) sweep.absorb(atoms[next_atom]);
  };
  sweep.round_down_below_grid(cells[0].p_at_most);
  absorb_atoms_up_to(range.lowest);
  for (std::size_t i = 1; i < cells.size(); ++i) {
    const double p = cell_mass(cells[i - 1].p_above, cells[i].p_above, cells[i - 1].p_at_most, cells[i].p_at_most);
    const double q = cell_mass(cells[i - 1].q_above, cells[i].q_above, cells[i - 1].q_at_most, cells[i].q_at_most);
    const std::int64_t target = range.lowest + static_cast<std::int64_t>(i);
    if (p > 0 || q > 0) sweep.absorb(OptimisticSweep::Outcome{p, q, target, false});
    absorb_atoms_up_to(target);
  }
  if (cells.back().p_above > 0) {
    sweep.absorb(OptimisticSweep::Outcome{cells.back().p_above, cells.back().q_above, range.highest + 1, false});
  }
  return sweep.finish(pair.infinite_loss_mass());
}

}  // namespace

Result<DiscretizedPair> discretize(const PrivacyLossPair& pair, double h, double tail_mass,
                                   const ProgressCallback& progress) {
  DPCALC_TRY(const GridRange range, grid_range(pair, h, tail_mass));
  // The masses are evaluated at up to two grids of n points (the continuous part separately when
  // there are atoms).
  const bool atoms = !pair.atoms().empty();
  const double evaluations = static_cast<double>(atoms ? 2 * range.points() : range.points());
  std::size_t evaluated = 0;
  auto heartbeat = [&]() {
    return !progress || ++evaluated % kProgressPoints != 0 || progress(static_cast<double>(evaluated) / evaluations);
  };
  DPCALC_TRY(const std::vector<LossMasses> at, masses_on_grid(pair, range, h, 0, false, heartbeat));
  DiscretizedPair result;
  result.pessimistic = connect_the_dots(pair, at, range, h);
  if (atoms) {
    // One more point below, so that the shifted grid still starts at or below the lowest loss.
    result.optimistic_offset = top_atom_offset(highest_weighty_atom(pair.atoms()), h);
    GridRange shifted = range;
    if (result.optimistic_offset > 0) --shifted.lowest;
    DPCALC_TRY(const std::vector<LossMasses> continuous,
               masses_on_grid(pair, shifted, h, result.optimistic_offset, true, heartbeat));
    result.optimistic = optimistic(pair, continuous, shifted, h, result.optimistic_offset);
  } else {
    result.optimistic = optimistic(pair, at, range, h, 0);
  }
  trim(result.pessimistic);
  trim(result.optimistic);
  return result;
}

}  // namespace dpcalc::pld
