// One-run audits (core/include/dpcalc/audit/one_run_audit.hpp). Expected values:
//   mpmath: tests/reference/audit_reference.py, section 3 (the p-value by exact sums at 30 digits,
//     the largest ε with p-value ≤ 0.05 by 200 bisection steps);
//   JAX Privacy from source (google-deepmind/jax_privacy commit 8967688c26d46f3b74bfdfe61ef1f984b887abab,
//     jax_privacy/auditing.py, _epsilon_one_run(0, m, r, v, 0.05, delta), run from /tmp with numpy 1.24
//     and scipy 1.10): its Brent root (xtol 1e-6) is within 1e-6 of the mpmath value.
#include "dpcalc/audit/one_run_audit.hpp"

#include <cmath>
#include <limits>

#include "approx.hpp"
#include "dpcalc/result.hpp"

using namespace dpcalc;
using namespace dpcalc::audit;

namespace {

struct OneRunReference {
  OneRunEvidence evidence;
  double delta, epsilon;
};

// tests/reference/audit_reference.py, section 3 (p-value increasing in ε along its grid in each case).
const OneRunReference kOneRunReferences[] = {
    {{1000, 100, 100}, 0, 3.4929654311522934},       {{1000, 100, 100}, 1e-05, 3.4653763478110464},
    {{1000, 100, 75}, 0.0001, 0.67298466410741988},  {{100000, 1510, 1439}, 1e-05, 2.6758510076786229},
    {{1000, 1000, 700}, 1e-05, 0.73174044941869201}, {{1000000, 100000, 70000}, 1e-06, 0.83564462533958931},
    {{1000, 100, 60}, 0, 0.051914937799193739},      {{50, 10, 3}, 0, 0.0},
};

}  // namespace

TEST_CASE("[audit] one-run ε lower bounds are sound and tight against mpmath") {
  for (const OneRunReference& reference : kOneRunReferences) {
    CAPTURE(reference.evidence.guesses);
    CAPTURE(reference.evidence.correct);
    CAPTURE(reference.delta);
    const Result<OneRunAudit> audit = audit_one_run(reference.evidence, 0.95, reference.delta);
    REQUIRE(audit.ok());
    CHECK(audit.value().epsilon_lower <= reference.epsilon);
    // Bisection to 1e-10 relative, and the certificates' margins (far smaller).
    CHECK(audit.value().epsilon_lower >= reference.epsilon - 1e-9 * std::max(1.0, reference.epsilon));
    CHECK(audit.value().significance == 0.050000000000000044);  // 1 − 0.95, exact
    if (reference.epsilon > 0) CHECK(audit.value().p_value_upper <= audit.value().significance);
  }
}

TEST_CASE("[audit] one-run audits reproduce JAX Privacy's _epsilon_one_run") {
  // JAX Privacy from source (see the file comment): 3.492965346169885 (δ = 0) and 3.465376229385333
  // (δ = 1e-5) for m = 1000, r = v = 100; 0.672984729773335 for v = 75 at δ = 1e-4, and
  // 2.6758509126062022 for m = 100000, r = 1510, v = 1439, δ = 1e-5 (the paper's Appendix D and Sec. 7
  // print 0.673 and 2.675).
  CHECK(std::fabs(audit_one_run({1000, 100, 100}, 0.95, 0).value().epsilon_lower - 3.492965346169885) < 1e-6);
  CHECK(std::fabs(audit_one_run({1000, 100, 100}, 0.95, 1e-5).value().epsilon_lower - 3.465376229385333) < 1e-6);
  CHECK(std::fabs(audit_one_run({1000, 100, 75}, 0.95, 1e-4).value().epsilon_lower - 0.672984729773335) < 1e-6);
  CHECK(std::fabs(audit_one_run({100000, 1510, 1439}, 0.95, 1e-5).value().epsilon_lower - 2.6758509126062022) < 1e-6);
  // The hand check: all 100 right needs q^100 ≤ 0.05, q = 0.05^(1/100), ε = ln(q/(1 − q)).
  const double q = std::pow(0.05, 0.01);
  CHECK_REL(audit_one_run({1000, 100, 100}, 0.95, 0).value().epsilon_lower, std::log(q / (1 - q)), 1e-9);
}

TEST_CASE("[audit] one-run p-values are upper bounds that grow with ε") {
  // At ε = 0 and δ = 0, all 100 of 100 right has probability 2^-100 exactly.
  check_upper_bound(one_run_p_value_upper({1000, 100, 100}, 0, 0).value(), std::ldexp(1.0, -100), 1e-11);
  double previous = 0;
  for (double epsilon = 0; epsilon <= 4; epsilon += 0.25) {
    const double p = one_run_p_value_upper({1000, 100, 75}, epsilon, 1e-4).value();
    CHECK(p >= previous);
    previous = p;
  }
  CHECK(one_run_p_value_upper({1000, 100, 0}, 1, 0).value() == 1);
}

TEST_CASE("[audit] one-run bounds are monotone in the evidence and the confidence") {
  double previous = 0;
  for (double correct = 50; correct <= 100; correct += 5) {
    const double epsilon = audit_one_run({1000, 100, correct}, 0.95, 1e-5).value().epsilon_lower;
    CHECK(epsilon >= previous);
    previous = epsilon;
  }
  const double at_95 = audit_one_run({1000, 100, 90}, 0.95, 1e-5).value().epsilon_lower;
  CHECK(audit_one_run({1000, 100, 90}, 0.99, 1e-5).value().epsilon_lower < at_95);
  CHECK(audit_one_run({1000, 100, 90}, 0.95, 1e-3).value().epsilon_lower < at_95);
}

TEST_CASE("[audit] one-run audits at the edges are finite") {
  const OneRunEvidence cases[] = {{1, 0, 0},          {1, 1, 0},     {1, 1, 1},
                                  {1e7, 1e7, 1e7},    {1e7, 1e7, 0}, {9007199254740992.0, 10, 10},
                                  {1e6, 1e6, 500001}, {2, 2, 2}};
  for (const OneRunEvidence& evidence : cases) {
    CAPTURE(evidence.guesses);
    CAPTURE(evidence.correct);
    for (double delta : {0.0, 1e-6, 0.5}) {
      const Result<OneRunAudit> audit = audit_one_run(evidence, 0.95, delta);
      REQUIRE(audit.ok());
      CHECK(std::isfinite(audit.value().epsilon_lower));
      CHECK(audit.value().epsilon_lower >= 0);
      CHECK(audit.value().p_value_upper <= 1);
    }
  }
  // All 10^7 right at 95%: ε = ln(q/(1 − q)), q = 0.05^(1e-7) (δ = 0).
  const double q = std::pow(0.05, 1e-7);
  CHECK_REL(audit_one_run({1e7, 1e7, 1e7}, 0.95, 0).value().epsilon_lower, std::log(q / (1 - q)), 1e-8);
}

TEST_CASE("[audit] one-run audits refuse inputs outside the domain on their names") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(audit_one_run({0, 0, 0}, 0.95, 0).error().field == "canaries");
  CHECK(audit_one_run({10, 11, 0}, 0.95, 0).error().field == "guesses");
  CHECK(audit_one_run({1e8, 2e7, 0}, 0.95, 0).error().field == "guesses");
  CHECK(audit_one_run({10, 5, 6}, 0.95, 0).error().field == "correct");
  CHECK(audit_one_run({10, 5, nan}, 0.95, 0).error().field == "correct");
  CHECK(audit_one_run({10, 5, 2}, 1, 0).error().field == "confidence");
  CHECK(audit_one_run({10, 5, 2}, 0.95, 1).error().field == "delta");
  CHECK(one_run_p_value_upper({10, 5, 2}, 65, 0).error().field == "epsilon");
}
