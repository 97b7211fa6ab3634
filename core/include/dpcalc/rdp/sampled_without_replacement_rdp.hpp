// Rényi DP of the Gaussian mechanism run on a sample drawn without replacement, for neighbours that
// substitute one record (Wang, Balle, Kasiviswanathan 2019, "Subsampled Rényi differential privacy
// and analytical moments accountant", AISTATS, Thm 27, the bound for the subsampled Gaussian). With
// γ = m/n, noise multiplier σ and integer order α ≥ 2:
//   ε(α) = log(1 + Σ_{j=2}^{α} γ^j C(α, j) B_j) / (α − 1),
// where, with c(x) = x(x+1)/(2σ²) the Gaussian's cumulant and Δ^i the forward differences of the
// sequence 1, e^{c(0)}, e^{c(1)}, …:
//   j = 2: min(4 (e^{ε(2)} − 1), 2 e^{ε(2)}) with ε(2) = 2/(2σ²);
//   j ≥ 3: min(4 √(|Δ^{2⌊j/2⌋}| |Δ^{2⌈j/2⌉}|), 2 e^{c(j−1)}),
// evaluated as dp_accounting 0.6.0 evaluates it (the forward differences up to α = 256, the second
// term alone above); fractional orders interpolate the cumulant linearly between ⌊α⌋ and ⌈α⌉
// (ibid., Cor 10: the cumulant is convex). Everything in log space.
//
// For any inner mechanism with an RDP curve ε(·) under substitution, the general bound (ibid., Thm 9)
// at integer α ≥ 2:
//   ε′(α) = log(1 + γ² C(α, 2) min{4(e^{ε(2)} − 1), e^{ε(2)} min{2, (e^{ε(∞)} − 1)²}}
//              + Σ_{j=3}^{α} γ^j C(α, j) e^{(j−1)ε(j)} min{2, (e^{ε(∞)} − 1)^j})/(α − 1),
// fractional α by the same interpolation of (α − 1)ε′(α) (0 at α = 1). Both are also at most
//   log(1 + γ(e^{(α−1)ε(α)} − 1))/(α − 1)
// at every order: ∫P^αQ^{1−α} is jointly convex in (P, Q) for α > 1, and the outputs on the two
// datasets are mixtures, over the samples coupled record for record, of outputs on neighbouring
// samples (a fraction γ of them) or on equal ones; at α = 1 the same joint convexity of the KL
// divergence gives γε(1), and ε′(1) ≤ ε′(2) by convexity of the cumulant; at α = ∞,
// log(1 + γ(e^{ε(∞)} − 1)) (Balle, Barthe, Gaboardi 2018).
#pragma once

#include "dpcalc/method_info.hpp"
#include "dpcalc/rdp/rdp_function.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kSampledWithoutReplacementGaussianRdp{
    "Rényi DP of the Gaussian sampled without replacement", "Wang, Balle, Kasiviswanathan 2019, Thm 27",
    "wang2019subsampled"};
inline constexpr MethodInfo kSampledWithoutReplacementRdp{
    "Rényi DP of sampling without replacement", "Wang, Balle, Kasiviswanathan 2019, Thm 9", "wang2019subsampled"};

// ε(α) at sampling proportion rate = m/n in (0, 1], noise multiplier > 0, order α = 1, α > 1 or
// α = +infinity (+infinity there); an upper bound.
double sampled_without_replacement_gaussian_rdp(double rate, double noise_multiplier, double order);

// ε′(α) of the general bound above, rounded up, for rate γ in (0, 1], the inner curve (an upper
// bound at every order, asked at 1, 2, …, ⌈α⌉, α and +infinity) and α = 1, α > 1 or α = +infinity.
// Orders up to the inner curve's (kMaxOrder); its cost is ⌈α⌉ evaluations of the inner curve.
double sampled_without_replacement_rdp(double rate, const RdpFunction& inner, double order);

}  // namespace dpcalc::rdp
