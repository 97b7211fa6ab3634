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
#pragma once

namespace dpcalc::rdp {

// ε(α) at sampling proportion rate = m/n in (0, 1], noise multiplier > 0, order α > 1 (+infinity at
// α = +infinity).
double sampled_without_replacement_gaussian_rdp(double rate, double noise_multiplier, double order);

}  // namespace dpcalc::rdp
