// Group privacy: the guarantee a mechanism gives to a group of `group_size` records (neighbours at
// distance k instead of 1). Generic bounds hold for every mechanism with the input guarantee;
// mechanism-aware bounds (laplace/gaussian) are the same privacy map evaluated at sensitivity kΔ
// and are far tighter for approximate DP.
#pragma once

#include <string>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc {

// Pure DP: k·eps, exact (Dwork & Roth 2014, Thm 2.2).
inline constexpr MethodInfo kGroupPure{"Group privacy, pure DP", "Dwork & Roth 2014, Thm 2.2", "dwork2014algorithmic"};
PureDp group_privacy(const PureDp& guarantee, double group_size);

// Approximate DP: (k·eps, delta·(e^{k eps} − 1)/(e^{eps} − 1)), an upper bound (Vadhan 2017,
// Lemma 2.2). Computed in log space; delta = k·delta when eps = 0. A delta reaching 1 is returned
// as exactly 1 (vacuous).
inline constexpr MethodInfo kGroupApprox{"Group privacy, approximate DP", "Vadhan 2017, Lemma 2.2",
                                         "vadhan2017complexity"};
ApproxDp group_privacy(const ApproxDp& guarantee, double group_size);

// zCDP: k²·rho, an upper bound (Bun & Steinke 2016, Prop 1.9 / Lemma 5.2).
inline constexpr MethodInfo kGroupZcdp{"Group privacy, zCDP", "Bun & Steinke 2016, Prop 1.9", "bun2016concentrated"};
Zcdp group_privacy(const Zcdp& guarantee, double group_size);

// RDP: for a group of size k <= 2^c (c = ceil(log2 k)), order alpha >= 2^{c+1} of the input curve
// gives order alpha/2^c with eps·3^c (Mironov 2017, Prop 2). Orders below 2^{c+1} have no bound
// and are dropped; if none remain the result is an `unsupported` error on "orders". An ε whose 3^c
// multiple overflows is an error on "epsilons" (its index as Error::item).
inline constexpr MethodInfo kGroupRdp{"Group privacy, Rényi DP", "Mironov 2017, Prop 2", "mironov2017renyi"};
struct RdpGroupResult {
  RdpCurve curve;
  double power_of_two;  // 2^c, the group size the bound was applied to (>= group_size)
  std::size_t dropped;  // number of input orders below 2^{c+1}
};
Result<RdpGroupResult> group_privacy(const RdpCurve& curve, double group_size);

// Gaussian with sigma and sensitivity Δ at group size k: rho = (kΔ)²/(2σ²) (Bun & Steinke 2016,
// Prop 1.6), and the exact (eps, delta) of the Gaussian mechanism at sensitivity kΔ (Balle & Wang
// 2018, Thm 8), eps rounded up. (The group transform of mechanisms in general is
// mechanisms::Mechanism::for_group.)
struct GaussianGroupResult {
  ApproxDp approx;  // exact eps at the requested delta (rounded up)
  Zcdp zcdp;        // (kΔ)²/(2σ²)
};
GaussianGroupResult gaussian_group_privacy(double sigma, double sensitivity, double group_size, double delta);

}  // namespace dpcalc
