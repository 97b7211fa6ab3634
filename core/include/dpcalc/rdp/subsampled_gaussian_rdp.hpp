// Rényi DP of the Poisson-subsampled Gaussian mechanism (Mironov, Talwar, Zhang 2019, "Rényi
// differential privacy of the sampled Gaussian mechanism"). With sampling rate q, noise multiplier
// sigma (noise standard deviation over sensitivity) and order alpha > 1:
//   eps(alpha) = log(A_alpha) / (alpha - 1),  A_alpha = E_{x ~ N(0, sigma^2)}[((1 - q) + q e^{(2x - 1)/(2
//   sigma^2)})^alpha]
//  * integer alpha (ibid., Sec. 3.2): A_alpha = sum_{i=0}^{alpha} C(alpha, i) (1-q)^{alpha-i} q^i e^{(i^2 - i)/(2
//  sigma^2)};
//  * fractional alpha (ibid., Sec. 3.3): A_alpha = A_0 + A_1, the integrals over x <= z0 and x > z0,
//    z0 = sigma^2 log(1/q - 1) + 1/2, each a series in i >= 0 with the generalised binomial
//    coefficients C(alpha, i) and (1/2) erfc factors; it is summed with |C(alpha, i)|, which can only
//    increase A (an upper bound), until both series decrease below e^-30 of the total.
// q = 1 is the Gaussian itself: eps(alpha) = alpha / (2 sigma^2) (Mironov 2017, Prop. 7).
// Everything is computed in log space. The same accountant is wrapped by TF Privacy and Opacus
// (dp_accounting's RdpAccountant), which the tests compare against.
#pragma once

#include <vector>

#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kSubsampledGaussianRdp{"Rényi DP of the Poisson-subsampled Gaussian",
                                                   "Mironov, Talwar, Zhang 2019, Sec. 3", "mironov2019renyi"};
// Items that are all plain Gaussians (no subsampling) need only the Gaussian's curve.
inline constexpr MethodInfo kGaussianRdp{"Rényi DP of the Gaussian mechanism", "Mironov 2017, Prop. 7",
                                         "mironov2017renyi"};
// Plain and Poisson-subsampled Gaussians composed together.
inline constexpr MethodInfo kGaussianAndSubsampledGaussianRdp{
    "Rényi DP of the Gaussian and the Poisson-subsampled Gaussian",
    "Mironov 2017, Prop. 7; Mironov, Talwar, Zhang 2019, Sec. 3", "mironov2017renyi mironov2019renyi"};

// Largest order accepted (integer orders cost alpha terms).
inline constexpr double kMaxOrder = 10000;

// The orders of Sommer's group DP-SGD analysis (2021, TF Privacy's defaults): 1.1, 1.2, ..., 10.9
// and 12, ..., 63, plus 64, 128, 256, 512, 1024 (the large orders dp_accounting also uses, for small eps).
std::vector<double> default_orders();

// Orders strictly increasing, each finite in (1, kMaxOrder]; errors on "orders" (the order's index
// as Error::item).
Result<std::vector<double>> check_orders(const std::vector<double>& orders);

// eps(alpha) of one step, rate q in [0, 1], noise multiplier > 0, order > 1. +infinity when the
// fractional series does not converge within 1000 terms (the order is then unusable).
double subsampled_gaussian_rdp(double rate, double noise_multiplier, double order);

}  // namespace dpcalc::rdp
