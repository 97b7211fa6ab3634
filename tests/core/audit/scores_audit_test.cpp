// Scores audits (core/include/dpcalc/audit/scores_audit.hpp). Expected values: mpmath,
// tests/reference/audit_reference.py, section 4 (every distinct score tried as a threshold, exact
// Clopper–Pearson bounds at α/(2P) and α/(2N), the best threshold by ε and by μ).
#include "dpcalc/audit/scores_audit.hpp"

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "approx.hpp"
#include "dpcalc/audit/claim_tradeoff.hpp"
#include "dpcalc/result.hpp"

using namespace dpcalc;
using namespace dpcalc::audit;

namespace {

// The data set of tests/reference/audit_reference.py, section 4 (with ties).
std::vector<double> reference_members() {
  std::vector<double> scores;
  for (int i = 0; i < 40; ++i) scores.push_back((i * 7) % 23 + 5);
  return scores;
}
std::vector<double> reference_nonmembers() {
  std::vector<double> scores;
  for (int i = 0; i < 60; ++i) scores.push_back((i * 5) % 19);
  return scores;
}

// Scores from a fixed linear congruential generator (identical on every platform): members shifted up.
std::vector<double> generated_scores(std::size_t count, double shift, std::uint64_t seed) {
  std::vector<double> scores;
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < count; ++i) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    scores.push_back(static_cast<double>(state >> 11) * 0x1p-53 + shift);
  }
  return scores;
}

}  // namespace

TEST_CASE("[audit] the best threshold of a scores audit against mpmath") {
  const Result<ScoresAudit> result = audit_scores(reference_members(), reference_nonmembers(), 0.95, 0);
  REQUIRE(result.ok());
  const ScoresAudit& audit = result.value();
  CHECK(audit.member_significance == 0.050000000000000044 / 2 / 40);
  CHECK(audit.nonmember_significance == 0.050000000000000044 / 2 / 60);
  // Best by ε and by μ: threshold 19, 16 members and no non-member flagged; TPR_lo
  // 0.17380342828132225281, FPR_hi 0.12165901950983321509, ε 0.35670272848069510487, μ
  // 0.22749210323862104817 (section 4).
  for (const ScoresThreshold* best : {&audit.best_epsilon, &audit.best_mu}) {
    CHECK(best->threshold == 19);
    CHECK(best->counts.true_positives == 16);
    CHECK(best->counts.false_positives == 0);
    CHECK(best->counts.positives == 40);
    CHECK(best->counts.negatives == 60);
    CHECK(best->audit.bounds.tpr_lower <= 0.17380342828132225281);
    CHECK_REL(best->audit.bounds.tpr_lower, 0.17380342828132225281, 1e-12);
    CHECK(best->audit.bounds.fpr_upper >= 0.12165901950983321509);
    CHECK_REL(best->audit.bounds.fpr_upper, 0.12165901950983321509, 1e-12);
    CHECK(best->audit.epsilon_lower <= 0.35670272848069510487);
    CHECK_REL(best->audit.epsilon_lower, 0.35670272848069510487, 1e-12);
    CHECK(best->audit.mu_lower <= 0.22749210323862104817);
    CHECK_REL(best->audit.mu_lower, 0.22749210323862104817, 1e-12);
  }
  CHECK(audit.candidate_thresholds > 1);
  CHECK(audit.ranked_thresholds >= 2);
  // A higher confidence never raises either bound, a larger δ never raises ε.
  const ScoresAudit stricter = audit_scores(reference_members(), reference_nonmembers(), 0.99, 0).value();
  CHECK(stricter.best_epsilon.audit.epsilon_lower < audit.best_epsilon.audit.epsilon_lower);
  CHECK(stricter.best_mu.audit.mu_lower < audit.best_mu.audit.mu_lower);
  const ScoresAudit with_delta = audit_scores(reference_members(), reference_nonmembers(), 0.95, 0.01).value();
  CHECK(with_delta.best_epsilon.audit.epsilon_lower < audit.best_epsilon.audit.epsilon_lower);
}

TEST_CASE("[audit] preregistered thresholds take the Bonferroni correction of their number") {
  const std::vector<double> thresholds = {19, 10, 19};  // two distinct
  const ScoresAudit audit = audit_scores(reference_members(), reference_nonmembers(), 0.95, 0, thresholds).value();
  CHECK(audit.candidate_thresholds == 2);
  CHECK(audit.member_significance == 0.050000000000000044 / 2 / 2);
  CHECK(audit.nonmember_significance == 0.050000000000000044 / 2 / 2);
  // The same counts audited at those significances directly.
  const CountsAudit direct =
      audit_counts_at(audit.best_epsilon.counts, audit.member_significance, audit.nonmember_significance, 0).value();
  CHECK(audit.best_epsilon.audit.epsilon_lower == direct.epsilon_lower);
  // Fewer thresholds, a smaller correction: a larger bound than over every threshold.
  CHECK(audit.best_epsilon.audit.epsilon_lower >
        audit_scores(reference_members(), reference_nonmembers(), 0.95, 0).value().best_epsilon.audit.epsilon_lower);
}

TEST_CASE("[audit] scores audits: separated, identical and large score lists") {
  // Perfectly separated: the threshold between the lists flags every member and no non-member.
  const std::vector<double> members = generated_scores(500, 2, 1), nonmembers = generated_scores(500, 0, 2);
  const ScoresAudit separated = audit_scores(members, nonmembers, 0.95, 1e-5).value();
  CHECK(separated.best_epsilon.counts.true_positives == 500);
  CHECK(separated.best_epsilon.counts.false_positives == 0);
  CHECK(separated.best_epsilon.audit.epsilon_lower > 3);
  // Identical lists separate nothing: finite, and no larger than the no-information bound.
  const ScoresAudit identical = audit_scores(nonmembers, nonmembers, 0.95, 0).value();
  CHECK(std::isfinite(identical.best_epsilon.audit.epsilon_lower));
  CHECK(identical.best_epsilon.audit.epsilon_lower == 0);
  CHECK(identical.best_mu.audit.mu_lower == 0);
  // Overlapping lists of 10^5 each: the ranking stops early, and more separation never lowers the
  // bound.
  const std::vector<double> weak_members = generated_scores(100000, 0.3, 3), many = generated_scores(100000, 0, 4);
  const ScoresAudit weak = audit_scores(weak_members, many, 0.95, 0).value();
  const ScoresAudit stronger = audit_scores(generated_scores(100000, 0.4, 3), many, 0.95, 0).value();
  CHECK(weak.best_epsilon.audit.epsilon_lower > 0);
  CHECK(stronger.best_epsilon.audit.epsilon_lower >= weak.best_epsilon.audit.epsilon_lower);
  CHECK(weak.ranked_thresholds < weak.candidate_thresholds);
}

TEST_CASE("[audit] the ranked best threshold is the best of every distinct score") {
  // Certified audits at every distinct score of overlapping lists (with ties) against the ranking.
  std::vector<double> members = generated_scores(300, 0.25, 7), nonmembers = generated_scores(400, 0, 8);
  for (double& score : members) score = std::round(score * 200) / 200;
  for (double& score : nonmembers) score = std::round(score * 200) / 200;
  const ScoresAudit audit = audit_scores(members, nonmembers, 0.9, 1e-6).value();
  std::vector<double> thresholds = members;
  thresholds.insert(thresholds.end(), nonmembers.begin(), nonmembers.end());
  double best_epsilon = 0, best_mu = 0;
  for (double t : thresholds) {
    double tp = 0, fp = 0;
    for (double score : members) tp += score >= t;
    for (double score : nonmembers) fp += score >= t;
    const CountsAudit at =
        audit_counts_at({tp, 300, fp, 400}, audit.member_significance, audit.nonmember_significance, 1e-6).value();
    best_epsilon = std::max(best_epsilon, at.epsilon_lower);
    best_mu = std::max(best_mu, at.mu_lower);
  }
  CHECK(best_epsilon > 0);
  CHECK(audit.best_epsilon.audit.epsilon_lower == best_epsilon);
  CHECK(audit.best_mu.audit.mu_lower == best_mu);
}

TEST_CASE("[audit] a claim's margin as the objective picks the threshold that refutes it most") {
  // (0.3, 0)-DP against the separated data set: the margin TPR_lo − allowed TPR at FPR_hi.
  const std::vector<double> members = generated_scores(300, 0.9, 5), nonmembers = generated_scores(300, 0, 6);
  auto margin = [](const RateBounds& bounds) {
    const Result<double> allowed = approx_dp_allowed_tpr(0.3, 0, bounds.fpr_upper);
    return allowed.ok() ? bounds.tpr_lower - allowed.value() : -std::numeric_limits<double>::infinity();
  };
  const ScoresThreshold best = best_scores_threshold(members, nonmembers, 0.95, 0, margin).value();
  const double allowed = approx_dp_allowed_tpr(0.3, 0, best.audit.bounds.fpr_upper).value();
  CHECK(best.audit.bounds.tpr_lower > allowed);
}

TEST_CASE("[audit] scores audits refuse inputs outside the domain on their names") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(audit_scores({}, {1}, 0.95, 0).error().field == "member_scores");
  CHECK(audit_scores({1}, {}, 0.95, 0).error().field == "nonmember_scores");
  CHECK(audit_scores({1, nan}, {1}, 0.95, 0).error().field == "member_scores");
  CHECK(audit_scores({1, nan}, {1}, 0.95, 0).error().item == 1);
  CHECK(audit_scores({1}, {INFINITY}, 0.95, 0).error().field == "nonmember_scores");
  CHECK(audit_scores({1}, {0}, 1.5, 0).error().field == "confidence");
  CHECK(audit_scores({1}, {0}, 0.95, 1).error().field == "delta");
  CHECK(audit_scores({1}, {0}, 0.95, 0, {nan}).error().field == "preregistered_thresholds");
}
