// A lower bound on ε (and μ) from membership scores, the threshold chosen from the same scores
// (higher score = "member"; the test at threshold t flags every score ≥ t). The counts at t are
// audited as in counts_audit.hpp, but with Clopper–Pearson bounds that hold for every threshold at
// once, so that picking the best one afterwards costs nothing more:
//   Pr[ TPR(t) ≥ TPR_lo(t) and FPR(t) ≤ FPR_hi(t) for every t ] ≥ 1 − P a_m − N a_n              (S1)
// for P member and N non-member scores (each side's scores independent and identically distributed),
// each TPR_lo at significance a_m and each FPR_hi at a_n. Why: if TPR_lo(t) > TPR(t) at some t with
// k = TP(t) ≥ 1 flagged members, the k-th highest member score X_(k) ≥ t has S(X_(k)) ≤ S(t) <
// lower(k), with S(x) = Pr[X ≥ x] nonincreasing; S(X_(k)) is the k-th smallest of the P values S(X_i),
// each of which is below c with probability at most c, so this has probability at most
// Pr[Binomial(P, lower(k)) ≥ k] = a_m by (CP1). One event per k = 1 … P: at most P a_m together. The
// non-members' side is the same argument for the true negatives (TNR(t) ≥ 1 − FPR_hi(t)), one event
// per count 1 … N. We take a_m = α/(2P) and a_n = α/(2N): a correction by the number of scores on each
// side, never more than Bonferroni over every distinct score would charge (α/(2(P + N)) on both).
//
// With preregistered thresholds (K distinct ones, fixed before the scores were seen), Bonferroni over
// them is valid too, and each side takes the smaller correction: a_m = α/(2 min(K, P)), a_n =
// α/(2 min(K, N)).
//
// Only the corners of the empirical ROC staircase can be best (lowering t past a member raises TP
// alone, past a non-member FP alone; every objective here rises with TPR_lo and falls with FPR_hi),
// so those thresholds are ranked. Each corner first gets optimistic bounds that the exact ones
// cannot pass, from the Zubkov–Serov inequalities one count over (clopper_pearson.hpp, (ZS)):
//   Pr_p[X ≥ k] ≥ Φ(−√(2n H(k/n, p))) for p < k/n, so lower(k) ≤ the p below k/n with nH = z²/2,
//   Pr_p[X ≤ k] ≥ Φ(−√(2n H(k/n, p))) for p > k/n, so upper(k) ≥ the p above k/n with nH = z²/2,
// z = −Φ⁻¹(a) (and upper(k) ≥ upper(0) = 1 − a^(1/n)). In decreasing order of that optimistic value,
// corners are evaluated with Boost's Clopper–Pearson quantiles until the next optimistic value cannot
// beat the best so far; only the winner's counts are audited with certified bounds. The choice needs
// no soundness of its own, as (S1) holds for every threshold at once: an estimate only decides which
// threshold is reported. Sorting costs O(n log n); the optimistic bounds O(1) per corner.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "dpcalc/audit/counts_audit.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::audit {

inline constexpr MethodInfo kScoresAudit{
    "Lower bound on ε from membership scores (best threshold, bounds simultaneous over all thresholds)",
    "Jagielski, Ullman, Oprea 2020; Nasr, Song, Thakurta, Papernot, Carlini 2021; Clopper, Pearson 1934",
    "jagielski2020auditing nasr2021adversary clopper1934use"};

// A value to maximise over thresholds from a threshold's bounds; it must not decrease when tpr_lower
// or tnr_lower rises, nor when fpr_upper or fnr_upper falls (the pruning relies on it). It may be
// −inf (nothing said at that threshold), never NaN.
using ThresholdObjective = std::function<double(const RateBounds&)>;

struct ScoresThreshold {
  double threshold = 0;     // the test flags "member" for a score ≥ threshold
  MembershipCounts counts;  // its counts
  CountsAudit audit;        // certified, at the significances below
};

struct ScoresAudit {
  ScoresThreshold best_epsilon;           // the threshold with the largest ε_lower (ties: the highest threshold)
  ScoresThreshold best_mu;                // the threshold with the largest μ_lower
  double member_significance = 0;         // a_m of (S1)
  double nonmember_significance = 0;      // a_n of (S1)
  std::int64_t candidate_thresholds = 0;  // corners of the staircase (or preregistered thresholds)
  std::int64_t ranked_thresholds = 0;     // those evaluated before the pruning stopped
};

// (S1) at confidence in (0, 1) and delta in [0, 1) for non-empty lists of finite scores.
// preregistered_thresholds: empty for every threshold, else finite values fixed in advance. Scores
// that separate nothing give ε_lower = μ_lower = 0 (at some threshold), never an error. Errors: invalid_argument on
// "member_scores", "nonmember_scores", "preregistered_thresholds", "confidence" or "delta"; numeric when a bound could
// not be certified.
Result<ScoresAudit> audit_scores(const std::vector<double>& member_scores, const std::vector<double>& nonmember_scores,
                                 double confidence, double delta,
                                 const std::vector<double>& preregistered_thresholds = {});

// The threshold maximising `objective` (evaluated on uncertified estimates of the bounds; the
// returned audit is certified), on the same terms: e.g. the margin by which a claim's trade-off curve
// is beaten, tpr_lower − allowed TPR at fpr_upper (claim_tradeoff.hpp).
Result<ScoresThreshold> best_scores_threshold(const std::vector<double>& member_scores,
                                              const std::vector<double>& nonmember_scores, double confidence,
                                              double delta, const ThresholdObjective& objective,
                                              const std::vector<double>& preregistered_thresholds = {});

// The objectives audit_scores uses: ε of (A3) and μ of (A4) before flooring at 0 (−inf where the
// line says nothing), so that the best threshold is still meaningful when no bound is positive.
double epsilon_objective(const RateBounds& bounds, double delta);
double mu_objective(const RateBounds& bounds);

}  // namespace dpcalc::audit
