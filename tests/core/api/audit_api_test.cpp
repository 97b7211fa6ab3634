// op 'audit' through dpcalc::api::compute: the worked examples, the claim check, and errors on the
// exact dotted field. Expected numbers:
//  * counts: tests/reference/audit_reference.py, section 2 (mpmath, 40 digits; the same values as
//    tests/core/audit/counts_audit_test.cpp);
//  * one run: JAX Privacy's auditing.py run from source (tests/core/audit/one_run_audit_test.cpp);
//  * what a claim allows at FPR_hi = 0.018313243055112452223, mpmath at 40 digits:
//    (3, 1e-5)-DP: min(1, e^3 FPR + δ, 1 − e^−3 (1 − δ − FPR)) = 0.36784131956677128800,
//    (4, 1e-5)-DP: 0.98201996301433376583 (Kairouz, Oh, Viswanath 2015, Thm 2.1);
//    3-GDP: Φ(Φ⁻¹(FPR) + 3) = 0.81861423972092044230, 4-GDP: 0.97193961737778067949 (Dong, Roth,
//    Su 2019, Def. 2.6).
#include <cmath>
#include <string>
#include <vector>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"

namespace {

using dpcalc::api::Value;

Value counts_evidence(double tp, double p, double fp, double n) {
  return object()
      .set("kind", "counts")
      .set("true_positives", tp)
      .set("positives", p)
      .set("false_positives", fp)
      .set("negatives", n);
}

Value audit_request(const Value& evidence) { return object().set("op", "audit").set("evidence", evidence); }

Value example() { return audit_request(counts_evidence(900, 1000, 10, 1000)); }

double audit_number(const Value& result, const char* key) {
  const Value* found = result.find(key);
  REQUIRE(found != nullptr);
  REQUIRE(found->is_number());
  return found->as_number();
}

double audit_item(const Value& result, const char* key, std::size_t index) {
  const Value* found = result.find(key);
  REQUIRE(found != nullptr);
  REQUIRE(found->is_array());
  return found->as_array().at(index).as_number();
}

bool audit_refutes(const Value& response) { return result_of(response).find("refutes")->as_bool(); }

}  // namespace

TEST_CASE("[api] audit: counts 900/1000 and 10/1000 at 95%: TPR ≥ 0.8797, FPR ≤ 0.01831, ε ≥ 3.872, μ ≥ 3.263") {
  const Value response = dpcalc::api::compute(example());
  const Value& result = result_of(response);
  check_upper_bound(audit_item(result, "fpr_interval", 1), 0.018313243055112452223, 1e-12);
  CHECK(audit_item(result, "fpr_interval", 0) == 0);
  CHECK_REL(audit_item(result, "tpr_interval", 0), 0.87971206348130736402, 1e-12);
  CHECK(audit_item(result, "tpr_interval", 0) <= 0.87971206348130736402);
  CHECK(audit_item(result, "tpr_interval", 1) == 1);
  CHECK_REL(audit_number(result, "epsilon_lower"), 3.8719701909985562732, 1e-12);
  CHECK(audit_number(result, "epsilon_lower") <= 3.8719701909985562732);
  CHECK_REL(audit_number(result, "mu_lower"), 3.2634519271581547907, 1e-12);
  CHECK(audit_number(result, "confidence") == 0.95);
  CHECK(audit_number(result, "delta") == 0);
  CHECK(result.find("kind")->as_string() == "counts");
  CHECK(result.find("sentence")->as_string() ==
        "with probability at least 95% over the experiment, the mechanism is not (ε, δ)-DP for any ε below 3.87");
  CHECK(result.find("citation")->as_string().find("Clopper") != std::string::npos);
  CHECK(result.find("refutes") == nullptr);
}

TEST_CASE("[api] audit: the claim (3, 1e-5)-DP is refuted, (4, 1e-5)-DP is not") {
  const Value refuted = dpcalc::api::compute(example().set("claim", approx(3, 1e-5)));
  const Value& result = result_of(refuted);
  CHECK(result.find("refutes")->as_bool());
  check_upper_bound(audit_number(result, "claim_allowed_tpr"), 0.36784131956677128800, 1e-12);
  check_upper_bound(audit_number(result, "claim_at_fpr"), 0.018313243055112452223, 1e-12);
  CHECK(result.find("claim_sentence")->as_string() ==
        "the claimed (3, 1e-5)-DP allows TPR ≤ 0.368 at FPR 0.0183; the attack reached at least 0.879 with 95% "
        "confidence: the claim is refuted");

  const Value consistent = dpcalc::api::compute(example().set("claim", approx(4, 1e-5)));
  CHECK_FALSE(audit_refutes(consistent));
  check_upper_bound(audit_number(result_of(consistent), "claim_allowed_tpr"), 0.98201996301433376583, 1e-12);
  CHECK(result_of(consistent).find("claim_sentence")->as_string().find("consistent with the attack") !=
        std::string::npos);

  // {guarantee} as op 'tradeoff' takes it: the same answer.
  const Value wrapped = dpcalc::api::compute(example().set("claim", object().set("guarantee", approx(3, 1e-5))));
  CHECK(audit_refutes(wrapped));
  CHECK(audit_number(result_of(wrapped), "claim_allowed_tpr") == audit_number(result, "claim_allowed_tpr"));
  // Without its type, {epsilon, delta} is an (ε, δ) claim.
  const Value untyped = dpcalc::api::compute(example().set("claim", object().set("epsilon", 3).set("delta", 1e-5)));
  CHECK(audit_number(result_of(untyped), "claim_allowed_tpr") == audit_number(result, "claim_allowed_tpr"));
  // ε-DP is (ε, 0)-DP: 3-DP is refuted as well (e^3 · 0.0183 = 0.368).
  CHECK(audit_refutes(dpcalc::api::compute(example().set("claim", pure(3)))));
}

TEST_CASE("[api] audit: μ-GDP claims, directly and as the trade-off of a Gaussian mechanism's request") {
  const Value gdp3 = dpcalc::api::compute(example().set("claim", object().set("type", "gdp").set("mu", 3)));
  CHECK(audit_refutes(gdp3));
  check_upper_bound(audit_number(result_of(gdp3), "claim_allowed_tpr"), 0.81861423972092044230, 1e-9);
  const Value gdp4 = dpcalc::api::compute(example().set("claim", object().set("type", "gdp").set("mu", 4)));
  CHECK_FALSE(audit_refutes(gdp4));
  check_upper_bound(audit_number(result_of(gdp4), "claim_allowed_tpr"), 0.97193961737778067949, 1e-9);

  // σ = 1/3 with sensitivity 1 is 3-GDP (Dong, Roth, Su 2019, Thm 2.7): op 'tradeoff''s curve.
  const Value mechanism = object().set("type", "gaussian").set("sigma", 1.0 / 3).set("sensitivity", 1);
  const Value request = object().set("op", "group").set("k", 1).set("delta", 1e-5).set("mechanism", mechanism);
  const Value through_request = dpcalc::api::compute(example().set("claim", request));
  CHECK(audit_refutes(through_request));
  CHECK_REL(audit_number(result_of(through_request), "claim_allowed_tpr"), 0.81861423972092044230, 1e-6);
  CHECK(audit_number(result_of(through_request), "claim_allowed_tpr") >= 0.81861423972092044230 * (1 - 1e-15));

  // A zCDP claim goes through op 'tradeoff''s curve of the guarantee: sound, so at least the exact
  // ρ = μ²/2 Gaussian's 0.8186 at μ = 3 (a μ-GDP mechanism is μ²/2-zCDP, Bun, Steinke 2016).
  const Value zcdp = dpcalc::api::compute(example().set("claim", object().set("type", "zcdp").set("rho", 4.5)));
  CHECK(audit_number(result_of(zcdp), "claim_allowed_tpr") >= 0.81861423972092044230);
}

TEST_CASE("[api] audit: one run, m = 1000, r = v = 100 (JAX Privacy's auditing.py): 3.4930 and 3.4654") {
  const Value evidence = object().set("kind", "one_run").set("canaries", 1000).set("guesses", 100).set("correct", 100);
  const Value at_zero = result_of(dpcalc::api::compute(audit_request(evidence)));
  CHECK(std::fabs(audit_number(at_zero, "epsilon_lower") - 3.492965346169885) < 1e-6);
  CHECK(at_zero.find("mu_lower") == nullptr);
  CHECK(at_zero.find("kind")->as_string() == "one_run");
  const Value at_delta = result_of(dpcalc::api::compute(audit_request(evidence).set("delta", 1e-5)));
  CHECK(std::fabs(audit_number(at_delta, "epsilon_lower") - 3.465376229385333) < 1e-6);

  // A claim is checked at its own δ: (3, 1e-5)-DP against 3.4654, (4, 1e-5)-DP not.
  const Value refuted = result_of(dpcalc::api::compute(audit_request(evidence).set("claim", approx(3, 1e-5))));
  CHECK(refuted.find("refutes")->as_bool());
  CHECK(std::fabs(audit_number(refuted, "claim_epsilon_lower") - 3.465376229385333) < 1e-6);
  CHECK(std::fabs(audit_number(refuted, "epsilon_lower") - 3.492965346169885) < 1e-6);
  CHECK_FALSE(audit_refutes(dpcalc::api::compute(audit_request(evidence).set("claim", approx(4, 1e-5)))));
  // Claims that state no ε at a δ are refused on the claim.
  check_error(dpcalc::api::compute(audit_request(evidence).set("claim", object().set("type", "gdp").set("mu", 1))),
              "claim");
}

TEST_CASE("[api] audit: scores, the best threshold with its counts, bounds simultaneous over thresholds") {
  // 100 members scored 1 … 100 and 100 non-members scored 0.5 … 99.5: nothing separates them well.
  std::vector<double> members, nonmembers;
  for (int i = 1; i <= 100; ++i) members.push_back(i), nonmembers.push_back(i - 0.5);
  // Perfectly separated: 1000 members at 1, 1000 non-members at 0. The best threshold flags all
  // members and no non-member; its counts are 1000/1000 and 0/1000.
  const Value separated = object()
                              .set("kind", "scores")
                              .set("member_scores", Value::numbers(std::vector<double>(1000, 1.0)))
                              .set("nonmember_scores", Value::numbers(std::vector<double>(1000, 0.0)));
  const Value result = result_of(dpcalc::api::compute(audit_request(separated)));
  CHECK(audit_number(result, "threshold") == 1);
  CHECK(audit_number(*result.find("counts"), "true_positives") == 1000);
  CHECK(audit_number(*result.find("counts"), "false_positives") == 0);
  CHECK(result.find("correction")->as_string() == "bonferroni");
  // a_m = a_n = 0.05 / (2 · 1000) (scores_audit.hpp (S1)): FPR_hi = 1 − 0.000025^(1/1000)
  // = 0.010597 (closed form upper(0), Clopper, Pearson 1934), TPR_lo = 0.000025^(1/1000) = 0.989403.
  CHECK_REL(audit_item(result, "fpr_interval", 1), -std::expm1(std::log(0.05 / 2000) / 1000), 1e-9);
  CHECK(audit_number(result, "epsilon_lower") > 4);
  // One corner of the ROC staircase: every member flagged and no non-member.
  CHECK(audit_number(result, "thresholds_tried") == 1);

  const Value weak = object()
                         .set("kind", "scores")
                         .set("member_scores", Value::numbers(members))
                         .set("nonmember_scores", Value::numbers(nonmembers));
  const Value weak_result = result_of(dpcalc::api::compute(audit_request(weak)));
  CHECK(audit_number(weak_result, "epsilon_lower") == 0);
  CHECK(weak_result.find("sentence")->as_string().find("does not show") != std::string::npos);

  // A claim is checked at the threshold that beats it by the most.
  const Value claimed = result_of(dpcalc::api::compute(audit_request(separated).set("claim", approx(1, 1e-5))));
  CHECK(claimed.find("refutes")->as_bool());
  CHECK(audit_number(claimed, "claim_threshold") == 1);
}

TEST_CASE("[api] audit: bad input names the exact field") {
  check_error(dpcalc::api::compute(audit_request(counts_evidence(900.5, 1000, 10, 1000))), "evidence.true_positives");
  check_error(dpcalc::api::compute(audit_request(counts_evidence(1001, 1000, 10, 1000))), "evidence.true_positives");
  check_error(dpcalc::api::compute(audit_request(counts_evidence(0, 1000, 1001, 1000))), "evidence.false_positives");
  check_error(dpcalc::api::compute(audit_request(counts_evidence(0, 0, 0, 1000))), "evidence.positives");
  check_error(dpcalc::api::compute(audit_request(counts_evidence(0, 10, 0, 0))), "evidence.negatives");
  check_error(dpcalc::api::compute(example().set("confidence", 1)), "confidence");
  check_error(dpcalc::api::compute(example().set("confidence", 0)), "confidence");
  check_error(dpcalc::api::compute(example().set("delta", 1)), "delta");
  const Value one_run = object().set("kind", "one_run").set("canaries", 10).set("guesses", 11).set("correct", 1);
  check_error(dpcalc::api::compute(audit_request(one_run)), "evidence.guesses");
  const Value too_correct = object().set("kind", "one_run").set("canaries", 10).set("guesses", 5).set("correct", 6);
  check_error(dpcalc::api::compute(audit_request(too_correct)), "evidence.correct");
  check_error(dpcalc::api::compute(audit_request(object().set("kind", "count"))), "evidence.kind");
  check_error(dpcalc::api::compute(audit_request(counts_evidence(1, 2, 1, 2).set("postives", 2))), "evidence.postives");
  check_error(dpcalc::api::compute(example().set("confidense", 0.9)), "confidense");
  const Value scores = object()
                           .set("kind", "scores")
                           .set("member_scores", Value::numbers({1, std::nan("")}))
                           .set("nonmember_scores", Value::numbers({0}));
  check_error(dpcalc::api::compute(audit_request(scores)), "evidence.member_scores.1");
  check_error(dpcalc::api::compute(example().set("claim", approx(3, 2))), "claim.delta");
  check_error(dpcalc::api::compute(example().set("claim", object().set("type", "gdp").set("mu", -1))), "claim.mu");
  check_error(dpcalc::api::compute(example().set("claim", object().set("type", "laplace"))), "claim.type");
  check_error(dpcalc::api::compute(example().set("claim", object().set("op", "split"))), "claim.op");
  check_error(dpcalc::api::compute(example().set("claim", object())), "claim");
  check_error(
      dpcalc::api::compute(example().set("claim", object().set("epsilon", 3).set("guarantee", approx(3, 1e-5)))),
      "claim.epsilon");
  check_error(dpcalc::api::compute(example().set("claim", object().set("mu", 1).set("rho", 1))), "claim.rho");
}
