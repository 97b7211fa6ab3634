// Rényi DP of hyperparameter tuning by random repetition (Papernot & Steinke 2022, "Hyperparameter
// tuning with Renyi differential privacy", ICLR): run a base algorithm Q (one training run, itself any
// composition) K times, K random and independent of the data, and release only the best of the K
// outputs (by any total order on them). With Q (λ, ε(λ))-RDP at every order:
//  * K truncated negative binomial D_{η,γ}, P[K = k] ∝ C(k + η − 1, k)(1 − γ)^k for k ≥ 1, shape
//    η > −1 (η = 0 the logarithmic law, η = 1 the geometric), E[K] = η(1 − γ)/(γ(1 − γ^η))
//    ((1/γ − 1)/log(1/γ) at η = 0) (ibid., Thm 2): for every λ > 1 and auxiliary order λ̂ ≥ 1,
//      ε′(λ) = ε(λ) + (1 + η)[(1 − 1/λ̂)ε(λ̂) + log(1/γ)/λ̂] + log E[K]/(λ − 1);
//  * K ~ Poisson(μ) (ibid., Thm 6): for every λ > 1, with Q (ε̂, δ̂)-DP at e^{ε̂} = 1 + 1/(λ − 1),
//      ε′(λ) = ε(λ) + μ δ̂ + log μ/(λ − 1),
//    δ̂ converted from the base curve (closed_form/conversions.hpp: rdp_to_delta, whose minimum over
//    the curve's orders is the auxiliary order).
// The auxiliary order is chosen per order (the bracket does not depend on λ for the negative
// binomial; δ̂ does for Poisson), among the orders the base curve is known at. At λ = ∞ the bounds'
// limits: ε(∞) + (1 + η)[...] and ε(∞) + μ δ̂(0) (D_∞ is the limit of D_λ, and δ̂ falls with ε̂); at
// λ = 1 nothing (+infinity) before the last step: the curve is made non-decreasing from above
// (monotone_envelope, rdp_function.hpp), so that an order also inherits the bound of every larger one.
// Everything is rounded up. dp_accounting 0.6.0 implements the same theorems in
// _compute_rdp_repeat_and_select (RepeatAndSelectDpEvent(event, mean, shape), shape ∞ = Poisson),
// with the auxiliary order among its orders; its δ̂ skips the orders up to 1.01.
#pragma once

#include <vector>

#include "dpcalc/method_info.hpp"
#include "dpcalc/rdp/rdp_function.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kRepeatAndSelectRdp{
    "Rényi DP of hyperparameter tuning: the best of a random number of runs", "Papernot & Steinke 2022, Thms 2 and 6",
    "papernot2022hyperparameter"};

enum class RepetitionLaw { kTruncatedNegativeBinomial, kPoisson };

// The law of the number of runs K: its mean E[K] ≥ 1 (finite) and, for the truncated negative
// binomial, its shape η > −1 (finite).
struct Repetitions {
  RepetitionLaw law = RepetitionLaw::kTruncatedNegativeBinomial;
  double mean = 1;
  double shape = 1;
};

// The checks above: invalid_argument on "mean" or "shape" (Error::field), in plain words.
Result<Repetitions> check_repetitions(const Repetitions& repetitions);

// γ of the truncated negative binomial of this shape and mean, rounded down (a smaller γ only raises
// log(1/γ), so the bound stays a bound): the γ in (0, 1] whose mean, computed within 1e-12 relative,
// is at least `mean`; 1 for mean 1 (K = 1). Preconditions: check_repetitions.
double truncated_negative_binomial_gamma(double shape, double mean);

// ε′ at every order of `orders` (strictly increasing, each 1, in (1, kMaxOrder] or +infinity) from
// the base curve ε at the same orders (base[i] at orders[i], upper bounds, +infinity allowed), the
// auxiliary order ranging over them. An upper bound at every order; +infinity where none is finite.
// Errors: invalid_argument on "base_epsilons" when the lengths differ; those of check_repetitions.
Result<std::vector<double>> repeat_and_select_rdp(const Repetitions& repetitions, const std::vector<double>& orders,
                                                  const std::vector<double>& base_epsilons);

// The same for a base curve given as a function: its auxiliary orders are `orders`, 1, +infinity
// and default_orders() (subsampled_gaussian_rdp.hpp), together; base is evaluated once at each.
Result<std::vector<double>> repeat_and_select_rdp(const Repetitions& repetitions, const std::vector<double>& orders,
                                                  const RdpFunction& base);

}  // namespace dpcalc::rdp
