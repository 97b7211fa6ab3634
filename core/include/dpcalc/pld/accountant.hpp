// Numeric privacy accounting with privacy loss distributions: the composition of
// sum_i count_i copies of mechanism_i, for add/remove neighbours in both directions.
// Method: each item's dominating pair is discretised pessimistically ("connect the dots",
// Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022) and optimistically on one grid, each
// discretisation is composed by FFT (Koskela, Jalko, Honkela 2020), and every query answers for
// the worse direction. The upper values are sound upper bounds (the answer); the lower values are
// sound lower bounds on the exact composition of the items' dominating pairs, so [lower, upper]
// brackets the exact answer and narrows as the discretisation interval shrinks.
// For (eps_i, delta_i) items this brackets the optimal heterogeneous composition (Murtagh and
// Vadhan 2016; Kairouz, Oh, Viswanath 2015, Thm 3.3 for identical items): the randomized-response
// pairs dominate every (eps_i, delta_i)-DP mechanism and the bound is attained by them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/pld/privacy_loss.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

inline constexpr MethodInfo kPldMethod{
    "Privacy loss distribution (connect-the-dots discretisation, FFT composition)",
    "Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022; Koskela, Jälkö, Honkela 2020",
    "doroshenko2022connect koskela2020computing"};

// `count` copies of the dominating pair `pair` (count a whole number in [1, 2^53]).
struct CompositionItem {
  DominatingPair pair;
  double count = 1;
};

struct AccountingOptions {
  // Grid step h of the privacy loss (> 0). 0 (the default) chooses it from relative_accuracy.
  double discretization_interval = 0;
  // Target relative error of eps, used only with the default grid step. The step solves
  // (T h^2 / 8)(1 + 4 / sd) = relative_accuracy * eps_est (connect-the-dots raises each item's mean
  // loss by <= h^2 / 8 and its variance by <= h^2 / 4), with T the total count, sd and
  // eps_est = mean + 4 sd from a Gaussian approximation of the composed loss (coarse pilot
  // discretisation), clamped to [1e-7, 1]; when a step below 1e-4 needs a grid beyond
  // kMaxGridPoints, the computation starts again with the step clamped at 1e-4. When every item with
  // point masses has at least 4 of them on one shared lattice of spacing s >= h (discrete Gaussian
  // and Laplace noise, bounded-range pairs), h is shrunk to s / ceil(s / h), so that the shifted
  // optimistic grid (discretization.hpp) holds every atom; else, when the items with point masses
  // (pure / (eps, delta) items, Laplace) share their highest atom a in the direction with the larger
  // eps_est, h is shrunk to a / ceil(a / h) so that this atom sits on the grid.
  // epsilon_for_delta then halves the step (at most 6 times, within kMaxGridPoints) until
  // epsilon_upper - epsilon_lower <= 4 relative_accuracy epsilon_upper. In (0, 0.1]; default 5e-4
  // (measured: epsilon_upper within 0.04% of the exact value for Gaussians up to eps = 1462, and of
  // dp_accounting at step 1e-4 on the DP-SGD reference rows).
  double relative_accuracy = 5e-4;
  // Total tail mass (> 0, < 1e-3) the discretisation may cut; the upper bound moves it to the
  // infinite loss (adding at most this much to delta) and every result reports it. Default 1e-14.
  // epsilon_for_delta uses at most a tenth of its target delta.
  double tail_mass_truncation = 1e-14;
};

// The options if each is in its range, else an invalid_argument error on the option's name. Every
// query checks them first; a caller that answers without the engine (an exact closed form) checks
// them too, so that a request is refused or accepted alike whichever way it is answered.
Result<AccountingOptions> check_options(const AccountingOptions& options);

// The ε values of a privacy profile query if there are 1 to kMaxProfilePoints of them, each finite
// and >= 0; else an invalid_argument error on "epsilons" (with the value's index as Error::item).
Result<std::vector<double>> check_profile_epsilons(const std::vector<double>& epsilons);

// What every answer carries about the computation.
struct Discretization {
  double discretization_interval = 0;  // grid step h used
  std::int64_t grid_size = 0;          // points of the largest composed PLD
  double truncated_mass = 0;           // mass cut by truncation (upper bound; included in upper values)
};

struct EpsilonBracket {
  double epsilon_upper = 0;  // sound upper bound on eps(delta) (the answer)
  double epsilon_lower = 0;  // sound lower bound on eps(delta) of the exact composition
  // False when, with the default step, the bracket stayed wider than 4 relative_accuracy
  // epsilon_upper (refinement reached the grid limit or stopped narrowing near the delta floor).
  bool accuracy_met = true;
  Discretization discretization;
};

struct DeltaBracket {
  double delta_upper = 0;  // sound upper bound on delta(eps) (the answer; 1 means vacuous)
  double delta_lower = 0;  // sound lower bound on delta(eps) of the exact composition
  Discretization discretization;
};

struct PrivacyProfile {
  std::vector<double> epsilons;     // the requested eps values
  std::vector<double> delta_upper;  // delta_upper[i] bounds delta(epsilons[i]) from above
  std::vector<double> delta_lower;  // and delta_lower[i] from below
  Discretization discretization;
};

// The composed upper and lower PLDs of both directions; the building block of the queries below.
struct ComposedPlds {
  DiscretePld upper_remove, upper_add, lower_remove, lower_add;
  Discretization discretization;
  // True when every pair was symmetric, so that the add PLDs are copies of the remove ones (a reader
  // may then walk one of each; false says nothing).
  bool symmetric = false;
};

// Validates items (errors: invalid_argument with Error::item the item's index, on "count" or on the
// pair's parameter that is wrong: PrivacyLossPair::create), options (on "discretization_interval",
// "relative_accuracy", "tail_mass_truncation"), discretises and composes. Errors ("numeric"), each
// saying what to change: a grid beyond kMaxGridPoints is reported on "discretization_interval" when
// one was given, else on "count" of the item with the largest count (or, when every count is 1, on
// that item's width parameter: "sigma", "scale", "epsilon" of its pair, or "noise" for a finite
// pair); a privacy loss beyond +-700 on the item's width parameter. kCancelled when progress
// returns false.
Result<ComposedPlds> compose_items(const std::vector<CompositionItem>& items, const AccountingOptions& options,
                                   const ProgressCallback& progress = {});

// Smallest eps >= 0 with delta(eps) <= delta (delta in (0, 1), field "delta"). When delta is not
// above the smallest certifiable delta (the infinite-loss mass of the upper bound plus the proven
// bound on the composition's rounding error, see pld.hpp), the error is invalid_argument on
// "delta" and quotes that smallest delta. With the default step the grid is refined while the
// bracket is wider than 4 relative_accuracy (see AccountingOptions) and still narrowing; the
// answer is the intersection of the passes' brackets (each is sound), its discretization that of
// the last pass, and accuracy_met says whether the width was reached.
Result<EpsilonBracket> epsilon_for_delta(const std::vector<CompositionItem>& items, double delta,
                                         const AccountingOptions& options = {}, const ProgressCallback& progress = {});

// epsilon_for_delta's answer and the PLDs it was read from (those of the pass whose discretization
// it reports), for what reads more from them (the trade-off curve) without composing again. The
// upper PLDs are both directions'; the add direction's may lie on a grid 4 to 16 times coarser (its own
// discretization_interval), where that grid already put its ε at or below the remove direction's.
// A lower PLD the answer did not need is not composed: in its place is the PLD of a pair of equal
// laws (mass 1 at loss 0), which every pair dominates, so every query stays sound and bounds nothing
// from below with it.
struct AnsweredEpsilon {
  EpsilonBracket bracket;
  ComposedPlds plds;
};
Result<AnsweredEpsilon> epsilon_for_delta_with_plds(const std::vector<CompositionItem>& items, double delta,
                                                    const AccountingOptions& options = {},
                                                    const ProgressCallback& progress = {});

// delta(eps) for eps finite >= 0 (field "epsilon").
Result<DeltaBracket> delta_for_epsilon(const std::vector<CompositionItem>& items, double epsilon,
                                       const AccountingOptions& options = {}, const ProgressCallback& progress = {});

// delta(eps) at each of `epsilons` (each finite >= 0, field "epsilons.<i>"; at most 10000 values).
Result<PrivacyProfile> privacy_profile(const std::vector<CompositionItem>& items, const std::vector<double>& epsilons,
                                       const AccountingOptions& options = {}, const ProgressCallback& progress = {});

// Queries on already composed PLDs (same semantics as above, no validation of the PLDs).
EpsilonBracket epsilon_bracket(const ComposedPlds& plds, double delta);
DeltaBracket delta_bracket(const ComposedPlds& plds, double epsilon);
// The smallest delta an epsilon query on these PLDs can certify (infinite-loss mass plus the
// bound on the rounding error of the composition).
double smallest_certifiable_delta(const ComposedPlds& plds);

}  // namespace dpcalc::pld
