// Randomized response (core/src/mechanisms/randomized_response.cpp) through every op that takes a
// mechanism. Exact references: tests/reference/discrete_mechanisms_reference.py (mpmath, 50 digits,
// trinomial sums of the composed loss); dp_accounting 0.6.0 run from source:
// tests/reference/dp_accounting_discrete.py (PLDAccountant, REPLACE_ONE, events composed one at a
// time, default discretisation). Among other items: tests/reference/lattice_copies_reference.py
// (mpmath, binomial sums against the Gaussian's closed-form hockey stick).
#include <doctest/doctest.h>

#include <cmath>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;

Value randomized_response(double p, double k) {
  return object().set("type", "randomized_response").set("noise_parameter", p).set("num_buckets", k);
}

dpcalc::mechanisms::MechanismPtr made(double p, double k) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"noise_parameter", p}, {"num_buckets", k}};
  return test_mechanisms::made(dpcalc::mechanisms::randomized_response_type(), arguments);
}

}  // namespace

TEST_CASE("[mechanisms] randomized response: pure ε = ln(1 + k(1 − p)/p), substitution only") {
  // mpmath: ln 3 = 1.0986122886681096914, ln 17 = 2.8332133440562160802.
  check_upper_bound(*made(0.5, 2)->pure_epsilon(), 1.0986122886681096914, 1e-15);
  check_upper_bound(*made(0.2, 4)->pure_epsilon(), 2.8332133440562160802, 1e-15);
  CHECK(*made(1, 7)->pure_epsilon() == 0);
  CHECK(made(0.5, 2)->supports(dpcalc::mechanisms::Relation::kSubstitute));
  CHECK_FALSE(made(0.5, 2)->supports(dpcalc::mechanisms::Relation::kAddRemove));
  // Refused under add/remove: on "relation" when the request asks for it, on the type by default.
  check_error(dpcalc::api::compute(compose("pld", randomized_response(0.5, 2), 3, 1e-5, "add_remove")), "relation");
  const Value refused = dpcalc::api::compute(compose("pld", randomized_response(0.5, 2), 3, 1e-5));
  check_error(refused, "items.0.mechanism.type");
  CHECK(refused.find("error")->find("message")->as_string().find("'substitute'") != std::string::npos);
  check_error(dpcalc::api::compute(compose("pld", randomized_response(0, 2), 3, 1e-5, "substitute")),
              "items.0.mechanism.noise_parameter");
  check_error(dpcalc::api::compute(compose("pld", randomized_response(0.5, 1), 3, 1e-5, "substitute")),
              "items.0.mechanism.num_buckets");
  check_error(dpcalc::api::compute(compose("pld", randomized_response(0.5, 2.5), 3, 1e-5, "substitute")),
              "items.0.mechanism.num_buckets");
}

TEST_CASE("[mechanisms] randomized response composed: exact trinomial references and dp_accounting") {
  // Exact (mpmath trinomial sums): 273.42007426646887, 28.332128361169453.
  const Bracket daily = pld_epsilon(randomized_response(0.5, 2), 365, 1e-5, "substitute");
  check_bracket(daily, 273.42007426646887);
  const Bracket small = pld_epsilon(randomized_response(0.2, 4), 10, 1e-6, "substitute");
  check_bracket(small, 28.332128361169453);
  // dp_accounting (its upper bound, events composed one at a time): 273.44771942480162,
  // 28.332994920606655: ours is as tight within the default accuracy.
  CHECK_REL(daily.upper, 273.44771942480162, 5e-3);
  CHECK_REL(small.upper, 28.332994920606655, 5e-3);
  // Closed forms from its pure ε: basic 365 ln 3 = 400.99348536386003736; zCDP ρ = 365 (ln 3)²/2 =
  // 220.26818534829621096 (Bun & Steinke 2016, Prop 1.4); optimal composition is exact for the
  // ε-DP randomized-response pair, which this is for k = 2 (p = 0.5): equal to the exact value.
  check_upper_bound(epsilon_by("basic", randomized_response(0.5, 2), 365, 0, "substitute"), 400.99348536386003736,
                    1e-13);
  const Value zcdp =
      result_of(dpcalc::api::compute(compose("zcdp", randomized_response(0.5, 2), 365, 1e-5, "substitute")));
  check_upper_bound(number_at(zcdp, "guarantee", "rho"), 220.26818534829621096, 1e-13);
  CHECK_REL(epsilon_by("optimal", randomized_response(0.5, 2), 365, 1e-5, "substitute"), 273.42007426646887, 1e-6);
}

TEST_CASE("[mechanisms] randomized response: monotone in its noise and in the count") {
  double previous = 1e300;
  for (double p : {0.1, 0.3, 0.5, 0.7, 0.9}) {
    const double epsilon = pld_epsilon(randomized_response(p, 3), 20, 1e-6, "substitute").upper;
    CHECK(epsilon < previous);
    previous = epsilon;
  }
  previous = 0;
  for (double count : {1.0, 5.0, 50.0, 500.0}) {
    const double epsilon = pld_epsilon(randomized_response(0.4, 3), count, 1e-6, "substitute").upper;
    CHECK(epsilon > previous);
    previous = epsilon;
  }
}

TEST_CASE("[mechanisms] randomized response of a group: k records each randomized") {
  // Group size 1 is the mechanism itself; a group of k is the k-fold product of its pair, so its
  // pure ε is k ε and its PLD at k = 10 brackets the exact 10-fold composition (28.332128361169453).
  const auto single = made(0.2, 4);
  const auto one = single->for_group(1);
  REQUIRE(one.ok());
  CHECK(*one.value()->pure_epsilon() == *single->pure_epsilon());
  const auto ten = single->for_group(10);
  REQUIRE(ten.ok());
  check_upper_bound(*ten.value()->pure_epsilon(), 28.332133440562160802, 1e-14);
  const std::vector<dpcalc::pld::CompositionItem> items{
      {ten.value()->pair(dpcalc::mechanisms::Relation::kSubstitute), 1}};
  const auto bracket = dpcalc::pld::epsilon_for_delta(items, 1e-6, dpcalc::pld::AccountingOptions{});
  REQUIRE(bracket.ok());
  check_bracket({bracket.value().epsilon_lower, bracket.value().epsilon_upper}, 28.332128361169453);
  // Through the group op: pure kε, monotone in k.
  double previous = 0;
  for (double k : {1.0, 2.0, 7.0, 5000.0}) {
    const Value request = object()
                              .set("op", "group")
                              .set("k", k)
                              .set("mechanism", randomized_response(0.2, 4))
                              .set("relation", "substitute");
    const double epsilon = number_at(result_of(dpcalc::api::compute(request)), "guarantee", "epsilon");
    CHECK(epsilon > previous);
    CHECK(epsilon >= k * 2.8332133440562160802);
    previous = epsilon;
  }
}

TEST_CASE("[mechanisms] randomized response: calibrated noise parameter meets the target") {
  const Value request = object()
                            .set("op", "calibrate")
                            .set("mechanism", object().set("type", "randomized_response").set("num_buckets", 2))
                            .set("unknown", "noise_parameter")
                            .set("count", 30)
                            .set("relation", "substitute")
                            .set("target", object().set("epsilon", 3).set("delta", 1e-6));
  const double p = number_at(result_of(dpcalc::api::compute(request)), "noise_parameter");
  CHECK(p > 0);
  CHECK(p < 1);
  const double recomposed = pld_epsilon(randomized_response(p, 2), 30, 1e-6, "substitute").upper;
  CHECK(recomposed <= 3);
  CHECK(recomposed >= 3 * (1 - 2e-3));
}

// tests/reference/rdp_discrete_reference.py: the Rényi divergence summed over the k reports in mpmath
// (40 digits), which dp_accounting 0.6.0's RDP accountant (REPLACE_ONE) matches to 1e-15.
TEST_CASE("[mechanisms] randomized response: its exact Rényi curve") {
  const double orders[] = {1.5, 2, 8, 64};
  const double binary[] = {0.73396917508020044, 0.84729786038720361, 1.0575148597023863, 1.0940459065657005};
  const double ten[] = {3.0168060615431652, 3.1874184472789885, 3.3975740259680876, 3.4299412957608797};
  for (int i = 0; i < 4; ++i) {
    check_upper_bound(*made(0.5, 2)->rdp_epsilon(orders[i]), binary[i], 1e-12);
    check_upper_bound(*made(0.25, 10)->rdp_epsilon(orders[i]), ten[i], 1e-12);
    // A group of 3 is 3 reports: Rényi divergences of products add up.
    check_upper_bound(*made(0.25, 10)->for_group(3).value()->rdp_epsilon(orders[i]), 3 * ten[i], 1e-12);
  }
  CHECK(*made(1, 5)->rdp_epsilon(2) == 0);  // every report random
  CHECK(*made(0.25, 10)->rdp_epsilon(1e6) <= *made(0.25, 10)->pure_epsilon());
}

TEST_CASE("[mechanisms] randomized response among other items: the bracket holds the exact value") {
  // 365 reports composed with a Gaussian and a discrete Laplace release: the grid step divides none of
  // their loss lattices, so the reports are composed on their own lattice and rounded down once.
  // Exact (lattice_copies_reference.py): 85.477498631752002.
  Value items = Value::array();
  items.push(object().set("mechanism", randomized_response(0.75, 2)).set("count", 365));
  items.push(object().set("mechanism", object().set("type", "gaussian").set("sigma", 2)).set("count", 1));
  items.push(object()
                 .set("mechanism", object().set("type", "discrete_laplace").set("scale", 3).set("sensitivity", 1))
                 .set("count", 1));
  const Value request = object()
                            .set("op", "compose")
                            .set("method", "pld")
                            .set("delta", 1e-5)
                            .set("relation", "substitute")
                            .set("items", items);
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  const Bracket bracket{number_at(result, "epsilon_lower"), number_at(result, "epsilon_upper")};
  check_bracket(bracket, 85.477498631752002);
  // Within the default accuracy's width (4 relative_accuracy epsilon_upper, relative_accuracy 5e-4).
  CHECK(bracket.upper - bracket.lower <= 2e-3 * bracket.upper);
}

TEST_CASE("[mechanisms] randomized response with p = 1 reveals nothing: ε = 0 at any count") {
  // Every report uniformly random: the output has the same law on neighbouring inputs, so any
  // composition is 0-DP (Dwork & Roth 2014, Def. 2.4); 2^53 of them once met the engine's FFT
  // error floor ("delta must be larger than 54861201682.6").
  const double count = 9007199254740992.0;
  const Value by_delta = dpcalc::api::compute(compose("pld", randomized_response(1, 2), count, 1e-5, "substitute"));
  const Value& result = result_of(by_delta);
  CHECK(number_at(result, "guarantee", "epsilon") == 0);
  CHECK(number_at(result, "epsilon_upper") == 0);
  CHECK(number_at(result, "epsilon_lower") == 0);
  // With another item it adds nothing: Laplace(1) twice is exactly the same.
  Value items = mechanism_requests::items(randomized_response(1, 4), count);
  items.push(object().set("mechanism", object().set("type", "laplace").set("scale", 1)).set("count", 2));
  const auto with_laplace = [&](const Value& list) {
    const Value request = object()
                              .set("op", "compose")
                              .set("method", "pld")
                              .set("relation", "substitute")
                              .set("delta", 1e-6)
                              .set("items", list);
    const Value response = dpcalc::api::compute(request);
    return number_at(result_of(response), "epsilon_upper");
  };
  CHECK(with_laplace(items) ==
        with_laplace(mechanism_requests::items(object().set("type", "laplace").set("scale", 1), 2)));
  // δ at ε: 0.
  Value at_epsilon = compose("pld", randomized_response(1, 2), count, 1e-5, "substitute");
  at_epsilon.set("delta", Value()).set("epsilon", 0.5);
  const Value by_epsilon = dpcalc::api::compute(at_epsilon);
  CHECK(number_at(result_of(by_epsilon), "delta_upper") == 0);
}
