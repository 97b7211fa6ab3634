// Tree aggregation (DP-FTRL, core/src/mechanisms/tree_aggregation.cpp): one epoch is exactly a
// Gaussian mechanism of μ = √⌈log₂(steps + 1)⌉ / noise_multiplier. References:
// tests/reference/discrete_mechanisms_reference.py (the analytic Gaussian at that μ, Balle & Wang
// 2018, Thm 8, mpmath); dp_accounting 0.6.0 from source, tests/reference/dp_accounting_discrete.py
// (RdpAccountant, SingleEpochTreeAggregationDpEvent composed count times): ours must be below it.
#include <doctest/doctest.h>

#include <cmath>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;

Value tree(double noise_multiplier, double steps, double sensitivity = 1) {
  return object()
      .set("type", "tree_aggregation")
      .set("noise_multiplier", noise_multiplier)
      .set("steps", steps)
      .set("sensitivity", sensitivity);
}

dpcalc::mechanisms::MechanismPtr made(double noise_multiplier, double steps, double sensitivity = 1) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"noise_multiplier", noise_multiplier}, {"steps", steps}, {"sensitivity", sensitivity}};
  return test_mechanisms::made(dpcalc::mechanisms::tree_aggregation_type(), arguments);
}

}  // namespace

TEST_CASE("[mechanisms] tree aggregation is a Gaussian of μ = √⌈log₂(steps + 1)⌉ / noise_multiplier") {
  // ⌈log₂ 1001⌉ = 10, ⌈log₂ 2⌉ = 1, ⌈log₂ 8⌉ = 3, ⌈log₂ 9⌉ = 4.
  const auto noise = made(2, 1000, 3)->gaussian();
  REQUIRE(noise);
  CHECK(noise->sigma == 6);
  check_upper_bound(noise->sensitivity, 3 * std::sqrt(10.0), 1e-15);
  check_upper_bound(made(1, 1)->gaussian()->sensitivity, 1, 1e-15);
  check_upper_bound(made(1, 7)->gaussian()->sensitivity, std::sqrt(3.0), 1e-15);
  check_upper_bound(made(1, 8)->gaussian()->sensitivity, 2, 1e-15);
  // ⌈log₂(2^53 + 1)⌉ = 54 (2^53 + 1 is not a double: the depth must not be read from steps + 1),
  // ⌈log₂ 2^53⌉ = 53 at 2^53 - 1.
  check_upper_bound(made(1, 9007199254740992.0)->gaussian()->sensitivity, std::sqrt(54.0), 1e-15);
  check_upper_bound(made(1, 9007199254740991.0)->gaussian()->sensitivity, std::sqrt(53.0), 1e-15);
  CHECK_FALSE(made(1, 8)->supports(dpcalc::mechanisms::Relation::kSubstitute));
  check_error(dpcalc::api::compute(compose("pld", tree(1, 10), 1, 1e-5, "substitute")), "relation");
  check_error(dpcalc::api::compute(compose("pld", tree(1, 0.5), 1, 1e-5)), "items.0.mechanism.steps");
  check_error(dpcalc::api::compute(compose("pld", tree(0, 10), 1, 1e-5)), "items.0.mechanism.noise_multiplier");
}

TEST_CASE("[mechanisms] tree aggregation composed: the analytic Gaussian, below dp_accounting's RDP") {
  // Exact (analytic Gaussian at μ): 17.856586830107631 (μ = √10), 17.841987543901269 (μ = √35/2),
  // 0.72552175085780135 (μ = 0.2). dp_accounting RDP: 19.053597531631389, 18.892381645671882,
  // 0.79452203253710296.
  const Bracket a = pld_epsilon(tree(1, 1000), 1, 1e-5);
  const Bracket b = pld_epsilon(tree(2, 100), 5, 1e-6);
  const Bracket c = pld_epsilon(tree(5, 1), 1, 1e-5);
  check_bracket(a, 17.856586830107631);
  check_bracket(b, 17.841987543901269);
  check_bracket(c, 0.72552175085780135);
  // steps = 2^53: ⌈log₂(2^53 + 1)⌉ = 54 levels, μ = √54: 57.553609760813288 (53 levels gave 56.76).
  check_bracket(pld_epsilon(tree(1, 9007199254740992.0), 1, 1e-5), 57.553609760813288);
  CHECK(a.upper < 19.053597531631389);
  CHECK(b.upper < 18.892381645671882);
  CHECK(c.upper < 0.79452203253710296);
  // Our own RDP route is theirs: α μ²/2 per epoch, converted (Balle et al. 2020, Thm 21) — at most
  // as large as their conversion, never below the exact value.
  const double rdp = epsilon_by("rdp", tree(2, 100), 5, 1e-6);
  CHECK(rdp <= 18.892381645671882 * (1 + 1e-6));
  CHECK(rdp >= 17.841987543901269);
  // zCDP: ρ = count μ²/2 = 5 · 7/8 = 4.375 (Bun & Steinke 2016, Prop 1.6).
  const Value zcdp = result_of(dpcalc::api::compute(compose("zcdp", tree(2, 100), 5, 1e-6)));
  check_upper_bound(number_at(zcdp, "guarantee", "rho"), 4.375, 1e-14);
}

TEST_CASE("[mechanisms] tree aggregation: monotone in noise, steps, epochs and group size") {
  double previous = 1e300;
  for (double multiplier : {0.5, 1.0, 2.0, 4.0}) {
    const double epsilon = pld_epsilon(tree(multiplier, 100), 3, 1e-6).upper;
    CHECK(epsilon < previous);
    previous = epsilon;
  }
  previous = 0;
  for (double steps : {1.0, 3.0, 100.0, 1e6}) {
    const double epsilon = pld_epsilon(tree(1, steps), 1, 1e-6).upper;
    CHECK(epsilon > previous);
    previous = epsilon;
  }
  // A group of k: σ unchanged, sensitivity kΔ; size 1 is the mechanism.
  const auto mechanism = made(2, 100, 1.5);
  const auto one = mechanism->for_group(1).value()->gaussian();
  CHECK(one->sigma == mechanism->gaussian()->sigma);
  CHECK(one->sensitivity == mechanism->gaussian()->sensitivity);
  const auto four = mechanism->for_group(4).value()->gaussian();
  CHECK(four->sigma <= 3);
  CHECK_REL(four->sigma, 3, 1e-15);
  check_upper_bound(four->sensitivity, 6 * std::sqrt(7.0), 1e-14);
  previous = 0;
  for (double k : {1.0, 2.0, 3.0}) {
    const Value request = object().set("op", "group").set("k", k).set("delta", 1e-6).set("mechanism", tree(4, 100));
    const double epsilon = number_at(result_of(dpcalc::api::compute(request)), "guarantee", "epsilon");
    CHECK(epsilon > previous);
    previous = epsilon;
  }
}

TEST_CASE("[mechanisms] tree aggregation: calibrated noise multiplier meets the target") {
  const Value request = object()
                            .set("op", "calibrate")
                            .set("mechanism", object().set("type", "tree_aggregation").set("steps", 1000))
                            .set("unknown", "noise_multiplier")
                            .set("count", 10)
                            .set("target", object().set("epsilon", 2).set("delta", 1e-5));
  // The exact (analytic) route: 10 epochs of μ = √10/m compose to μ = 10/m.
  const double multiplier = number_at(result_of(dpcalc::api::compute(request)), "noise_multiplier");
  const double recomposed = dpcalc::gaussian_epsilon_for_delta(10 / multiplier, 1e-5);
  CHECK(recomposed <= 2);
  CHECK(recomposed >= 2 * (1 - 1e-8));
  CHECK(pld_epsilon(tree(multiplier, 1000), 10, 1e-5).lower <= 2);
}
