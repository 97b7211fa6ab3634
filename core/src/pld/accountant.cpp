#include "dpcalc/pld/accountant.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <utility>
#include <variant>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/discretization.hpp"

namespace dpcalc::pld {
namespace {

constexpr double kPilotInterval = 1e-2;
// The add direction's grid step is first tried c times the remove direction's (epsilon_pass), with
// c = sqrt(kCoarseWidth / relative_accuracy) in [4, 16]: a bracket's relative width grows as the
// square of the step, to about 3 relative_accuracy c^2 = 2.4% at the coarse step, small beside the
// usual gap between the directions' ε (3-10% for subsampled Gaussians; σ 1, q 0.001, 10^5 steps,
// δ 1e-5: 1.593 against 1.637).
constexpr double kCoarseWidth = 0.008;
constexpr double kSmallestCoarseFactor = 4;
constexpr double kLargestCoarseFactor = 16;
// The automatic grid step lies in [kSmallestDefaultInterval, kMaxDefaultInterval]; when a step
// below kCoarsestDefaultLimit makes the grid too large, the computation starts again at that limit
// (see with_fitting_step).
constexpr double kSmallestDefaultInterval = 1e-7;
constexpr double kCoarsestDefaultLimit = 1e-4;
constexpr double kMaxDefaultInterval = 1.0;
// See with_fitting_step: a factor small enough that the step that fits stays close to the limit's.
constexpr double kCoarsening = 1.4142135623730951;
constexpr int kMaxCoarsenings = 6;
// Share of the progress that the discretisation takes; the compositions share the rest.
constexpr double kDiscretizationShare = 0.2;
// Largest tail_mass_truncation accepted, and how it is spent: half on the items' discretisation
// (divided among all counts), a quarter on the composition's support; the rest is slack.
constexpr double kMaxTailMassTruncation = 1e-3;
constexpr double kItemTailShare = 0.5;
constexpr double kCompositionTailShare = 0.25;
// Atoms of different items within this relative distance count as one (shared_top_atom).
constexpr double kSameAtomTolerance = 1e-12;
// Pairs with this many atoms or more whose gaps are whole multiples of the smallest one (within
// kLatticeTolerance of it) form a lattice (shared_lattice_step).
constexpr std::size_t kLatticeAtoms = 4;
constexpr double kLatticeTolerance = 1e-6;
// See composed_on_own_lattice.
constexpr double kLatticeSteps = 2;
constexpr double kAtomicTolerance = 1e-9;
// See exact_interval: atoms within this many steps of a grid point count as on it (as the
// discretisations take them: discretization.cpp), and the divisors of a lattice tried.
constexpr double kExactGridTolerance = 1e-9;
constexpr int kMaxLatticeDivisor = 64;
// Floor of the pilot's standard deviation and eps estimate in default_interval.
constexpr double kSmallestEstimate = 1e-3;
constexpr std::size_t kMaxProfilePoints = 10000;
// The sum of count times the optimistic offsets (whole_steps_below) is within this relative margin of
// its exact value; offsets are applied up to kLargestWholeSteps grid steps.
constexpr double kOffsetSumMargin = 1e-9;
constexpr double kLargestWholeSteps = 1e15;
// With the default step, epsilon_for_delta halves the step (at most kMaxRefinements times, and
// while the grid stays within kMaxGridPoints) until upper - lower <= kRefinementWidth *
// relative_accuracy * upper. Since lower <= exact eps, this bounds the error of the answer. The
// default step alone gives a width of about 2 relative_accuracy for continuous pairs; pairs with
// atoms off the grid (several atoms of unrelated losses) have an optimistic bound that converges
// only linearly in the step and are the ones refined.
constexpr double kRefinementWidth = 4;
constexpr int kMaxRefinements = 6;
// ... and stops early, when delta is within kNearFloor times the infinite mass plus the whole grid's
// rounding bound, once a pass leaves more than kMinNarrowing of the previous width.
constexpr double kMinNarrowing = 0.75;
constexpr double kNearFloor = 1000;

struct ItemPairs {
  PrivacyLossPair remove, add;
  double count;
  bool symmetric;
};

Result<std::vector<ItemPairs>> validate_items(const std::vector<CompositionItem>& items) {
  if (items.empty()) return invalid_argument("", "At least one item is needed.");
  std::vector<ItemPairs> pairs;
  for (std::size_t i = 0; i < items.size(); ++i) {
    Result<double> count = check_count(items[i].count, "count");
    if (!count.ok()) return about_item(count.error(), i);
    Result<PrivacyLossPair> remove = PrivacyLossPair::create(items[i].pair, Direction::kRemove);
    if (!remove.ok()) return about_item(remove.error(), i);
    Result<PrivacyLossPair> add = PrivacyLossPair::create(items[i].pair, Direction::kAdd);
    if (!add.ok()) return about_item(add.error(), i);
    pairs.push_back(ItemPairs{remove.value(), add.value(), count.value(), is_symmetric(items[i].pair)});
  }
  return pairs;
}

// What the engine's internal limits (kGridTooLarge, kLossTooLarge) mean for the composition: the
// item and parameter to change (accountant.hpp: compose_items).
struct LimitContext {
  const std::vector<CompositionItem>& items;
  const AccountingOptions& options;  // as given (discretization_interval 0 = automatic)
};

// The parameter of a pair that sets the width of its privacy loss (its own name for it), and its value.
std::pair<std::string, double> width_parameter(const DominatingPair& mechanism) {
  if (const auto* m = std::get_if<LaplacePair>(&mechanism.base)) return {"scale", m->scale};
  if (const auto* m = std::get_if<GaussianPair>(&mechanism.base)) return {"sigma", m->sigma};
  if (const auto* m = std::get_if<MixtureVsGaussianPair>(&mechanism.base)) return {"sigma", m->sigma};
  // The two-mixture pair of DP-SGD under substitution (fuzz seed 2: std::get aborted the module here).
  if (const auto* m = std::get_if<MixtureVsMixturePair>(&mechanism.base)) return {"sigma", m->sigma};
  if (const auto* m = std::get_if<RevealedMixturePair>(&mechanism.base)) {
    return {"sigma", m->parts.empty() ? 0.0 : m->parts.front().sigma};
  }
  if (const auto* m = std::get_if<LaplaceMixturePair>(&mechanism.base)) return {"scale", m->scale};
  if (const auto* m = std::get_if<FinitePair>(&mechanism.base)) {
    double widest = 0;  // the largest finite |loss|: what more noise narrows
    for (std::size_t i = 0; i < m->p.size(); ++i) {
      if (m->p[i] > 0 && m->q[i] > 0) widest = std::max(widest, std::fabs(std::log(m->p[i]) - std::log(m->q[i])));
    }
    return {"noise", widest};
  }
  return {"epsilon", std::get<ApproxDpPair>(mechanism.base).epsilon};
}

// "sigma = 0.001", in the words of the paper: the symbol of a pair's width parameter and its value.
std::string width_text(const std::pair<std::string, double>& width) {
  const std::string& name = width.first;
  const std::string symbol = name == "sigma" ? "σ" : name == "scale" ? "b" : name == "epsilon" ? "ε" : "the noise";
  return symbol + " = " + format_number(width.second);
}

Error explain_limit(const Error& error, const LimitContext& context, std::size_t item, double interval) {
  if (error.field == kLossTooLarge) {
    const auto width = width_parameter(context.items[item].pair);
    const bool epsilon = width.first == "epsilon";
    return about_item(Error{kNumeric, width.first,
                            "This item's privacy loss reaches " + error.message + " (" + width_text(width) +
                                "), beyond ±" + max_loss_text() +
                                ", where e^loss no longer fits a double, so the numeric composition cannot represent "
                                "it (its ε is in the hundreds at any practical δ). " +
                                (epsilon ? "Give an ε of at most " + max_loss_text() + "." : "Add more noise.")},
                      item);
  }
  if (error.field != kGridTooLarge) return error;
  const bool counted = std::isfinite(std::strtod(error.message.c_str(), nullptr));
  const std::string needed = counted ? "about " + error.message : "more than " + std::to_string(kMaxGridPoints);
  const std::string limit = "(limit " + std::to_string(kMaxGridPoints) + " points, which bounds memory and time)";
  if (context.options.discretization_interval != 0) {
    return Error{kNumeric, "discretization_interval",
                 "With a grid step of " + format_number(interval) + " this composition needs " + needed +
                     " grid points " + limit + "; give a larger grid step."};
  }
  std::size_t largest = 0;
  for (std::size_t i = 1; i < context.items.size(); ++i) {
    if (context.items[i].count > context.items[largest].count) largest = i;
  }
  const bool by_count = context.items[largest].count > 1;
  const auto width = width_parameter(context.items[largest].pair);
  return about_item(Error{kNumeric, by_count ? "count" : width.first,
                          "At a relative accuracy of " + format_number(context.options.relative_accuracy) +
                              " the automatic grid step is " + format_number(interval) +
                              ", and this composition needs " + needed + " grid points " + limit + ". " +
                              (by_count ? "Use fewer compositions (the most used item is used " +
                                              format_number(context.items[largest].count) + " times), "
                                        : "Add more noise (now " + width_text(width) + "), ") +
                              "or ask for less accuracy with a larger relative accuracy, or give a larger grid step."},
                    largest);
}

// discretize() for one item, its limits explained.
Result<DiscretizedPair> discretize_item(const PrivacyLossPair& pair, double interval, double tail_mass,
                                        const LimitContext& context, std::size_t item,
                                        const ProgressCallback& progress) {
  Result<DiscretizedPair> result = discretize(pair, interval, tail_mass, progress);
  if (!result.ok()) return explain_limit(result.error(), context, item, interval);
  return result;
}

// Mean and variance of the finite part of a PLD, in loss units.
std::pair<double, double> moments(const DiscretePld& pld) {
  double mass = 0, mean = 0, square = 0;
  for (std::size_t i = 0; i < pld.masses.size(); ++i) {
    const double loss =
        static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(i)) * pld.discretization_interval;
    mass += pld.masses[i];
    mean += pld.masses[i] * loss;
    square += pld.masses[i] * loss * loss;
  }
  if (mass <= 0) return {0, 0};
  mean /= mass;
  return {mean, std::max(0.0, square / mass - mean * mean)};
}

// The highest atom of the remove (or add) direction shared by every item with atoms: when the grid holds it, the
// optimistic discretisation keeps it in place (nothing lies above it to lift a rounded-down share
// back). 0 when there is none or the items disagree.
double shared_top_atom(const std::vector<ItemPairs>& pairs, bool remove) {
  double top = 0;
  for (const auto& item : pairs) {
    const auto& atoms = (remove ? item.remove : item.add).atoms();
    if (atoms.empty()) continue;
    const double loss = atoms.back().loss;
    if (!(loss > 0)) return 0;
    if (top == 0) top = loss;
    if (!(std::fabs(loss - top) <= kSameAtomTolerance * top)) return 0;
  }
  return top;
}

// The spacing of the lattice that a pair's atoms lie on (at least 2 atoms whose gaps are whole
// multiples of the smallest one, within kLatticeTolerance), else 0.
double lattice_step(const PrivacyLossPair& pair) {
  const auto& atoms = pair.atoms();
  if (atoms.size() < 2) return 0;
  double gap = kInfinity;
  for (std::size_t i = 1; i < atoms.size(); ++i) gap = std::min(gap, atoms[i].loss - atoms[i - 1].loss);
  if (!(gap > 0)) return 0;
  for (std::size_t i = 1; i < atoms.size(); ++i) {
    const double steps = (atoms[i].loss - atoms[i - 1].loss) / gap;
    if (!(std::fabs(steps - std::round(steps)) <= kLatticeTolerance)) return 0;
  }
  return gap;
}

// The spacing of the lattice that the atoms of every item with atoms lie on, when they share one and
// each has at least kLatticeAtoms atoms (discrete Gaussian and Laplace noise, the bounded-range pairs):
// with a step that divides it, the optimistic grid, shifted to each item's weightiest top atom
// (discretization.hpp), holds every atom, and the lower bound is exact up to the items' truncation.
// 0 when there is none.
double shared_lattice_step(const std::vector<ItemPairs>& pairs, bool remove) {
  double step = 0;
  for (const auto& item : pairs) {
    const PrivacyLossPair& pair = remove ? item.remove : item.add;
    if (pair.atoms().empty()) continue;
    const double gap = pair.atoms().size() >= kLatticeAtoms ? lattice_step(pair) : 0;
    if (!(gap > 0)) return 0;
    if (step == 0) step = gap;
    if (!(std::fabs(gap - step) <= kSameAtomTolerance * step)) return 0;
  }
  return step;
}

// Whether the atoms and infinite loss of `pair` hold all its P-mass (within kAtomicTolerance): it
// has no continuous part.
bool purely_atomic(const PrivacyLossPair& pair) {
  double atomic = pair.infinite_loss_mass();
  for (const LossAtom& atom : pair.atoms()) atomic += atom.p;
  return atomic >= 1 - kAtomicTolerance;
}

// Whether `pair` is purely atomic with every atom on the grid k h (within kExactGridTolerance of a
// step): then both discretisations put every outcome where it is, and its PLD on that grid is exact.
bool exact_on_grid(const PrivacyLossPair& pair, double h) {
  const auto on_grid = [h](const LossAtom& atom) {
    const double steps = atom.loss / h;
    return std::fabs(steps - std::round(steps)) <= kExactGridTolerance;
  };
  return std::all_of(pair.atoms().begin(), pair.atoms().end(), on_grid) && purely_atomic(pair);
}

// The coarsest step, at most kMaxDefaultInterval, on which every item's PLD is exact in both
// directions (exact_on_grid): the lattice spacing of the first item's atoms divided by the least
// whole number up to kMaxLatticeDivisor that puts every atom of every item on the grid (the discrete
// Gaussian's losses, odd multiples of 1 / (2 sigma^2), need half their spacing). On it only the
// truncated tails and the FFT's rounding separate the bounds, and a finer step only widens them:
// more points, more rounding. 0 when there is none (an item with a continuous part, or atoms on no
// common lattice).
double exact_interval(const std::vector<ItemPairs>& pairs) {
  const double lattice = lattice_step(pairs.front().remove);
  if (!(lattice > 0)) return 0;
  for (int divisor = 1; divisor <= kMaxLatticeDivisor; ++divisor) {
    const double h = lattice / divisor;
    if (h > kMaxDefaultInterval) continue;
    const bool exact = std::all_of(pairs.begin(), pairs.end(), [h](const ItemPairs& item) {
      return exact_on_grid(item.remove, h) && exact_on_grid(item.add, h);
    });
    if (exact) return h;
  }
  return 0;
}

// The default grid step. Connect-the-dots splits a loss l = e_{k-1} + u h between the end points of
// its cell keeping its P- and Q-mass, which raises the item's mean loss by about u (1 - u) h^2 / 2
// <= h^2 / 8 and its variance by about u (1 - u) h^2 <= h^2 / 4. Over T compositions, with the
// composed loss approximately normal (mean m, standard deviation sd, eps ~ m + 4 sd), eps moves by
// about T h^2 / 8 + 4 T (h^2 / 4) / (2 sd) = (T h^2 / 8)(1 + 4 / sd). Solve that for
// relative_accuracy * eps, with m and sd from a coarse pilot discretisation, in each direction.
// The mean term dominates at large eps (large T): there the error relative to eps does not fall
// with T, and a step chosen from the spread alone is too coarse.
Result<double> default_interval(const std::vector<ItemPairs>& pairs, const AccountingOptions& options,
                                const LimitContext& context, double smallest_step, const ProgressCallback& progress) {
  const double exact = exact_interval(pairs);
  if (exact >= smallest_step) return exact;
  // The pilot grids come before any measurable progress: they only keep the cancel alive.
  ProgressCallback heartbeat;
  if (progress) heartbeat = [&](double) { return progress(0); };
  double interval = kMaxDefaultInterval;
  double total_count = 0;
  for (const auto& item : pairs) total_count += item.count;
  double largest_estimate = -1;
  bool remove_dominates = true;
  for (const bool remove : {true, false}) {
    double mean = 0, variance = 0;
    for (std::size_t i = 0; i < pairs.size(); ++i) {
      const ItemPairs& item = pairs[i];
      DPCALC_TRY(const DiscretizedPair pilot, discretize_item(remove ? item.remove : item.add, kPilotInterval,
                                                              options.tail_mass_truncation, context, i, heartbeat));
      const auto [item_mean, item_variance] = moments(pilot.pessimistic);
      mean += item.count * item_mean;
      variance += item.count * item_variance;
    }
    const double sd = std::max(std::sqrt(variance), kSmallestEstimate);
    const double epsilon_estimate = std::max(mean + 4 * sd, kSmallestEstimate);
    if (epsilon_estimate > largest_estimate) {
      largest_estimate = epsilon_estimate;
      remove_dominates = remove;
    }
    interval =
        std::min(interval, std::sqrt(8 * options.relative_accuracy * epsilon_estimate * sd / (total_count * (sd + 4))));
  }
  interval = std::max(interval, smallest_step);
  // A lattice at least one step wide: the largest step at most this one that divides it.
  const double lattice = shared_lattice_step(pairs, remove_dominates);
  if (lattice >= interval) return lattice / std::ceil(lattice / interval);
  // Align the grid to the highest atom of the direction that likely decides eps, from below (in
  // double, atoms sit on or just above their grid point), so that pure / (eps, delta) items and
  // Laplace keep their top point mass exactly in both bounds.
  const double top = shared_top_atom(pairs, remove_dominates);
  if (top > 0) {
    const double cells = std::ceil(top / interval);
    interval = top / cells;
    while (cells * interval > top) interval = std::nextafter(interval, 0.0);
  }
  return interval;
}

// A whole number of grid steps at most `steps` (a sum of at most kMaxGridPoints-scale terms, each
// rounded: the relative margin covers that); 0 beyond the range where a double counts steps exactly.
std::int64_t whole_steps_below(double steps) {
  const double whole = std::floor(steps * (1 - kOffsetSumMargin));
  return whole >= 1 && whole <= kLargestWholeSteps ? static_cast<std::int64_t>(whole) : 0;
}

// The items discretised in one direction on one grid: the input of that direction's compositions.
struct DiscretizedItems {
  std::vector<DiscretizedPair> pairs;
  std::vector<double> counts;
  // The count of each item's optimistic PLD in the composition: 1 where it already holds all the
  // item's copies (composed_on_own_lattice).
  std::vector<double> optimistic_counts;
  double interval = 0;
  double composition_tail = 0;
};

// The PLD with every mass of `pld` moved down to the grid point k h at or below its loss: a lower
// bound, and linear in the masses, so the cut mass and the rounding bound of `pld` carry over.
DiscretePld rounded_down_onto(const DiscretePld& pld, double h) {
  DiscretePld result;
  result.discretization_interval = h;
  result.infinite_mass = pld.infinite_mass;
  result.truncated_mass = pld.truncated_mass;
  result.rounding_error = pld.rounding_error;
  auto point_below = [&](std::size_t i) {
    const double loss =
        static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(i)) * pld.discretization_interval;
    auto k = static_cast<std::int64_t>(std::floor(loss / h));
    while (static_cast<double>(k) * h > loss) --k;
    return k;
  };
  if (pld.masses.empty()) return result;
  result.lowest_index = point_below(0);
  result.masses.assign(static_cast<std::size_t>(point_below(pld.masses.size() - 1) - result.lowest_index) + 1, 0.0);
  for (std::size_t i = 0; i < pld.masses.size(); ++i) {
    result.masses[static_cast<std::size_t>(point_below(i) - result.lowest_index)] += pld.masses[i];
  }
  return result;
}

// The optimistic PLD of `count` copies of a pair on a lattice at least kLatticeSteps steps wide, with
// no continuous part (its atoms and infinite loss hold all its P-mass, within kAtomicTolerance), on
// the grid of step `interval`: the copies are composed on a grid whose step divides the lattice
// spacing (the shifted optimistic grid then holds every atom, discretization.hpp), and only their
// composition is rounded down onto `interval`, which lowers its losses by less than one step in all
// instead of up to one step per copy. (On a finer lattice, or with a continuous part, the copies are
// as well composed with the rest.) nullopt when the step already divides the spacing or the fine
// grid exceeds the engine's limits: the copies are then composed with the rest.
std::optional<DiscretePld> composed_on_own_lattice(const PrivacyLossPair& pair, double count, double interval,
                                                   double item_tail, double composition_tail) {
  const double lattice = lattice_step(pair);
  if (!(count > 1 && lattice >= kLatticeSteps * interval)) return std::nullopt;
  if (!purely_atomic(pair)) return std::nullopt;
  const double fine = lattice / std::ceil(lattice / interval);
  if (!(fine < interval * (1 - kSameAtomTolerance))) return std::nullopt;
  const Result<DiscretizedPair> own = discretize(pair, fine, item_tail);
  if (!own.ok()) return std::nullopt;
  Result<DiscretePld> copies = compose({CompositionTerm{&own.value().optimistic, count}}, false, composition_tail);
  if (!copies.ok()) return std::nullopt;
  DiscretePld& composed = copies.value();
  composed.lowest_index += whole_steps_below(count * (own.value().optimistic_offset / fine));
  return rounded_down_onto(composed, interval);
}

// Discretises every item in one direction (remove, or add) on the grid of step `interval`. Progress
// over [0, 1].
Result<DiscretizedItems> discretize_direction(const std::vector<ItemPairs>& pairs, const LimitContext& context,
                                              double interval, bool remove, const ProgressCallback& progress) {
  const AccountingOptions& options = context.options;
  DiscretizedItems result;
  result.interval = interval;
  double total_count = 0;
  for (const auto& item : pairs) total_count += item.count;
  const double item_tail = kItemTailShare * options.tail_mass_truncation / total_count;
  result.composition_tail = kCompositionTailShare * options.tail_mass_truncation;
  auto item_progress = [&](std::size_t i) -> ProgressCallback {
    if (!progress) return {};
    return [&, i](double f) { return progress((static_cast<double>(i) + f) / static_cast<double>(pairs.size())); };
  };
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const PrivacyLossPair& pair = remove ? pairs[i].remove : pairs[i].add;
    result.counts.push_back(pairs[i].count);
    DPCALC_TRY(DiscretizedPair discretized,
               discretize_item(pair, result.interval, item_tail, context, i, item_progress(i)));
    result.optimistic_counts.push_back(pairs[i].count);
    if (auto copies = composed_on_own_lattice(pair, pairs[i].count, interval, item_tail, result.composition_tail)) {
      discretized.optimistic = std::move(*copies);
      discretized.optimistic_offset = 0;  // rounded down onto the unshifted grid
      result.optimistic_counts.back() = 1;
    }
    result.pairs.push_back(std::move(discretized));
    if (progress && !progress(static_cast<double>(i + 1) / static_cast<double>(pairs.size()))) return cancelled();
  }
  return result;
}

bool all_symmetric(const std::vector<ItemPairs>& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [](const ItemPairs& item) { return item.symmetric; });
}

// The upper (pessimistic) or lower (optimistic) composed PLD of one direction.
Result<DiscretePld> compose_direction(const DiscretizedItems& items, const LimitContext& context, bool pessimistic,
                                      CompositionWorkspace& workspace, const ProgressCallback& progress) {
  const std::vector<DiscretizedPair>& pairs = items.pairs;
  std::vector<CompositionTerm> terms;
  double offset_steps = 0;  // sum of count times optimistic offset, in grid steps
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    const double count = pessimistic ? items.counts[i] : items.optimistic_counts[i];
    terms.push_back(CompositionTerm{pessimistic ? &pairs[i].pessimistic : &pairs[i].optimistic, count});
    offset_steps += count * (pairs[i].optimistic_offset / items.interval);
  }
  Result<DiscretePld> composed = compose(terms, pessimistic, items.composition_tail, progress, &workspace);
  if (!composed.ok()) return explain_limit(composed.error(), context, 0, items.interval);
  // The optimistic composition sits offset_steps grid steps above its indices: it moves up by the
  // whole steps (rounded down, with room for the rounding of the sum) and its losses are lowered by
  // the fraction left, which keeps it a lower bound (delta grows with the loss).
  if (!pessimistic) composed.value().lowest_index += whole_steps_below(offset_steps);
  return composed;
}

// progress restricted to [start, start + share].
ProgressCallback progress_part(const ProgressCallback& progress, double start, double share) {
  if (!progress) return {};
  return [&progress, start, share](double f) { return progress(start + share * f); };
}

Discretization discretization_of(double interval, const DiscretePld& upper_remove, const DiscretePld& upper_add) {
  Discretization result;
  result.discretization_interval = interval;
  result.grid_size = static_cast<std::int64_t>(std::max(upper_remove.masses.size(), upper_add.masses.size()));
  result.truncated_mass = std::max(upper_remove.truncated_mass, upper_add.truncated_mass);
  return result;
}

// Runs `pass(interval)` on the request's grid step, or on the automatic one, allowed down to
// kSmallestDefaultInterval; when an automatic step below kCoarsestDefaultLimit makes the grid
// exceed kMaxGridPoints, runs it again with the step no finer than that limit, then with that step
// times kCoarsening (up to kMaxCoarsenings times) while the grid is still too large: asking for
// more accuracy than the grid can hold then gives the bracket the grid holds (refinement stops at
// the limit) rather than an error. The pilot discretisations of the automatic step only keep the
// cancel alive (progress reports 0).
template <class Pass>
auto with_fitting_step(const std::vector<ItemPairs>& pairs, const LimitContext& context,
                       const ProgressCallback& progress, Pass pass) -> decltype(pass(0.0)) {
  const double requested = context.options.discretization_interval;
  if (requested != 0) return pass(requested);
  DPCALC_TRY(const double interval,
             default_interval(pairs, context.options, context, kSmallestDefaultInterval, progress));
  auto result = pass(interval);
  if (result.ok() || result.error().code != kNumeric || interval >= kCoarsestDefaultLimit) return result;
  DPCALC_TRY(double coarser, default_interval(pairs, context.options, context, kCoarsestDefaultLimit, progress));
  for (int coarsening = 0; coarsening <= kMaxCoarsenings; ++coarsening, coarser *= kCoarsening) {
    auto retry = pass(coarser);
    if (retry.ok()) return retry;
    if (retry.error().code != kNumeric) break;
  }
  return result;
}

// The PLD of a pair whose two laws are equal (mass 1 at loss 0): every pair dominates it (its
// delta(eps) = (1 - e^eps)_+ is the least any pair has), so it is a sound optimistic PLD of any
// composition, one that bounds nothing from below. It stands for a lower PLD that was not composed.
DiscretePld identity_pld(double interval) {
  DiscretePld identity;
  identity.discretization_interval = interval;
  identity.masses = {1.0};
  return identity;
}

// One pass of epsilon_for_delta on one grid: the remove direction's upper and lower PLDs, then the
// add direction's upper PLD on a grid 4 to 16 times coarser (see kCoarseWidth: a quarter of the
// points or fewer, and of the work). Where that ε is at most the remove direction's upper ε, the add direction
// cannot raise the bracket's upper end (its exact ε lies below its coarse bound) and its lower end
// is not needed (the remove direction's lower PLD bounds the composition's ε from below): the
// pass ends there, with the coarse upper PLD and no lower one. Otherwise the add direction is
// composed on the fine grid too, and its lower PLD only when its upper ε exceeds the lower bound
// (below it, that direction's exact ε cannot raise the lower bound). The bracket is the one
// epsilon_bracket gives on all four PLDs; `reachable` is smallest_certifiable_delta. (DP-SGD σ 1,
// q 0.01, 10^4 steps: the add direction's ε is below the remove direction's by far more than the
// coarse grid's error, and the pass composes little more than 2 fine grids' worth instead of 3.)
struct EpsilonPass {
  double reachable = 0;
  // The infinite mass plus the whole grid's rounding bound: near it, that bound (not the grid) sets
  // the width, even where the masses above ε carry less error and δ is certified below it.
  double rounding_floor = 0;
  EpsilonBracket bracket;  // when delta > reachable
  // What the pass composed: a lower PLD it did not need is identity_pld(); when symmetric, only the
  // remove direction (the add direction is the same).
  ComposedPlds plds;
  bool symmetric = false;
};

// The upper PLD of the add direction on the coarse grid (its own FFT plan, so that the fine plan of
// `pass` is kept for the fine compositions), when it settles that direction (see EpsilonPass).
Result<std::optional<DiscretePld>> settling_coarse_add(const std::vector<ItemPairs>& pairs, const LimitContext& context,
                                                       double delta, double interval, double remove_upper,
                                                       const ProgressCallback& progress) {
  const double factor = std::clamp(std::sqrt(kCoarseWidth / context.options.relative_accuracy), kSmallestCoarseFactor,
                                   kLargestCoarseFactor);
  const double coarse_interval = factor * interval;
  Result<DiscretizedItems> coarse =
      discretize_direction(pairs, context, coarse_interval, false, progress_part(progress, 0, 0.5));
  if (!coarse.ok()) {
    if (coarse.error().code == kCancelled) return coarse.error();
    return std::optional<DiscretePld>{};  // the fine grid decides
  }
  CompositionWorkspace workspace;
  Result<DiscretePld> upper =
      compose_direction(coarse.value(), context, true, workspace, progress_part(progress, 0.5, 0.5));
  if (!upper.ok()) {
    if (upper.error().code == kCancelled) return upper.error();
    return std::optional<DiscretePld>{};
  }
  if (!(delta > delta_floor(upper.value()))) return std::optional<DiscretePld>{};
  if (!(epsilon_for_delta(upper.value(), delta, Bound::kUpper) <= remove_upper)) return std::optional<DiscretePld>{};
  return std::optional<DiscretePld>{std::move(upper).value()};
}

Result<EpsilonPass> epsilon_pass(const std::vector<ItemPairs>& pairs, const LimitContext& context, double delta,
                                 double interval, const ProgressCallback& progress) {
  const bool symmetric = all_symmetric(pairs);
  // Progress: the remove direction in [0, 0.5) (a fifth of it discretising), the coarse add direction
  // in [0.5, 0.6), the fine one in [0.6, 1].
  const double remove_share = symmetric ? 1.0 : 0.5;
  DPCALC_TRY(const DiscretizedItems removes,
             discretize_direction(pairs, context, interval, true,
                                  progress_part(progress, 0, kDiscretizationShare * remove_share)));
  CompositionWorkspace workspace;
  const double compose_share = (1 - kDiscretizationShare) * remove_share / 2;
  auto remove_part = [&](int k) {
    return progress_part(progress, kDiscretizationShare * remove_share + k * compose_share, compose_share);
  };
  EpsilonPass pass;
  pass.symmetric = symmetric;
  ComposedPlds& plds = pass.plds;
  DPCALC_TRY(plds.upper_remove, compose_direction(removes, context, true, workspace, remove_part(0)));
  const DiscretePld& upper_remove = plds.upper_remove;
  plds.lower_remove = plds.lower_add = identity_pld(interval);
  auto finish = [&](const DiscretePld& upper_add) {
    pass.reachable = std::max(delta_floor(upper_remove), delta_floor(upper_add));
    pass.rounding_floor = std::max(upper_remove.infinite_mass + upper_remove.rounding_error,
                                   upper_add.infinite_mass + upper_add.rounding_error);
    pass.bracket.discretization = discretization_of(interval, upper_remove, upper_add);
    plds.discretization = pass.bracket.discretization;
  };
  if (!(delta > delta_floor(upper_remove))) {
    finish(upper_remove);
    return pass;
  }
  const double remove_upper = epsilon_for_delta(upper_remove, delta, Bound::kUpper);
  // The optimistic PLD's delta exceeds the exact one by at most its truncated mass.
  auto lower_epsilon = [&](const DiscretePld& lower) {
    return epsilon_for_delta(lower, delta + lower.truncated_mass, Bound::kLower);
  };
  DPCALC_TRY(plds.lower_remove, compose_direction(removes, context, false, workspace, remove_part(1)));
  double lower = lower_epsilon(plds.lower_remove);
  double upper = remove_upper;
  if (symmetric) {
    finish(upper_remove);
  } else {
    DPCALC_TRY(std::optional<DiscretePld> coarse_add,
               settling_coarse_add(pairs, context, delta, interval, remove_upper, progress_part(progress, 0.5, 0.1)));
    if (coarse_add) {
      plds.upper_add = std::move(*coarse_add);
    } else {
      DPCALC_TRY(const DiscretizedItems adds,
                 discretize_direction(pairs, context, interval, false, progress_part(progress, 0.6, 0.1)));
      DPCALC_TRY(plds.upper_add, compose_direction(adds, context, true, workspace, progress_part(progress, 0.7, 0.15)));
      if (delta > delta_floor(plds.upper_add)) {
        const double add_upper = epsilon_for_delta(plds.upper_add, delta, Bound::kUpper);
        upper = std::max(upper, add_upper);
        if (add_upper > lower) {
          DPCALC_TRY(plds.lower_add,
                     compose_direction(adds, context, false, workspace, progress_part(progress, 0.85, 0.15)));
          lower = std::max(lower, lower_epsilon(plds.lower_add));
        }
      }
    }
    finish(plds.upper_add);
  }
  if (!(delta > pass.reachable)) return pass;
  pass.bracket.epsilon_upper = upper;
  pass.bracket.epsilon_lower = std::min(lower, upper);
  return pass;
}

}  // namespace

Result<AccountingOptions> check_options(const AccountingOptions& options) {
  if (!(options.discretization_interval >= 0 && options.discretization_interval <= 10)) {
    return invalid_argument("discretization_interval",
                            "The grid step must be 0 (automatic) or a number in (0, 10] (got " +
                                format_number(options.discretization_interval) + ").");
  }
  if (!(options.relative_accuracy > 0 && options.relative_accuracy <= 0.1)) {
    return invalid_argument("relative_accuracy", "The relative accuracy must be a number in (0, 0.1] (got " +
                                                     format_number(options.relative_accuracy) + ").");
  }
  if (!(options.tail_mass_truncation > 0 && options.tail_mass_truncation < kMaxTailMassTruncation)) {
    return invalid_argument("tail_mass_truncation", "The truncated tail mass must be a number in (0, " +
                                                        format_number(kMaxTailMassTruncation) + ") (got " +
                                                        format_number(options.tail_mass_truncation) + ").");
  }
  return options;
}

Result<ComposedPlds> compose_items(const std::vector<CompositionItem>& items, const AccountingOptions& options,
                                   const ProgressCallback& progress) {
  DPCALC_TRY(const AccountingOptions checked, check_options(options));
  DPCALC_TRY(const std::vector<ItemPairs> pairs, validate_items(items));
  const LimitContext context{items, checked};
  return with_fitting_step(pairs, context, progress, [&](double interval) -> Result<ComposedPlds> {
    const bool symmetric = all_symmetric(pairs);
    const double direction_share = symmetric ? 1.0 : 0.5;
    CompositionWorkspace workspace;  // the compositions usually share one FFT size
    // One direction's upper and lower PLDs; its discretisation is the first fifth of its progress.
    auto direction = [&](bool remove, DiscretePld& upper, DiscretePld& lower) -> Result<bool> {
      const double start = remove ? 0 : direction_share;
      DPCALC_TRY(const DiscretizedItems discretized,
                 discretize_direction(pairs, context, interval, remove,
                                      progress_part(progress, start, kDiscretizationShare * direction_share)));
      const double share = (1 - kDiscretizationShare) * direction_share / 2;
      const double composing = start + kDiscretizationShare * direction_share;
      DPCALC_TRY(upper,
                 compose_direction(discretized, context, true, workspace, progress_part(progress, composing, share)));
      DPCALC_TRY(lower, compose_direction(discretized, context, false, workspace,
                                          progress_part(progress, composing + share, share)));
      return true;
    };
    ComposedPlds result;
    DPCALC_CHECK(direction(true, result.upper_remove, result.lower_remove));
    if (symmetric) {
      result.upper_add = result.upper_remove;
      result.lower_add = result.lower_remove;
      result.symmetric = true;
    } else {
      DPCALC_CHECK(direction(false, result.upper_add, result.lower_add));
    }
    result.discretization = discretization_of(interval, result.upper_remove, result.upper_add);
    return result;
  });
}

EpsilonBracket epsilon_bracket(const ComposedPlds& plds, double delta) {
  EpsilonBracket bracket;
  bracket.discretization = plds.discretization;
  bracket.epsilon_upper = 0;
  for (const DiscretePld* pld : {&plds.upper_remove, &plds.upper_add}) {
    bracket.epsilon_upper = std::max(bracket.epsilon_upper, epsilon_for_delta(*pld, delta, Bound::kUpper));
  }
  for (const DiscretePld* pld : {&plds.lower_remove, &plds.lower_add}) {
    // The optimistic PLD's delta exceeds the exact one by at most its truncated mass.
    bracket.epsilon_lower =
        std::max(bracket.epsilon_lower, epsilon_for_delta(*pld, delta + pld->truncated_mass, Bound::kLower));
  }
  bracket.epsilon_lower = std::min(bracket.epsilon_lower, bracket.epsilon_upper);
  return bracket;
}

DeltaBracket delta_bracket(const ComposedPlds& plds, double epsilon) {
  DeltaBracket bracket;
  bracket.discretization = plds.discretization;
  for (const DiscretePld* pld : {&plds.upper_remove, &plds.upper_add}) {
    bracket.delta_upper = std::max(bracket.delta_upper, std::min(1.0, hockey_stick_divergence(*pld, epsilon).upper()));
  }
  for (const DiscretePld* pld : {&plds.lower_remove, &plds.lower_add}) {
    const double lower = hockey_stick_divergence(*pld, epsilon).lower() - pld->truncated_mass;
    bracket.delta_lower = std::max(bracket.delta_lower, std::max(0.0, lower));
  }
  bracket.delta_lower = std::min(bracket.delta_lower, bracket.delta_upper);
  return bracket;
}

double smallest_certifiable_delta(const ComposedPlds& plds) {
  return std::max(delta_floor(plds.upper_remove), delta_floor(plds.upper_add));
}

namespace {

// epsilon_for_delta; with `kept`, also the PLDs of the pass whose discretization the answer reports.
Result<EpsilonBracket> epsilon_search(const std::vector<CompositionItem>& items, double delta,
                                      const AccountingOptions& options, const ProgressCallback& progress,
                                      ComposedPlds* kept) {
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  // A tenth of the target is the truncation budget below; it must stay a normal double (> 0).
  if (!(target / 10 >= std::numeric_limits<double>::min())) {
    return invalid_argument("delta", "δ must be at least " + format_number(10 * std::numeric_limits<double>::min()) +
                                         " for the numeric composition, which works in double precision (got " +
                                         format_number(target) + ").");
  }
  DPCALC_TRY(const AccountingOptions checked, check_options(options));
  DPCALC_TRY(const std::vector<ItemPairs> pairs, validate_items(items));
  // Each pass is a complete, sound computation; a refinement pass only replaces the previous
  // answer. Pass i reports its progress in [1 - 2^-i, 1 - 2^-(i+1)].
  AccountingOptions pass_options = checked;
  // The truncated tail counts towards delta: keep it a small fraction of the target.
  pass_options.tail_mass_truncation = std::min(checked.tail_mass_truncation, target / 10);
  EpsilonBracket answer;
  double previous_width = kInfinity;
  // On the step where every item is exact, a finer one only adds rounding (exact_interval).
  const double exact_step = exact_interval(pairs);
  for (int pass = 0; pass <= kMaxRefinements; ++pass) {
    const double start = 1 - std::ldexp(1.0, -pass);
    ProgressCallback scaled;
    if (progress) scaled = [&](double f) { return progress(start + std::ldexp(f, -pass - 1)); };
    const LimitContext context{items, pass_options};
    Result<EpsilonPass> computed = with_fitting_step(pairs, context, scaled, [&](double interval) {
      return epsilon_pass(pairs, context, target, interval, scaled);
    });
    if (!computed.ok()) {
      // A refinement that would exceed the grid limit keeps the previous, coarser answer.
      if (pass > 0 && computed.error().code == kNumeric) break;
      return computed.error();
    }
    const double reachable = computed.value().reachable;
    if (!(target > reachable)) {
      if (pass > 0) break;
      return invalid_argument("delta",
                              "δ must be larger than " + format_number(reachable) +
                                  ", the smallest δ this numeric composition can certify (the items' infinite "
                                  "privacy loss mass plus the proven bound on the FFT's floating-point error); got " +
                                  format_number(target) + ".");
    }
    const EpsilonBracket& bracket = computed.value().bracket;
    if (kept != nullptr) {
      *kept = std::move(computed.value().plds);
      if (computed.value().symmetric) {
        kept->upper_add = kept->upper_remove;
        kept->lower_add = kept->lower_remove;
        kept->symmetric = true;
      }
    }
    if (pass == 0) {
      answer = bracket;
    } else {
      // Every pass is sound, so their brackets intersect.
      answer.epsilon_upper = std::min(answer.epsilon_upper, bracket.epsilon_upper);
      answer.epsilon_lower = std::max(answer.epsilon_lower, bracket.epsilon_lower);
      answer.discretization = bracket.discretization;
    }
    const double width = answer.epsilon_upper - answer.epsilon_lower;
    answer.accuracy_met = width <= kRefinementWidth * checked.relative_accuracy * answer.epsilon_upper;
    if (checked.discretization_interval != 0 || answer.accuracy_met) break;
    if (bracket.discretization.discretization_interval == exact_step) break;
    // Near the delta floor the bound on the FFT's rounding error, not the grid, sets the width:
    // stop there when halving the step no longer narrows the bracket much. (Elsewhere the width
    // can stall for a pass and then drop, for atoms that land on the grid only every few passes.)
    if (target < kNearFloor * computed.value().rounding_floor && width > kMinNarrowing * previous_width) break;
    previous_width = width;
    pass_options.discretization_interval = 0.5 * bracket.discretization.discretization_interval;
  }
  if (progress && !progress(1.0)) return cancelled();
  return answer;
}

}  // namespace

Result<EpsilonBracket> epsilon_for_delta(const std::vector<CompositionItem>& items, double delta,
                                         const AccountingOptions& options, const ProgressCallback& progress) {
  return epsilon_search(items, delta, options, progress, nullptr);
}

Result<AnsweredEpsilon> epsilon_for_delta_with_plds(const std::vector<CompositionItem>& items, double delta,
                                                    const AccountingOptions& options,
                                                    const ProgressCallback& progress) {
  AnsweredEpsilon answered;
  DPCALC_TRY(answered.bracket, epsilon_search(items, delta, options, progress, &answered.plds));
  return answered;
}

Result<DeltaBracket> delta_for_epsilon(const std::vector<CompositionItem>& items, double epsilon,
                                       const AccountingOptions& options, const ProgressCallback& progress) {
  DPCALC_TRY(const double checked, check_profile_epsilon(epsilon, "epsilon"));
  DPCALC_TRY(const ComposedPlds plds, compose_items(items, options, progress));
  return delta_bracket(plds, checked);
}

Result<std::vector<double>> check_profile_epsilons(const std::vector<double>& epsilons) {
  if (epsilons.empty() || epsilons.size() > kMaxProfilePoints) {
    return invalid_argument("epsilons", "A privacy profile is asked at 1 to " + std::to_string(kMaxProfilePoints) +
                                            " values of ε (got " + std::to_string(epsilons.size()) + ").");
  }
  for (std::size_t i = 0; i < epsilons.size(); ++i) {
    if (Result<double> checked = check_profile_epsilon(epsilons[i], "epsilons"); !checked.ok())
      return about_item(checked.error(), i);
  }
  return epsilons;
}

Result<PrivacyProfile> privacy_profile(const std::vector<CompositionItem>& items, const std::vector<double>& epsilons,
                                       const AccountingOptions& options, const ProgressCallback& progress) {
  DPCALC_TRY(const std::vector<double> checked, check_profile_epsilons(epsilons));
  DPCALC_TRY(const ComposedPlds plds, compose_items(items, options, progress));
  PrivacyProfile profile;
  profile.epsilons = checked;
  profile.discretization = plds.discretization;
  for (double epsilon : epsilons) {
    const DeltaBracket bracket = delta_bracket(plds, epsilon);
    profile.delta_upper.push_back(bracket.delta_upper);
    profile.delta_lower.push_back(bracket.delta_lower);
  }
  return profile;
}

}  // namespace dpcalc::pld
