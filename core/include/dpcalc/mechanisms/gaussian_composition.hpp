// Gaussian mechanisms compose exactly: run countᵢ times each, mechanisms adding N(0, σᵢ²) to
// queries of sensitivity Δᵢ are together exactly μ-GDP with μ² = Σ countᵢ (Δᵢ/σᵢ)² (Dong, Roth, Su
// 2019, Cor. 3.3), i.e. one Gaussian mechanism with that Δ/σ, whose (ε, δ) curve is the analytic
// Gaussian's (Balle & Wang 2018, Thm 8). A composition of Gaussians therefore needs no numeric
// composition at all, and the Gaussian part of a mixed one enters it as a single item.
#pragma once

#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/method_info.hpp"

namespace dpcalc::mechanisms {

inline constexpr MethodInfo kExactGaussianComposition{
    "Exact: Gaussian mechanisms compose to one Gaussian mechanism with μ² = Σ count (Δ/σ)², whose (ε, δ) "
    "curve is the analytic Gaussian's",
    "Dong, Roth, Su 2019, Cor. 3.3; Balle & Wang 2018, Thm 8", "dong2019gaussian balle2018improving"};

// μ of a composition of Gaussian noises, computed in floating point and bracketed by its rounding:
// mu_lower <= μ <= mu_upper (a few ulps apart). Infinite when μ exceeds the double range.
struct ComposedGaussian {
  double mu_lower = 0;
  double mu_upper = 0;
};

// One Gaussian noise used `count` times (count >= 1).
struct GaussianUse {
  GaussianNoise noise;
  double count = 1;
};

// The composition of `uses` (non-empty, each σ > 0 and Δ > 0 as the mechanisms check them).
ComposedGaussian compose_gaussians(const std::vector<GaussianUse>& uses);

}  // namespace dpcalc::mechanisms
