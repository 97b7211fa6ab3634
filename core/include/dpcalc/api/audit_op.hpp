// {op:'audit', evidence, confidence?, delta?, claim?}: what an attack's outcome proves about a
// mechanism (dpcalc/audit/): a statistical lower bound epsilon_lower — with probability at least
// `confidence` over the experiment, the mechanism is not (ε, δ)-DP for any ε below it — never a
// guarantee. The evidence is an attack's counts at a fixed threshold (counts_audit.hpp), one
// training run with canaries (one_run_audit.hpp) or an attack's scores (scores_audit.hpp). A claim
// (a guarantee, μ-GDP, or a request that op 'tradeoff' takes as `of`, read and explained by that
// op's typed steps: tradeoff_op.hpp) is checked against the attack: it is refuted when its trade-off
// curve allows less than the attack's TPR_lo at the attack's FPR_hi (claim_tradeoff.hpp; for one run,
// when epsilon_lower at the claim's δ exceeds its ε). See docs/API.md.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/audit/counts_audit.hpp"
#include "dpcalc/audit/one_run_audit.hpp"
#include "dpcalc/audit/scores_audit.hpp"

namespace dpcalc::api {

// Most scores accepted in each list of a 'scores' evidence (and of its preregistered thresholds): the
// values one request may hold (web/client.js, docs/API.md "Request limits").
inline constexpr std::size_t kMaxAuditScores = 100000;

enum class AuditEvidenceKind { kCounts, kOneRun, kScores };

// The claim an audit is checked against, as read: a guarantee, μ-GDP, or a request (kept with its
// path and explained at answer time by op 'tradeoff''s typed steps).
struct AuditClaim {
  enum class Kind { kGuarantee, kGaussian, kRequest };
  Kind kind = Kind::kGuarantee;
  std::optional<Guarantee> guarantee;
  double mu = 0;
  Value request;
  std::string path;  // "claim", or "claim.guarantee" for {guarantee}
};

struct AuditRequest {
  std::string at;
  std::string evidence_path;  // "evidence"
  AuditEvidenceKind kind = AuditEvidenceKind::kCounts;
  audit::MembershipCounts counts;
  audit::OneRunEvidence one_run;
  std::vector<double> member_scores, nonmember_scores, preregistered_thresholds;
  double confidence = 0.95;
  double delta = 0;
  std::optional<AuditClaim> claim;
};

// The claim against the attack.
struct AuditClaimCheck {
  bool refutes = false;
  std::string described;  // "(3, 1e-5)-DP", "1.5-GDP", "the trade-off of op 'dpsgd''s answer"
  // Counts and scores: the largest TPR the claim allows at at_fpr (rounded up), and the attack's
  // TPR_lo and FPR_hi at its threshold.
  double allowed_tpr = 0;
  double at_fpr = 0;
  double tpr_lower = 0;
  std::optional<double> threshold;  // scores: the threshold that beats the claim by the most
  // One run: the claim's (ε, δ) and the one-run bound on ε at that δ.
  double epsilon = 0;
  double delta = 0;
  double epsilon_lower = 0;
  MethodInfo method{"", "", ""};  // the claim's curve
};

struct AuditAnswer : AnswerBase {
  AuditEvidenceKind kind = AuditEvidenceKind::kCounts;
  double confidence = 0.95;
  double delta = 0;
  audit::CountsAudit counts_audit;  // counts, and scores at the threshold with the largest ε_lower
  audit::MembershipCounts counts;   // the counts at that threshold (scores)
  audit::OneRunAudit one_run;
  std::optional<audit::ScoresAudit> scores;
  std::optional<AuditClaimCheck> claim;
};

Result<AuditRequest> read_audit(const Value& request, const std::string& at);
Result<AuditAnswer> answer_audit(const AuditRequest& request, const Progress& progress);
Value write_audit(const AuditAnswer& answer);

}  // namespace dpcalc::api
