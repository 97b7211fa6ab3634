// Conversions between privacy definitions. Every function returns an upper bound.
#pragma once

#include <cstddef>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"

namespace dpcalc {

// eps-DP implies (eps²/2)-zCDP (Bun & Steinke 2016, Prop 1.4).
inline constexpr MethodInfo kPureToZcdp{"Pure DP to zCDP", "Bun & Steinke 2016, Prop 1.4", "bun2016concentrated"};
Zcdp pure_to_zcdp(const PureDp& guarantee);

// Gaussian mechanism: Δ²/(2σ²)-zCDP, exact (Bun & Steinke 2016, Prop 1.6).
inline constexpr MethodInfo kGaussianToZcdp{"Gaussian mechanism to zCDP", "Bun & Steinke 2016, Prop 1.6",
                                            "bun2016concentrated"};
Zcdp gaussian_to_zcdp(double sigma, double sensitivity);

// rho-zCDP implies (rho + 2 sqrt(rho ln(1/delta)), delta)-DP (Bun & Steinke 2016, Prop 1.3).
// Requires delta in (0, 1).
inline constexpr MethodInfo kZcdpBunSteinke{"zCDP to (ε, δ), Bun–Steinke", "Bun & Steinke 2016, Prop 1.3",
                                            "bun2016concentrated"};
ApproxDp zcdp_to_approx_bun_steinke(const Zcdp& guarantee, double delta);

// rho-zCDP implies (eps, delta)-DP with
//   eps = inf_{alpha > 1} alpha·rho + (alpha ln(1 − 1/alpha) − ln(alpha − 1) − ln delta)/(alpha − 1)
// (Canonne, Kamath, Steinke 2020, Prop 12 / Cor 13); tighter than Bun–Steinke. Rounded up.
inline constexpr MethodInfo kZcdpCanonneKamathSteinke{"zCDP to (ε, δ), Canonne–Kamath–Steinke",
                                                      "Canonne, Kamath, Steinke 2020, Cor 13", "canonne2020discrete"};
ApproxDp zcdp_to_approx_canonne_kamath_steinke(const Zcdp& guarantee, double delta);

// The inverse: the largest rho whose Canonne–Kamath–Steinke conversion meets `target` (delta > 0),
// rounded down. Used by the zCDP budget split.
double largest_zcdp_for_approx(const ApproxDp& target);

// RDP curve to (eps, delta): eps = min over the curve's orders alpha of
//   eps(alpha) + ln((alpha − 1)/alpha) − (ln delta + ln alpha)/(alpha − 1)
// (Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21), clamped at >= 0. The curve's orders may include
// 1 (the KL divergence, which has no term of its own) and +infinity (the pure ε, the formula's limit);
// at every order eps = 0 where delta >= √(1 − e^{−eps(alpha)}), the Bretagnolle–Huber bound on the
// total variation distance through KL ≤ D_alpha (dp_accounting's compute_epsilon does the same).
// An infinite eps when no order gives a finite one.
inline constexpr MethodInfo kRdpToApprox{"RDP to (ε, δ)", "Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21",
                                         "balle2020hypothesis"};
struct RdpConversion {
  ApproxDp guarantee;
  double order;             // the minimising order
  std::size_t order_index;  // its index in the curve
  bool at_boundary;         // true when it is the first or last order (extend the curve)
};
RdpConversion rdp_to_approx(const RdpCurve& curve, double delta);

// The inverse: delta(eps) = min over the orders of Thm 21 solved for delta,
//   exp((alpha − 1)(eps(alpha) − eps + ln(1 − 1/alpha)) − ln alpha),
// and of √(1 − e^{−eps(alpha)}) (Bretagnolle–Huber, as above); 0 at alpha = +infinity when
// eps >= eps(infinity). Rounded up, at most 1, for eps >= 0; orders as rdp_to_approx's, infinite
// values skipped.
struct RdpDeltaConversion {
  double delta;
  double order;  // the minimising order
};
RdpDeltaConversion rdp_to_delta(const RdpCurve& curve, double epsilon);

}  // namespace dpcalc
