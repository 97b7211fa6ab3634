// Rényi DP of ε-bounded-range mechanisms (every pair of neighbours has its privacy loss in an
// interval of length ε; the exponential mechanism with scores scaled by ε/(2Δu) is one: Durfee &
// Rogers 2019). For a pair whose loss L lies in [a, a + ε], E_Q[e^{αL}] under E_Q[e^L] = 1 is largest
// for the two-point law on {a, a + ε} (x ↦ x^α is convex in x = e^L), the extremal pairs of Dong,
// Durfee & Rogers 2020. With k = (e^{αε} − 1)/(e^ε − 1), the best a is e^{a*} = (α − 1)k/(α(k − 1)),
// which lies in [e^{−ε}, 1] for every α > 1 and ε > 0, and the supremum over the family is
//   ε_BR(α) = [α·ℓ(αε/2) − ℓ(ε/2) − (α − 1)·ℓ((α − 1)ε/2)]/(α − 1),   ℓ(t) = log(sinh t / t)   (α > 1),
//   ε_BR(1) = ℓ(ε/2) + (ε/2)coth(ε/2) − 1 (the limit, the largest KL divergence),   ε_BR(∞) = ε
// (docs/rdp.md, Eq. 10; e^x − 1 = x e^{x/2} sinh(x/2)/(x/2) makes the terms linear in ε cancel
// exactly). It is the tightest curve ε-bounded range implies, below Cesar & Rogers's (2021) αε²/8
// and their KL + (α − 1)ε²/8 (which dp_accounting 0.6.0 uses), equal to both's leading term αε²/8.
#pragma once

#include "dpcalc/method_info.hpp"

namespace dpcalc::rdp {

inline constexpr MethodInfo kBoundedRangeRdp{
    "Rényi DP of ε-bounded-range mechanisms (the supremum over the extremal two-point pairs)",
    "Cesar & Rogers 2021; Dong, Durfee, Rogers 2020", "cesar2021bounding dong2020optimal"};

// ε_BR(α) rounded up, for ε ≥ 0 and α = 1, α > 1 or α = +infinity; never above ε.
double bounded_range_rdp(double epsilon, double order);

}  // namespace dpcalc::rdp
