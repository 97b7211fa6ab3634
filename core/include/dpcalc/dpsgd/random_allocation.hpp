// DP-SGD with balls-and-bins batches (random allocation): every example is put in exactly one
// uniformly random step of each epoch of t steps, independently of the others, for E epochs.
// For one epoch the remove-direction dominating pair is (Feldman & Shenfeld 2025, arXiv 2502.08202)
//   P = (1/t) sum_i N(e_i, sigma^2 I_t)  against  Q = N(0, sigma^2 I_t),
// with likelihood ratio W = dP/dQ = (1/t) sum_i V_i, V_i = exp((x_i - 1/2) / sigma^2): under Q the
// V_i are i.i.d. log-normal, ln V ~ N(-1/(2 sigma^2), 1/sigma^2), E[V] = 1; the add direction is the
// swapped pair (Q, P). Zero-out neighbours (one example replaced by one whose clipped gradient is 0)
// have the same pair: that example adds nothing to any batch and its bin is independent of the
// others', so the output has the law it has without it. E epochs compose the pair E times.
// Method (docs/random_allocation.md): V is discretised on a linear lattice of step `factor_step` in
// the likelihood ratio, by a mean-preserving spread (upper bound) or by merging outcomes (lower
// bound); the t-fold sum of the lattice law is computed by the engine's FFT composition with its
// proven rounding bound; the law of W = sum / t is spread (upper) or merged (lower) onto the loss grid
// {j h}, h = `loss_step`; the E epochs are composed by the engine (pld::compose) and queried as any
// PLD (pld::epsilon_bracket). Upper values are sound upper bounds, lower values sound lower bounds on
// the exact epsilon(delta) of the E-fold composition of the pair above (both directions, the worse
// one answering). t = 1 is the Gaussian mechanism with sensitivity 1, answered exactly by the analytic
// Gaussian (Balle & Wang 2018) at mu = sqrt(E) / sigma.
#pragma once

#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/ratio_lattice.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

inline constexpr MethodInfo kRandomAllocationMethod{
    "Random allocation (balls-and-bins batches): privacy loss distribution of the mixture pair, its factors "
    "discretised in the likelihood ratio",
    "Feldman & Shenfeld 2025; Feldman & Shenfeld 2026; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "feldman2025privacy feldman2026efficient doroshenko2022connect"};

// The grid of one computation.
struct RandomAllocationGrid {
  double factor_step = 0;  // lattice step of V (> 0)
  double loss_step = 0;    // engine loss grid step h (> 0)
  double tail_mass = 0;    // total mass the truncations may cut, over all epochs (> 0)
};

// One epoch's pessimistic (upper) and optimistic (lower) PLDs of both directions, on the loss grid.
// steps_per_epoch: whole number >= 2 (t); noise_multiplier: sigma > 0 finite; grid as above.
// Errors: numeric on "noise_multiplier" when the lattice of V needs more than pld::kMaxGridPoints
// points (sigma too small for this factor_step), on "steps_per_epoch" when the t-fold sum does, on
// "loss_step" when the loss grid does; each message names the limit.
Result<pld::ComposedPlds> random_allocation_epoch_plds(double steps_per_epoch, double noise_multiplier,
                                                       const RandomAllocationGrid& grid);

// The epoch PLDs composed `epochs` times (whole number >= 1), on that grid. Errors as above, and
// numeric on "epochs" when the composed grid exceeds pld::kMaxGridPoints.
Result<pld::ComposedPlds> random_allocation_plds(double steps_per_epoch, double noise_multiplier, double epochs,
                                                 const RandomAllocationGrid& grid);

struct RandomAllocationEpsilon {
  pld::EpsilonBracket bracket;  // epsilon_upper (the answer) and epsilon_lower
  RandomAllocationGrid grid;    // of the last pass (unset for t = 1)
  bool exact = false;           // t = 1: the analytic Gaussian, upper and lower rounded outwards
  int passes = 0;
};

// Certified bracket on epsilon(delta) of E epochs of random allocation over t steps with noise
// multiplier sigma. Preconditions (checked, invalid_argument on the parameter's name):
// steps_per_epoch and epochs whole numbers in [1, 2^53], noise_multiplier > 0 finite, delta in (0, 1),
// relative_accuracy in (0, 0.1]. The grid starts from relative_accuracy (docs/random_allocation.md,
// eqs (12)-(13)) and both steps are halved (at most 4 times, within the grid limits) until
// epsilon_upper - epsilon_lower <= 4 relative_accuracy epsilon_upper; the brackets of the passes
// intersect (each is sound); bracket.accuracy_met says whether the width was reached. Errors:
// invalid_argument on "delta" when delta is not above the smallest delta the PLDs certify; numeric as
// random_allocation_plds for the first pass (a later pass beyond a limit keeps the earlier answer).
Result<RandomAllocationEpsilon> random_allocation_epsilon(double steps_per_epoch, double noise_multiplier,
                                                          double epochs, double delta, double relative_accuracy = 5e-4);

}  // namespace dpcalc::dpsgd
