// Counts audits (core/include/dpcalc/audit/counts_audit.hpp) against mpmath:
// tests/reference/audit_reference.py, section 2 (Clopper–Pearson bounds at 40 digits, then (A3), (A4)).
#include "dpcalc/audit/counts_audit.hpp"

#include <cmath>
#include <limits>

#include "approx.hpp"
#include "dpcalc/result.hpp"

using namespace dpcalc;
using namespace dpcalc::audit;

namespace {

struct CountsReference {
  MembershipCounts counts;
  double confidence, delta;
  double tpr_lower, fpr_upper, tnr_lower, fnr_upper, epsilon_direct, epsilon_complementary, mu;
};

// tests/reference/audit_reference.py, section 2.
const CountsReference kCountsReferences[] = {
    {{900, 1000, 10, 1000},
     0.95,
     0,
     0.87971206348130736402,
     0.018313243055112452223,
     0.98168675694488754778,
     0.12028793651869263598,
     3.8719701909985562732,
     2.0993839330495055041,
     3.2634519271581547907},
    {{900, 1000, 10, 1000},
     0.95,
     1e-5,
     0.87971206348130736402,
     0.018313243055112452223,
     0.98168675694488754778,
     0.12028793651869263598,
     3.8719588235781782508,
     2.0993737464488792404,
     3.2634519271581547907},
    {{900, 1000, 10, 1000},
     0.99,
     0,
     0.87312013615931093423,
     0.021276058753616502652,
     0.97872394124638349735,
     0.12687986384068906577,
     3.7144907210100554314,
     2.0430089376743879755,
     3.169344512486759447},
    {{995, 1000, 300, 1000},
     0.95,
     0,
     0.98837052944018785088,
     0.32946167869736600242,
     0.67053832130263399758,
     0.011629470559812149122,
     1.098597611434198365,
     4.0545384125784481353,
     2.7105544687678247895},
    {{995, 1000, 0, 1000},
     0.95,
     0,
     0.98837052944018785088,
     0.0036820838968656720861,
     0.99631791610313432791,
     0.011629470559812149122,
     5.5925787890104316735,
     4.4505239576955794383,
     4.9490656203482477811},
    {{5, 10, 5, 10},
     0.95,
     0,
     0.18708602844739853164,
     0.81291397155260146836,
     0.18708602844739853164,
     0.81291397155260146836,
     0,
     0,
     0},
    {{1, 1, 0, 1}, 0.5, 0, 0.25, 0.75, 0.25, 0.75, 0, 0, 0},
};

// A lower bound: never above the exact value, within rel of it (exactly 0 when the exact value is).
void check_lower(double value, double exact, double rel) {
  CHECK(value <= exact);
  if (exact == 0) {
    CHECK(value == 0);
  } else {
    CHECK_REL(value, exact, rel);
  }
}

}  // namespace

TEST_CASE("[audit] the worked example: 900 of 1000 members, 10 of 1000 non-members, 95%") {
  const Result<CountsAudit> audit = audit_counts({900, 1000, 10, 1000}, 0.95, 0);
  REQUIRE(audit.ok());
  // TPR ≥ 0.8797, FPR ≤ 0.01831, ε ≥ 3.872, μ ≥ 3.263 (the values the science notes state).
  CHECK(std::fabs(audit.value().bounds.tpr_lower - 0.8797) < 1e-4);
  CHECK(std::fabs(audit.value().bounds.fpr_upper - 0.01831) < 1e-5);
  CHECK(std::fabs(audit.value().epsilon_lower - 3.872) < 1e-3);
  CHECK(std::fabs(audit.value().mu_lower - 3.263) < 1e-3);
  CHECK(audit.value().epsilon_test == EpsilonTest::kDirect);
  // α = 1 − 0.95 = 0.050000000000000044 exactly in doubles (rounded down), split equally.
  CHECK(audit.value().member_significance == 0.050000000000000044 / 2);
  CHECK(audit.value().nonmember_significance == 0.050000000000000044 / 2);
}

TEST_CASE("[audit] counts audits are sound and tight against mpmath") {
  for (const CountsReference& reference : kCountsReferences) {
    CAPTURE(reference.counts.true_positives);
    CAPTURE(reference.counts.false_positives);
    CAPTURE(reference.delta);
    const Result<CountsAudit> result = audit_counts(reference.counts, reference.confidence, reference.delta);
    REQUIRE(result.ok());
    const CountsAudit& audit = result.value();
    check_lower(audit.bounds.tpr_lower, reference.tpr_lower, 1e-12);
    check_lower(audit.bounds.tnr_lower, reference.tnr_lower, 1e-12);
    CHECK(audit.bounds.fpr_upper >= reference.fpr_upper);
    CHECK(audit.bounds.fnr_upper >= reference.fnr_upper);
    CHECK_REL(audit.bounds.fpr_upper, reference.fpr_upper, 1e-12);
    CHECK_REL(audit.bounds.fnr_upper, reference.fnr_upper, 1e-12);
    check_lower(audit.epsilon_direct, reference.epsilon_direct, 1e-12);
    check_lower(audit.epsilon_complementary, reference.epsilon_complementary, 1e-12);
    check_lower(audit.epsilon_lower, std::max(reference.epsilon_direct, reference.epsilon_complementary), 1e-12);
    check_lower(audit.mu_lower, reference.mu, 1e-12);
  }
  // (995, 300 of 1000): the complementary line TNR ≤ e^ε FNR + δ gives the bound.
  CHECK(audit_counts({995, 1000, 300, 1000}, 0.95, 0).value().epsilon_test == EpsilonTest::kComplementary);
  CHECK(audit_counts({5, 10, 5, 10}, 0.95, 0).value().epsilon_test == EpsilonTest::kNone);
}

TEST_CASE("[audit] counts audits are monotone in the evidence and the confidence") {
  const MembershipCounts base{900, 1000, 10, 1000};
  const double epsilon = audit_counts(base, 0.95, 1e-5).value().epsilon_lower;
  const double mu = audit_counts(base, 0.95, 1e-5).value().mu_lower;
  for (double tp = 0; tp <= 1000; tp += 50) {
    CAPTURE(tp);
    const CountsAudit fewer = audit_counts({tp, 1000, 10, 1000}, 0.95, 1e-5).value();
    const CountsAudit more = audit_counts({std::min(tp + 25, 1000.0), 1000, 10, 1000}, 0.95, 1e-5).value();
    CHECK(more.epsilon_lower >= fewer.epsilon_lower);
    CHECK(more.mu_lower >= fewer.mu_lower);
  }
  for (double fp = 0; fp < 1000; fp += 100) {
    CHECK(audit_counts({900, 1000, fp + 1, 1000}, 0.95, 0).value().epsilon_lower <=
          audit_counts({900, 1000, fp, 1000}, 0.95, 0).value().epsilon_lower);
  }
  // A higher confidence never raises the bound; a larger δ never raises ε.
  CHECK(audit_counts(base, 0.99, 1e-5).value().epsilon_lower < epsilon);
  CHECK(audit_counts(base, 0.999999, 1e-5).value().mu_lower < mu);
  CHECK(audit_counts(base, 0.95, 0.1).value().epsilon_lower < epsilon);
}

TEST_CASE("[audit] counts audits at the edges are finite") {
  const double huge = 9007199254740992;
  const MembershipCounts cases[] = {
      {0, 1, 0, 1},
      {1, 1, 1, 1},
      {0, 1000, 0, 1000},
      {1000, 1000, 0, 1000},
      {1000, 1000, 1000, 1000},
      {0, 1000, 1000, 1000},
      {huge, huge, 0, huge},
      {1, huge, 0, huge},
      {huge - 1, huge, 1, huge},
      {3, 3, 0, huge},
  };
  for (const MembershipCounts& counts : cases) {
    CAPTURE(counts.true_positives);
    CAPTURE(counts.false_positives);
    for (double confidence : {1e-9, 0.5, 0.95, 1 - 1e-15}) {
      const Result<CountsAudit> audit = audit_counts(counts, confidence, 0);
      REQUIRE(audit.ok());
      CHECK(std::isfinite(audit.value().epsilon_lower));
      CHECK(audit.value().epsilon_lower >= 0);
      CHECK(std::isfinite(audit.value().mu_lower));
      CHECK(audit.value().mu_lower >= 0);
      CHECK(audit.value().bounds.fpr_upper > 0);
      CHECK(audit.value().bounds.fnr_upper > 0);
    }
  }
  // Every member flagged, no non-member: ε ≥ ln(a^(1/n) / (1 − a^(1/n))) with a = 0.025, n = 2^53.
  const CountsAudit perfect = audit_counts({huge, huge, 0, huge}, 0.95, 0).value();
  CHECK_REL(perfect.epsilon_lower, std::log(1 / -std::expm1(std::log(0.025) / huge)), 1e-12);
}

TEST_CASE("[audit] counts audits refuse inputs outside the domain on their names") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(audit_counts({1, 0, 0, 10}, 0.95, 0).error().field == "positives");
  CHECK(audit_counts({1, 10, 0, 0}, 0.95, 0).error().field == "negatives");
  CHECK(audit_counts({11, 10, 0, 10}, 0.95, 0).error().field == "true_positives");
  CHECK(audit_counts({1.5, 10, 0, 10}, 0.95, 0).error().field == "true_positives");
  CHECK(audit_counts({1, 10, 11, 10}, 0.95, 0).error().field == "false_positives");
  CHECK(audit_counts({1, 10, nan, 10}, 0.95, 0).error().field == "false_positives");
  CHECK(audit_counts({1, 10, 0, 10}, 1, 0).error().field == "confidence");
  CHECK(audit_counts({1, 10, 0, 10}, 0, 0).error().field == "confidence");
  CHECK(audit_counts({1, 10, 0, 10}, nan, 0).error().field == "confidence");
  CHECK(audit_counts({1, 10, 0, 10}, 0.95, 1).error().field == "delta");
  CHECK(audit_counts({1, 10, 0, 10}, 0.95, -0.1).error().field == "delta");
  CHECK(audit_counts_at({1, 10, 0, 10}, 0.7, 0.1, 0).error().field == "member_significance");
  CHECK(audit_counts_at({1, 10, 0, 10}, 0.1, 0, 0).error().field == "nonmember_significance");
}
