// A lower bound on ε (and on μ) from the counts of a membership test (Jagielski, Ullman, Oprea 2020;
// Nasr, Song, Thakurta, Papernot, Carlini 2021). Every output set S of an (ε, δ)-DP mechanism, and its
// complement, satisfy
//   TPR ≤ e^ε FPR + δ   and   TNR ≤ e^ε FNR + δ,                                                  (A1)
// where the test says "member" with rate TPR on members and FPR on non-members, TNR = 1 − FPR and
// FNR = 1 − TPR. With one-sided Clopper–Pearson bounds at significance α/2 each (α = 1 − confidence),
//   TPR ≥ TPR_lo and FPR ≤ FPR_hi hold together with probability ≥ 1 − α,                          (A2)
// and on the same event TNR ≥ TNR_lo = 1 − FPR_hi and FNR ≤ FNR_hi = 1 − TPR_lo (the Clopper–Pearson
// bounds of the complementary counts are exactly these). Then the mechanism is not (ε, δ)-DP for
//   ε < ε_lo = max(0, ln((TPR_lo − δ)/FPR_hi), ln((TNR_lo − δ)/FNR_hi)).                            (A3)
// μ-GDP allows TPR ≤ Φ(Φ⁻¹(FPR) + μ) (Dong, Roth, Su 2019), so on the same event it is not μ-GDP for
//   μ < μ_lo = max(0, Φ⁻¹(TPR_lo) − Φ⁻¹(FPR_hi))                                                    (A4)
// (Nasr, Hayes, Steinke, Balle, Tramèr, Jagielski, Carlini, Terzis 2023); the complementary test gives
// the same value, Gaussian trade-offs being symmetric. ε_lo and μ_lo are statistical lower bounds:
// with probability at least `confidence` over the experiment, the mechanism is not (ε, δ)-DP for any
// ε below ε_lo (not μ-GDP for any μ below μ_lo). They are never a privacy guarantee. The test (its
// threshold) must be fixed before the counts are seen; scores_audit.hpp chooses one from scores.
#pragma once

#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::audit {

inline constexpr MethodInfo kCountsAudit{
    "Lower bound on ε from a membership test (exact Clopper–Pearson intervals)",
    "Jagielski, Ullman, Oprea 2020; Nasr, Song, Thakurta, Papernot, Carlini 2021; Clopper, Pearson 1934",
    "jagielski2020auditing nasr2021adversary clopper1934use"};
inline constexpr MethodInfo kCountsGaussianAudit{
    "Lower bound on μ (Gaussian DP) from a membership test",
    "Nasr, Hayes, Steinke, Balle, Tramèr, Jagielski, Carlini, Terzis 2023; Dong, Roth, Su 2019",
    "nasr2023tight dong2019gaussian"};

// The counts of one membership test with a threshold fixed in advance. Every count is a whole number
// held in a double (as JavaScript numbers are): 1 ≤ positives ≤ 2^53 (members tried),
// 0 ≤ true_positives ≤ positives (members flagged), 1 ≤ negatives ≤ 2^53 (non-members tried),
// 0 ≤ false_positives ≤ negatives (non-members flagged).
struct MembershipCounts {
  double true_positives = 0;
  double positives = 0;
  double false_positives = 0;
  double negatives = 0;
};

// The one-sided bounds of (A2), each rounded outward: TPR ≥ tpr_lower, FPR ≤ fpr_upper,
// TNR ≥ tnr_lower, FNR ≤ fnr_upper. tnr_lower and fnr_upper are computed from the complementary
// counts themselves, so each keeps its relative precision near 0.
struct RateBounds {
  double tpr_lower = 0;
  double fpr_upper = 1;
  double tnr_lower = 0;
  double fnr_upper = 1;
};

// Which line of (A3) gave ε_lo.
enum class EpsilonTest { kNone, kDirect, kComplementary };

struct CountsAudit {
  RateBounds bounds;
  double epsilon_lower = 0;                       // ε_lo of (A3), rounded down; finite, ≥ 0
  double epsilon_direct = 0;                      // max(0, ln((TPR_lo − δ)/FPR_hi)), rounded down
  double epsilon_complementary = 0;               // max(0, ln((TNR_lo − δ)/FNR_hi)), rounded down
  EpsilonTest epsilon_test = EpsilonTest::kNone;  // kNone when ε_lo = 0
  double mu_lower = 0;                            // μ_lo of (A4), rounded down; finite, ≥ 0
  double member_significance = 0;                 // the significance of TPR_lo and FNR_hi
  double nonmember_significance = 0;              // the significance of FPR_hi and TNR_lo
};

// (A2)–(A4) at confidence in (0, 1) (α = 1 − confidence, rounded down, split equally) and delta in
// [0, 1). Errors: invalid_argument on the parameter's name ("true_positives", "positives",
// "false_positives", "negatives", "confidence", "delta"); numeric when a Clopper–Pearson bound could
// not be certified.
Result<CountsAudit> audit_counts(const MembershipCounts& counts, double confidence, double delta);

// The same with the significance of each side given: member_significance for TPR_lo (and FNR_hi),
// nonmember_significance for FPR_hi (and TNR_lo), each in (0, 1/2]; (A2) then holds with probability
// at least 1 − member_significance − nonmember_significance.
Result<CountsAudit> audit_counts_at(const MembershipCounts& counts, double member_significance,
                                    double nonmember_significance, double delta);

// ln(numerator / denominator) for numerator in (0, 1] and denominator in (0, 1], rounded down.
double log_ratio_down(double numerator, double denominator);
// a − b for 0 ≤ b ≤ a, rounded down (exact when the difference is a double).
double subtract_down(double a, double b);

}  // namespace dpcalc::audit
