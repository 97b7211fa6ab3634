// Rényi DP of the Laplace mechanism (Mironov 2017, "Rényi differential privacy", Prop. 6): Laplace
// noise of scale b on a query of ℓ1 sensitivity Δ, with ε₀ = Δ/b, has the divergence of
// Lap(Δ, b) from Lap(0, b) (the same both ways):
//   ε(α) = log[(α/(2α − 1)) e^{(α−1)ε₀} + ((α − 1)/(2α − 1)) e^{−αε₀}]/(α − 1)   (α > 1),
//   ε(1) = ε₀ + e^{−ε₀} − 1 (the limit, the KL divergence),   ε(∞) = ε₀.
// On vectors the divergence adds up over coordinates and is convex in each coordinate's shift (a
// log-sum-exp of linear functions of it) with value 0 at 0, hence superadditive: one coordinate
// carrying the whole ℓ1 distance Δ is the worst case.
#pragma once

#include "dpcalc/method_info.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kLaplaceRdp{"Rényi DP of the Laplace mechanism", "Mironov 2017, Prop. 6",
                                        "mironov2017renyi"};

// ε(α) rounded up, for ε₀ = Δ/b ≥ 0 (the caller's value, itself rounded up) and α = 1, α > 1 or
// α = +infinity. Near α·ε₀ = 0 it is evaluated as log1p(α(α − 1)T/(2α − 1))/(α − 1) with
// T = Σ_{k≥2} ε₀^k[(α − 1)^{k−1} + (−1)^k α^{k−1}]/k! (the first-order terms cancel exactly), so that
// it keeps its relative accuracy when ε₀ is tiny; never above ε₀.
double laplace_rdp(double pure_epsilon, double order);

}  // namespace dpcalc::rdp
