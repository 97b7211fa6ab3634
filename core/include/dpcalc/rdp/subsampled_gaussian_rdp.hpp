// Rényi DP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar, Zhang 2019, "Rényi
// differential privacy of the sampled Gaussian mechanism"). With sampling rate q, noise multiplier σ
// (noise standard deviation over sensitivity) and order α, the curve is the divergence of
// μ = (1 − q)N(0, σ²) + qN(1, σ²) from μ₀ = N(0, σ²), the larger of the two directions (ibid., Sec. 3):
//   ε(α) = log A_α/(α − 1),  A_α = E_{z∼μ₀}[((1 − q) + q e^{(2z − 1)/(2σ²)})^α],
// at α = 1 its limit, the Kullback–Leibler divergence E_{z∼μ₀}[L log L] with L the bracket, and at
// α = ∞ the supremum of the privacy loss, +∞ (the loss is unbounded).
//  * integer α (ibid., Sec. 3.2): the binomial expansion, written so that no term cancels,
//      A_α − 1 = Σ_{i=2}^{α} C(α, i)(1 − q)^{α−i} q^i (e^{(i² − i)/(2σ²)} − 1);
//  * fractional α (ibid., Sec. 3.3): split at z₀ = σ² log((1 − q)/q) + 1/2, where the two mixture
//    components have equal density, and expand each side in its convergent binomial series. With the
//    Mills ratio R(x) = Φ̄(x)/φ(x) every term takes the form C(α, i)·K·R(·), K = (1 − q)^α φ(z₀/σ):
//      A_α = Σ_{i≥0} C(α, i)[U_i + V_i],  U_i = K R((i − z₀)/σ) (below z₀),  V_i = K R((z₀ − α + i)/σ) (above),
//    and 1 is subtracted term by term as 1 = Σ_i C(α, i) a_i with a_i = (1 − q)^{α−i} q^i from the U
//    series (q ≤ 1/2) or with a_i = q^{α−i}(1 − q)^i from the V series (q ≥ 1/2), a_i's ratio being at
//    most 1; where the Gaussian factor is at least 1/2 the pair is one term, U_i − a_i =
//    a_i(e^{(i² − i)/(2σ²)}Φ((z₀ − i)/σ) − 1) through expm1 (likewise V_i), so that A_α − 1 keeps its
//    relative accuracy when ε is tiny. The coefficients alternate in sign from i = ⌊α⌋ + 1 on and the
//    magnitudes are completely monotone (moment sequences: R is the Laplace transform of e^{−t²/2},
//    |C(α, i)| a Beta integral), so the tail is bracketed by its Euler transform
//    (Σ(−1)^k b_k = Σ_j 2^{−j−1}(−Δ)^j b_0, the remainder after J terms between one and two times the
//    J-th): the truncation error is bounded, not estimated;
//    Where both Gaussian factors of term i are in the bulk (q near 1/2 with σ large, so that z₀ lies
//    within a few σ of the small integers), its three parts U_i + V_i − w_i are summed as one,
//    through expm1 and erf, instead of three terms of size 1/2 cancelling down to ε ~ 1/σ²
//    (docs/rdp.md, Eq. 7);
//  * α = 1 is the derivative of A_α at 1: the same series with C(α, i) → d/dα C(α, i) = (−1)^i/(i(i − 1)),
//    plus the derivatives of the terms i = 0, 1 (docs/rdp.md, Eq. 8).
// Every term carries a bound on its rounding error and the sum is certified (signed_log_sum.hpp), so
// the value returned is an upper bound on the exact divergence. The series are summed until the
// truncation bracket is below 1.5e-11 of the sum; the result is then within 1e-9 relative of the
// divergence for σ ≤ 100 at every q and for every σ with |q − 1/2| ≥ 0.05 (checked against
// quadrature over q from 1e-6 to 0.99, σ from 0.1 to 300, and near q = 1/2 up to σ = 1000); with q
// within about 1/σ of 1/2, up to 2e-8 at σ = 300 and 1e-7 at σ = 1000. dp_accounting 0.6.0 sums the
// fractional series with |C(α, i)| (an upper bound, 16 times the divergence at q = 0.2, σ = 10,
// α = 1.25) and drops orders whose series has not met its stopping rule after 1000 terms (the tail
// decays only like i^{−α−2} once i > z₀, with weight φ(z₀/σ), not small when σ² log(1/q) is);
// TF Privacy's compute_rdp subtracted the negative terms without a tail bound.
#pragma once

#include <vector>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kSubsampledGaussianRdp{"Rényi DP of the Poisson-subsampled Gaussian",
                                                   "Mironov, Talwar, Zhang 2019, Sec. 3", "mironov2019renyi"};
// The curve of the Gaussian mechanism itself (no subsampling).
inline constexpr MethodInfo kGaussianRdp{"Rényi DP of the Gaussian mechanism", "Mironov 2017, Prop. 7",
                                         "mironov2017renyi"};

// Largest finite order accepted (integer orders cost α terms, fractional ones ⌊α⌋ + 1 and the tail).
inline constexpr double kMaxOrder = 10000;

// The orders of Sommer's group DP-SGD analysis (2021, TF Privacy's defaults): 1.1, 1.2, ..., 10.9
// and 12, ..., 63, plus 64, 128, 256, 512, 1024 (the large orders dp_accounting also uses, for small eps).
std::vector<double> default_orders();

// Orders strictly increasing, each 1 (the KL divergence), in (1, kMaxOrder], or +infinity (the pure
// ε); errors on "orders" (the order's index as Error::item).
Result<std::vector<double>> check_orders(const std::vector<double>& orders);

// ε(α) of one step, an upper bound (see above), for rate q in [0, 1], noise multiplier σ > 0 and
// order α = 1, α in (1, kMaxOrder] or α = +infinity. +infinity at α = ∞ for q > 0, and wherever the
// bound exceeds the largest double; 0 at q = 0.
double subsampled_gaussian_rdp(double rate, double noise_multiplier, double order);

// σ/Δ rounded down: a noise multiplier that never overstates the noise.
inline double noise_multiplier_down(double sigma, double sensitivity) { return -divide_up(-sigma, sensitivity); }

// The Gaussian mechanism's curve α/(2σ²) at noise multiplier σ (Mironov 2017, Prop. 7), rounded up:
// 1/(2σ²) at α = 1 (the KL divergence), +infinity at α = ∞.
double gaussian_rdp(double noise_multiplier, double order);

}  // namespace dpcalc::rdp
