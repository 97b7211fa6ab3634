// The largest true-positive rate a privacy claim allows a membership test at a given false-positive
// rate, for checking a claim against an audit: the claim is refuted (at the audit's confidence) when
// it allows less than TPR_lo at FPR_hi, or less than TNR_lo at FNR_hi (both trade-off curves below are
// symmetric, so the same function serves the complementary test).
//   (ε, δ)-DP:  TPR ≤ min(1, e^ε FPR + δ, 1 − e^−ε (1 − δ − FPR))   (Kairouz, Oh, Viswanath 2015,   (C1)
//               Thm 2.1; Wasserman, Zhou 2010)
//   μ-GDP:      TPR ≤ Φ(Φ⁻¹(FPR) + μ)                               (Dong, Roth, Su 2019, Def. 2.6)  (C2)
// Both are rounded up: a value the claim allows is never understated, so "the audit beats it" stays
// sound for the claim.
#pragma once

#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::audit {

inline constexpr MethodInfo kApproxDpClaimCurve{"Largest TPR an (ε, δ) claim allows",
                                                "Kairouz, Oh, Viswanath 2015, Thm 2.1; Wasserman, Zhou 2010",
                                                "kairouz2015composition wasserman2010statistical"};
inline constexpr MethodInfo kGaussianClaimCurve{"Largest TPR a μ-GDP claim allows", "Dong, Roth, Su 2019, Def. 2.6",
                                                "dong2019gaussian"};

// (C1), rounded up, for epsilon finite ≥ 0, delta in [0, 1] and false_positive_rate in [0, 1].
// Errors: invalid_argument on "epsilon", "delta" or "false_positive_rate".
Result<double> approx_dp_allowed_tpr(double epsilon, double delta, double false_positive_rate);

// (C2), rounded up, for mu finite ≥ 0 and false_positive_rate in [0, 1]. Errors: invalid_argument on
// "mu" or "false_positive_rate".
Result<double> gaussian_dp_allowed_tpr(double mu, double false_positive_rate);

}  // namespace dpcalc::audit
