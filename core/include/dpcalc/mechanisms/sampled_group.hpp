// A group of k records, J of which land in a subsample, under Gaussian noise that each of them moves
// by Δ: the worst-case pair of the group (Schuchardt, Stoian, Kosmala, Günnemann 2024, "Unified
// mechanism-specific amplification by subsampling and group privacy amplification", NeurIPS):
//   add/remove:   P = Σ_j Pr[J = j] N(jΔ, σ²)   against  Q = N(0, σ²)
//   substitution: P = Σ_j Pr[J = j] N(+jΔ, σ²)  against  Q = Σ_j Pr[J = j] N(−jΔ, σ²)
// Poisson sampling at rate q gives J ~ Binomial(k, q), and this pair is tight for it; DP-SGD with
// fixed batches uses J ~ Hypergeometric (dpcalc/dpsgd/group_pair.hpp).
#pragma once

#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"

namespace dpcalc::mechanisms {

// Largest group whose subsampled pair is formed: it has k + 1 components.
inline constexpr double kMaxSampledGroupSize = 100000;

// The pair above from log Pr[J = j], j = 0..k; weights below the smallest normal double are left out.
pld::DominatingPair sampled_group_pair(const std::vector<double>& log_pmf, const GaussianNoise& noise,
                                       Relation relation);

// The mechanism of that pair (both relations), as a group of a subsampled Gaussian sees it.
MechanismPtr sampled_group(std::vector<double> log_pmf, const GaussianNoise& noise);

}  // namespace dpcalc::mechanisms
