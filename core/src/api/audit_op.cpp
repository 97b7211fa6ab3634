// Answering and writing op 'audit' (audit_op.hpp). The numbers in the sentences are rounded in the
// direction that keeps them true: a lower bound down, a bound the claim allows up.
#include "dpcalc/api/audit_op.hpp"

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <variant>

#include "dpcalc/api/audit_claim.hpp"
#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/audit/claim_tradeoff.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// `value` ≥ 0 to three significant digits, rounded down (up with `up`), as "3.87" or "0.880".
std::string audit_digits(double value, bool up) {
  if (!(value > 0)) return "0";
  const double scale = std::pow(10.0, 2 - std::floor(std::log10(value)));
  const double rounded = (up ? std::ceil(value * scale) : std::floor(value * scale)) / scale;
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%#.3g", rounded);
  return buffer;
}

// "95%", "99.9%".
std::string audit_percent(double confidence) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.6g%%", confidence * 100);
  return buffer;
}

// The statement an ε lower bound makes, in words; never a guarantee.
std::string audit_sentence(double epsilon_lower, double confidence, double delta) {
  const std::string dp = delta > 0 ? "(ε, δ)-DP with δ = " + audit_number_text(delta) : "(ε, δ)-DP";
  if (!(epsilon_lower > 0)) {
    return "at " + audit_percent(confidence) + " confidence the experiment does not show that the mechanism fails " +
           dp + " for any ε ≥ 0";
  }
  return "with probability at least " + audit_percent(confidence) + " over the experiment, the mechanism is not " + dp +
         " for any ε below " + audit_digits(epsilon_lower, false);
}

std::string audit_verdict(bool refutes) {
  return refutes ? "the claim is refuted" : "the claim is consistent with the attack";
}

std::string claim_rate_sentence(const AuditClaimCheck& check, double confidence) {
  return "the claimed " + check.described + " allows TPR ≤ " + audit_digits(check.allowed_tpr, true) + " at FPR " +
         audit_digits(check.at_fpr, false) + "; the attack reached at least " + audit_digits(check.tpr_lower, false) +
         " with " + audit_percent(confidence) + " confidence: " + audit_verdict(check.refutes);
}

std::string claim_one_run_sentence(const AuditClaimCheck& check, double confidence) {
  return "the claimed " + check.described + " has ε = " + format_number(check.epsilon) +
         " at δ = " + audit_number_text(check.delta) + "; the run shows ε ≥ " +
         audit_digits(check.epsilon_lower, false) + " at that δ with " + audit_percent(confidence) +
         " confidence: " + audit_verdict(check.refutes);
}

// Counts and scores: refuted when the claim allows less than TPR_lo at FPR_hi.
Result<AuditClaimCheck> check_claim_at(AuditClaimCurve& curve, const audit::RateBounds& bounds,
                                       const Progress& progress) {
  AuditClaimCheck check;
  check.described = curve.described;
  check.at_fpr = bounds.fpr_upper;
  check.tpr_lower = bounds.tpr_lower;
  DPCALC_TRY(check.allowed_tpr, claim_allowed_tpr(curve, bounds.fpr_upper, progress));
  check.refutes = check.tpr_lower > check.allowed_tpr;
  check.method = curve.method;
  return check;
}

// One run bounds ε at one δ, so it checks a claim that states ε at a δ: ε-DP (δ = 0) or (ε, δ)-DP,
// its ε against the run's bound at the claim's own δ.
Result<AuditClaimCheck> check_one_run_claim(const AuditRequest& request, const AuditClaimCurve& curve,
                                            const audit::OneRunAudit& at_request_delta) {
  const AuditClaim& claim = *request.claim;
  const bool states_epsilon =
      claim.kind == AuditClaim::Kind::kGuarantee &&
      (std::holds_alternative<PureDp>(*claim.guarantee) || std::holds_alternative<ApproxDp>(*claim.guarantee));
  if (!states_epsilon) {
    return invalid_argument(claim.path,
                            "A one-run audit (Steinke, Nasr, Jagielski 2023) bounds ε at one δ, so it "
                            "checks a claim of ε-DP or (ε, δ)-DP: give the claimed ε at a δ as {type: "
                            "'approx', epsilon, delta} (op 'convert' or the claim's own request gives it).");
  }
  AuditClaimCheck check;
  check.described = curve.described;
  check.epsilon = curve.epsilon;
  check.delta = curve.delta;
  check.method = audit::kOneRunAudit;
  check.epsilon_lower = at_request_delta.epsilon_lower;
  if (curve.delta != request.delta) {
    DPCALC_TRY(const audit::OneRunAudit at_claim,
               at_path(audit::audit_one_run(request.one_run, request.confidence, curve.delta), request.evidence_path));
    check.epsilon_lower = at_claim.epsilon_lower;
  }
  check.refutes = check.epsilon_lower > check.epsilon;
  return check;
}

Result<bool> answer_audit_scores(const AuditRequest& request, AuditAnswer& answer, const Progress& progress) {
  DPCALC_TRY(answer.scores,
             at_path(audit::audit_scores(request.member_scores, request.nonmember_scores, request.confidence,
                                         request.delta, request.preregistered_thresholds),
                     request.evidence_path));
  answer.counts_audit = answer.scores->best_epsilon.audit;
  answer.counts = answer.scores->best_epsilon.counts;
  if (!request.claim) return true;
  // The threshold that beats the claim by the most, ranked on estimates (its bounds hold for every
  // threshold at once, scores_audit.hpp (S1)), then checked on the certified bounds.
  DPCALC_TRY(AuditClaimCurve curve, audit_claim_curve(*request.claim));
  DPCALC_TRY(const std::function<double(double)> estimate, claim_allowed_estimate(curve, progress));
  const audit::ThresholdObjective margin = [&estimate](const audit::RateBounds& bounds) {
    return bounds.tpr_lower - estimate(bounds.fpr_upper);
  };
  DPCALC_TRY(const audit::ScoresThreshold best,
             at_path(audit::best_scores_threshold(request.member_scores, request.nonmember_scores, request.confidence,
                                                  request.delta, margin, request.preregistered_thresholds),
                     request.evidence_path));
  DPCALC_TRY(answer.claim, check_claim_at(curve, best.audit.bounds, progress));
  answer.claim->threshold = best.threshold;
  return true;
}

Value audit_interval(double low, double high) {
  Value pair = Value::array();
  pair.push(Value(low)).push(Value(high));
  return pair;
}

Value audit_counts_value(const audit::MembershipCounts& counts) {
  Value value = Value::object();
  value.set("true_positives", counts.true_positives)
      .set("positives", counts.positives)
      .set("false_positives", counts.false_positives)
      .set("negatives", counts.negatives);
  return value;
}

// The citation of the result: the audit's works, then those of the claim's curve, each once.
void set_audit_citation(Value& result, const AuditAnswer& answer) {
  std::string citation, keys;
  const auto add = [&citation, &keys](const MethodInfo& info) {
    if (*info.citation == '\0' || citation.find(info.citation) != std::string::npos) return;
    citation += (citation.empty() ? "" : "; ") + std::string(info.citation);
    keys += (keys.empty() ? "" : " ") + std::string(info.citation_key);
  };
  if (answer.kind == AuditEvidenceKind::kOneRun) {
    add(audit::kOneRunAudit);
  } else {
    add(answer.kind == AuditEvidenceKind::kCounts ? audit::kCountsAudit : audit::kScoresAudit);
    add(audit::kCountsGaussianAudit);
  }
  if (answer.claim) add(answer.claim->method);
  result.set("method", answer.kind == AuditEvidenceKind::kOneRun   ? audit::kOneRunAudit.method
                       : answer.kind == AuditEvidenceKind::kCounts ? audit::kCountsAudit.method
                                                                   : audit::kScoresAudit.method);
  set_citation(result, citation, keys);
}

const char* audit_kind_name(AuditEvidenceKind kind) {
  return kind == AuditEvidenceKind::kCounts ? "counts" : kind == AuditEvidenceKind::kOneRun ? "one_run" : "scores";
}

}  // namespace

Result<AuditAnswer> answer_audit(const AuditRequest& request, const Progress& progress) {
  AuditAnswer answer;
  answer.kind = request.kind;
  answer.confidence = request.confidence;
  answer.delta = request.delta;
  switch (request.kind) {
    case AuditEvidenceKind::kCounts: {
      DPCALC_TRY(answer.counts_audit, at_path(audit::audit_counts(request.counts, request.confidence, request.delta),
                                              request.evidence_path));
      answer.counts = request.counts;
      if (!request.claim) break;
      DPCALC_TRY(AuditClaimCurve curve, audit_claim_curve(*request.claim));
      DPCALC_TRY(answer.claim, check_claim_at(curve, answer.counts_audit.bounds, progress));
      break;
    }
    case AuditEvidenceKind::kOneRun: {
      DPCALC_TRY(answer.one_run, at_path(audit::audit_one_run(request.one_run, request.confidence, request.delta),
                                         request.evidence_path));
      if (!request.claim) break;
      DPCALC_TRY(const AuditClaimCurve curve, audit_claim_curve(*request.claim));
      DPCALC_TRY(answer.claim, check_one_run_claim(request, curve, answer.one_run));
      break;
    }
    case AuditEvidenceKind::kScores:
      DPCALC_CHECK(answer_audit_scores(request, answer, progress));
      break;
  }
  return answer;
}

Value write_audit(const AuditAnswer& answer) {
  Value result = Value::object();
  result.set("kind", audit_kind_name(answer.kind));
  const bool one_run = answer.kind == AuditEvidenceKind::kOneRun;
  const double epsilon_lower = one_run ? answer.one_run.epsilon_lower : answer.counts_audit.epsilon_lower;
  result.set("epsilon_lower", epsilon_lower);
  if (one_run) {
    result.set("p_value_upper", answer.one_run.p_value_upper);
  } else {
    const audit::CountsAudit& mu_audit = answer.scores ? answer.scores->best_mu.audit : answer.counts_audit;
    const audit::RateBounds& bounds = answer.counts_audit.bounds;
    result.set("mu_lower", mu_audit.mu_lower);
    result.set("tpr_interval", audit_interval(bounds.tpr_lower, 1));
    result.set("fpr_interval", audit_interval(0, bounds.fpr_upper));
  }
  if (answer.scores) {
    const audit::ScoresAudit& scores = *answer.scores;
    result.set("threshold", scores.best_epsilon.threshold);
    result.set("counts", audit_counts_value(scores.best_epsilon.counts));
    result.set("mu_threshold", scores.best_mu.threshold);
    result.set("thresholds_tried", static_cast<double>(scores.candidate_thresholds));
    result.set("correction", "bonferroni");
    result.set("member_significance", scores.member_significance);
    result.set("nonmember_significance", scores.nonmember_significance);
  }
  result.set("confidence", answer.confidence).set("delta", answer.delta);
  result.set("sentence", audit_sentence(epsilon_lower, answer.confidence, answer.delta));
  if (answer.claim) {
    const AuditClaimCheck& claim = *answer.claim;
    result.set("refutes", claim.refutes);
    if (one_run) {
      result.set("claim_epsilon", claim.epsilon).set("claim_delta", claim.delta);
      result.set("claim_epsilon_lower", claim.epsilon_lower);
      result.set("claim_sentence", claim_one_run_sentence(claim, answer.confidence));
    } else {
      result.set("claim_allowed_tpr", claim.allowed_tpr).set("claim_at_fpr", claim.at_fpr);
      result.set("claim_tpr_lower", claim.tpr_lower);
      if (claim.threshold) result.set("claim_threshold", *claim.threshold);
      result.set("claim_sentence", claim_rate_sentence(claim, answer.confidence));
    }
  }
  set_audit_citation(result, answer);
  return result;
}

}  // namespace dpcalc::api
