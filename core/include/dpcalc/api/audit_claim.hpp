// A claim of op 'audit' as a trade-off curve: the largest TPR it allows a membership test at a
// false-positive rate, rounded up (never understated, so "the attack beats it" stays sound).
//  * (ε, δ)-DP and ε-DP: Kairouz, Oh, Viswanath 2015, Thm 2.1 (claim_tradeoff.hpp, (C1));
//  * μ-GDP: Dong, Roth, Su 2019, Def. 2.6 ((C2));
//  * zCDP, Rényi DP and a request: the curve op 'tradeoff' reports for it (explain_request, whose
//    TPR at a requested FPR is an upper bound on what any test reaches there).
// A point (FPR_hi, TPR_lo) above the curve refutes the claim. The curves are symmetric (DP holds
// for both orders of a neighbouring pair), so (C1)'s lower line, 1 − e^−ε (1 − δ − FPR), is already
// the complementary test of counts_audit.hpp's (A3).
#pragma once

#include <functional>
#include <string>

#include "dpcalc/api/audit_op.hpp"
#include "dpcalc/api/explain.hpp"

namespace dpcalc::api {

struct AuditClaimCurve {
  const AuditClaim* claim = nullptr;
  std::string described;  // "(3, 1e-5)-DP", "1.5-GDP", "0.5-zCDP", "the trade-off of op 'dpsgd''s answer"
  MethodInfo method{"", "", ""};
  bool closed_form = false;  // (C1) or (C2)
  double epsilon = 0, delta = 0, mu = 0;
};

// A number as a person writes it in a claim: format_number's shortest form, with 1e-5 for 1e-05.
std::string audit_number_text(double value);

Result<AuditClaimCurve> audit_claim_curve(const AuditClaim& claim);

// The largest TPR the claim allows at `fpr`, rounded up, with the method of the curve it came from
// (`method` is filled in for a curve op 'tradeoff' reports).
Result<double> claim_allowed_tpr(AuditClaimCurve& curve, double fpr, const Progress& progress);

// An estimate of the same, for ranking thresholds only (scores_audit.hpp: best_scores_threshold):
// the closed form, or the reported curve's TPR at the plotted FPR next above (an upper bound).
Result<std::function<double(double)>> claim_allowed_estimate(AuditClaimCurve& curve, const Progress& progress);

}  // namespace dpcalc::api
