// A group of k records, J of which land in a subsample, under additive noise that each of them moves
// by Δ: the worst-case pair of the group (Schuchardt, Stoian, Kosmala, Günnemann 2024, "Unified
// mechanism-specific amplification by subsampling and group privacy amplification", NeurIPS, who
// derive it for Gaussian and evaluate it for Laplace noise alike):
//   Gaussian, add/remove:   P = Σ_j Pr[J = j] N(jΔ, σ²)   against  Q = N(0, σ²)
//   Gaussian, substitution: P = Σ_j Pr[J = j] N(+jΔ, σ²)  against  Q = Σ_j Pr[J = j] N(−jΔ, σ²)
//   Laplace, add/remove:    P = Σ_j Pr[J = j] Lap(jΔ, b)  against  Q = Lap(0, b)
// Poisson sampling at rate q gives J ~ Binomial(k, q), and these pairs are tight for it; DP-SGD with
// fixed batches uses J ~ Hypergeometric (dpcalc/dpsgd/group_pair.hpp). At k = 1 each is the
// subsampled mechanism's own pair (Zhu, Dong, Wang 2022, Thm 11).
#pragma once

#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"

namespace dpcalc::mechanisms {

// Largest group whose subsampled pair is formed: it has k + 1 components.
inline constexpr double kMaxSampledGroupSize = 100000;

// The Gaussian pair above from log Pr[J = j], j = 0..k; weights below the smallest normal double
// are left out.
pld::DominatingPair sampled_group_pair(const std::vector<double>& log_pmf, const GaussianNoise& noise,
                                       Relation relation);

// The mechanism of that pair (both relations), as a group of a subsampled Gaussian sees it.
MechanismPtr sampled_group(std::vector<double> log_pmf, const GaussianNoise& noise);
// The mechanism of the Laplace pair above (add/remove), as a group of a subsampled Laplace
// mechanism (scale b, sensitivity Δ) sees it.
MechanismPtr sampled_group(const std::vector<double>& log_pmf, const pld::LaplacePair& noise);

}  // namespace dpcalc::mechanisms
