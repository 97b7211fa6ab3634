// Reading op 'audit' (audit_op.hpp): the evidence by its kind, the confidence and δ, and the claim.
// The counts' own checks (whole numbers, within their totals) are the audit domain's, put on the
// evidence's path by answer_audit.
#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/audit_op.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/api/schema.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

Result<std::vector<double>> audit_scores_field(const Value& evidence, const std::string& at, const Field& field,
                                               bool required) {
  if (!required && !has_field(evidence, field.name.c_str())) return std::vector<double>{};
  DPCALC_TRY(std::vector<double> scores, read_numbers(evidence, at, field));
  if (scores.size() > kMaxAuditScores) {
    return invalid_argument(field_path(at, field.name), "At most " + std::to_string(kMaxAuditScores) +
                                                            " values are accepted here (got " +
                                                            std::to_string(scores.size()) + ").");
  }
  return scores;
}

Result<bool> read_audit_evidence(const Value& request, AuditRequest& read) {
  const Shape& shape = request_shapes().audit_evidence;
  read.evidence_path = field_path(read.at, "evidence");
  const std::string& at = read.evidence_path;
  DPCALC_TRY(const Value* value, member(request, read.at, "evidence"));
  DPCALC_TRY(const Value* evidence, require_object(*value, at));
  DPCALC_TRY(const std::string kind, read_choice(*evidence, at, declared(shape, "kind")));
  if (kind == "counts") {
    read.kind = AuditEvidenceKind::kCounts;
    DPCALC_TRY(read.counts.true_positives, read_number(*evidence, at, declared(shape, "true_positives")));
    DPCALC_TRY(read.counts.positives, read_number(*evidence, at, declared(shape, "positives")));
    DPCALC_TRY(read.counts.false_positives, read_number(*evidence, at, declared(shape, "false_positives")));
    DPCALC_TRY(read.counts.negatives, read_number(*evidence, at, declared(shape, "negatives")));
  } else if (kind == "one_run") {
    read.kind = AuditEvidenceKind::kOneRun;
    DPCALC_TRY(read.one_run.canaries, read_number(*evidence, at, declared(shape, "canaries")));
    DPCALC_TRY(read.one_run.guesses, read_number(*evidence, at, declared(shape, "guesses")));
    DPCALC_TRY(read.one_run.correct, read_number(*evidence, at, declared(shape, "correct")));
  } else {
    read.kind = AuditEvidenceKind::kScores;
    DPCALC_TRY(read.member_scores, audit_scores_field(*evidence, at, declared(shape, "member_scores"), true));
    DPCALC_TRY(read.nonmember_scores, audit_scores_field(*evidence, at, declared(shape, "nonmember_scores"), true));
    DPCALC_TRY(read.preregistered_thresholds,
               audit_scores_field(*evidence, at, declared(shape, "preregistered_thresholds"), false));
  }
  return true;
}

// "'group', 'compose', … or 'databases'": the ops a claim may name.
std::string audit_claim_ops(const std::vector<const Shape*>& requests) {
  std::string accepted;
  for (std::size_t i = 0; i < requests.size(); ++i) {
    accepted += (i == 0 ? "'" : i + 1 == requests.size() ? " or '" : ", '") + requests[i]->name + "'";
  }
  return accepted;
}

// The type a claim without one has, from its fields (as a person writes it: {epsilon, delta},
// {mu}, {rho}), or null when it has none of them.
const char* inferred_claim_type(const Value& claim) {
  if (has_field(claim, "mu")) return "gdp";
  if (has_field(claim, "rho")) return "zcdp";
  if (has_field(claim, "orders") || has_field(claim, "epsilons")) return "rdp";
  if (has_field(claim, "delta")) return "approx";
  if (has_field(claim, "epsilon")) return "pure";
  return nullptr;
}

// A claim with its type: a guarantee, or μ-GDP.
Result<AuditClaim> read_typed_claim(const Value& value, AuditClaim claim) {
  const Shape& shape = request_shapes().audit_claim;
  DPCALC_TRY(const std::string type, read_choice(value, claim.path, declared(shape, "type")));
  if (type != "gdp") {
    DPCALC_TRY(claim.guarantee, read_guarantee(value, claim.path));
    return claim;
  }
  claim.kind = AuditClaim::Kind::kGaussian;
  DPCALC_TRY(claim.mu, read_number(value, claim.path, declared(shape, "mu")));
  if (!(claim.mu >= 0) || std::isinf(claim.mu)) {
    return invalid_argument(field_path(claim.path, "mu"),
                            "μ must be a finite number, 0 or more " + got(claim.mu) + ".");
  }
  return claim;
}

// A guarantee ({type, …}, or without its type: {epsilon, delta}), μ-GDP ({mu}), {guarantee}, or a
// request with an 'op'.
Result<AuditClaim> read_audit_claim(const Value& value, const std::string& at) {
  const Shape& shape = request_shapes().audit_claim;
  AuditClaim claim;
  claim.path = at;
  if (!value.is_object()) {
    return invalid_argument(at, std::string("The claim must be a guarantee ({type: 'approx', epsilon, delta}, …), "
                                            "{type: 'gdp', mu}, {guarantee} or a request object (got ") +
                                    value.kind_name() + ").");
  }
  if (has_field(value, "op")) {
    claim.kind = AuditClaim::Kind::kRequest;
    claim.request = value;
    return claim;
  }
  if (has_field(value, "guarantee")) {
    // {guarantee} takes nothing else (as op 'tradeoff''s `of`).
    DPCALC_CHECK(check_fields(value, at, request_shapes().bare_guarantee));
    claim.path = field_path(at, "guarantee");
    DPCALC_TRY(claim.guarantee, read_guarantee(*value.find("guarantee"), claim.path));
    return claim;
  }
  if (has_field(value, "type")) return read_typed_claim(value, claim);
  const char* type = inferred_claim_type(value);
  if (type == nullptr) {
    return invalid_argument(at, "The claim needs a guarantee ({type: " + declared(shape, "type").type +
                                    ", …}, or {epsilon, delta}, {mu}, {rho}), {guarantee}, or an op (a request of op " +
                                    audit_claim_ops(declared(request_shapes().audit, "claim").requests) + ").");
  }
  // With its type, the fields are checked again: one that the inferred type does not take is an
  // error ({epsilon, delta, mu} is not a μ-GDP claim), never ignored.
  Value typed = value;
  typed.set("type", type);
  DPCALC_CHECK(check_fields(typed, at, shape));
  return read_typed_claim(typed, claim);
}

}  // namespace

Result<AuditRequest> read_audit(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().audit;
  AuditRequest read;
  read.at = at;
  DPCALC_TRY(read.confidence, read_number(request, at, declared(shape, "confidence")));
  if (!(read.confidence > 0 && read.confidence < 1)) {
    return invalid_argument(field_path(at, "confidence"),
                            "The confidence must be above 0 and below 1 " + got(read.confidence) + ".");
  }
  DPCALC_TRY(read.delta, read_number(request, at, declared(shape, "delta")));
  if (!(read.delta >= 0 && read.delta < 1)) {
    return invalid_argument(field_path(at, "delta"), "δ must be at least 0 and below 1 " + got(read.delta) + ".");
  }
  DPCALC_CHECK(read_audit_evidence(request, read));
  if (has_field(request, "claim")) {
    DPCALC_TRY(read.claim, read_audit_claim(*request.find("claim"), field_path(at, "claim")));
  }
  return read;
}

}  // namespace dpcalc::api
