// Rényi DP of the discrete mechanisms: the divergences of their exact pairs, the worst case over
// neighbours (the pair of each mechanism is attained by two neighbouring datasets).
//  * Randomized response over k buckets with noise p (Warner 1965), under substitution: the outcome
//    classes "report x", "report x′", "other" have P = (a, b, (k − 2)b), Q = (b, a, (k − 2)b),
//    a = 1 − p + p/k, b = p/k, and loss ±L, 0 with L = log(a/b). With x = (α − 1)L,
//      Σ P^α Q^{1−α} − 1 = a(e^x − 1) + b(e^{−x} − 1) = (e^x − 1)[(1 − p) + b(1 − e^{−x})],
//    both factors positive, so ε(α) = log1p of it /(α − 1); ε(1) = (1 − p)L, ε(∞) = L.
//  * Discrete Laplace, P(x) ∝ e^{−|x|/b} on the integers, sensitivity Δ (Ghosh, Roughgarden,
//    Sundararajan 2009): P = DLap(Δ, b) against Q = DLap(0, b). Summing P^α Q^{1−α} over x ≤ 0,
//    x ≥ Δ (geometric tails) and 0 < x < Δ (a geometric sum of ratio g = e^{(2α−1)/b}) gives, with
//    r = e^{−1/b}, for α > 1
//      Σ P^α Q^{1−α} = [e^{−αΔ/b} + e^{(α−1)Δ/b} + e^{−αΔ/b}(1 − r)g(g^{Δ−1} − 1)/(g − 1)]/(1 + r);
//    ε(1) = E_P[(|X| − |X − Δ|)/b]
//    = [Δ(1 − r^Δ) + (1 − r) Σ_{0<j<Δ/2} (Δ − 2j)(r^j − r^{Δ−j})]/((1 + r)b), r = e^{−1/b}
//    (positive terms); ε(∞) = Δ/b.
//  * Discrete Gaussian, P(x) ∝ e^{−x²/(2σ²)} on the integers, sensitivity Δ (Canonne, Kamath,
//    Steinke 2020): for a shift d, with Z(t) = Σ_x e^{−(x−t)²/(2σ²)} (period 1),
//      D_α(N_Z(d, σ²) ‖ N_Z(0, σ²)) = αd²/(2σ²) + log(Z(αd)/Z(0))/(α − 1)
//    (complete the square in x), and Z(t) ≤ Z(0) (Poisson summation:
//    Z(t)/Z(0) = [1 + 2Σ_k q^{k²}cos 2πkt]/[1 + 2Σ_k q^{k²}], q = e^{−2π²σ²}), so this is at most
//    their zCDP bound αd²/(2σ²) (ibid.), with equality when αd is a whole number. Over the
//    shifts d = 1..Δ the curve is max(D_α at d = Δ, α(Δ − 1)²/(2σ²)); ε(1) = Δ²/(2σ²) (Z′ = 0 at
//    integers), ε(∞) = +∞.
#pragma once

#include "dpcalc/method_info.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kRandomizedResponseRdp{"Rényi DP of randomized response (its exact pair)", "Warner 1965",
                                                   "warner1965randomized"};
inline constexpr MethodInfo kDiscreteLaplaceRdp{"Rényi DP of the discrete Laplace mechanism (its exact pair)",
                                                "Ghosh, Roughgarden, Sundararajan 2009", "ghosh2009universally"};
inline constexpr MethodInfo kDiscreteGaussianRdp{"Rényi DP of the discrete Gaussian mechanism (its exact pair)",
                                                 "Canonne, Kamath, Steinke 2020", "canonne2020discrete"};

// Every function: ε(α) rounded up, for α = 1, α > 1 or α = +infinity; +infinity for parameters
// outside their preconditions.
// noise_parameter p in (0, 1], buckets k ≥ 2 (a whole number).
double randomized_response_rdp(double noise_parameter, double buckets, double order);
// scale b > 0, sensitivity Δ a whole number ≥ 1 with Δ/b < 700.
double discrete_laplace_rdp(double scale, double sensitivity, double order);
// σ > 0, sensitivity Δ a whole number ≥ 1.
double discrete_gaussian_rdp(double sigma, double sensitivity, double order);

}  // namespace dpcalc::rdp
