// The discrete Laplace mechanism (core/src/mechanisms/discrete_laplace.cpp) through every op that
// takes a mechanism. Exact references: tests/reference/discrete_mechanisms_reference.py (mpmath, 50
// digits, exact convolution of the lattice loss); dp_accounting 0.6.0 run from source:
// tests/reference/dp_accounting_discrete.py (PLDAccountant, ADD_OR_REMOVE_ONE, noise_parameter 1/b).
#include <doctest/doctest.h>

#include <cmath>
#include <variant>

#include "approx.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;
using dpcalc::mechanisms::Relation;

Value discrete_laplace(double scale, double sensitivity = 1) {
  return object().set("type", "discrete_laplace").set("scale", scale).set("sensitivity", sensitivity);
}

dpcalc::mechanisms::MechanismPtr made(double scale, double sensitivity = 1) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"scale", scale}, {"sensitivity", sensitivity}};
  return test_mechanisms::made(dpcalc::mechanisms::discrete_laplace_type(), arguments);
}

dpcalc::pld::FinitePair finite_pair(const dpcalc::mechanisms::Mechanism& mechanism, Relation relation) {
  const auto pair = mechanism.pair(relation);
  REQUIRE(std::holds_alternative<dpcalc::pld::FinitePair>(pair.base));
  return std::get<dpcalc::pld::FinitePair>(pair.base);
}

}  // namespace

TEST_CASE("[mechanisms] discrete Laplace: its exact pair on the lattice, pure ε = Δ/b") {
  // Δ = 2, b = 1, r = e^{-1} (mpmath): P = (r²/(1+r), tanh(1/2) r, 1/(1+r)) =
  // (0.098938019801447200847, 0.17000340156854791990, 0.73105857863000487925), Q reversed.
  const dpcalc::pld::FinitePair pair = finite_pair(*made(1, 2), Relation::kAddRemove);
  REQUIRE(pair.p.size() == 3);
  CHECK_REL(pair.p[0], 0.098938019801447200847, 1e-14);
  CHECK_REL(pair.p[1], 0.17000340156854791990, 1e-14);
  CHECK_REL(pair.p[2], 0.73105857863000487925, 1e-14);
  for (int i = 0; i < 3; ++i) CHECK_REL(pair.q[i], pair.p[2 - i], 1e-15);
  CHECK(*made(2, 3)->pure_epsilon() == 1.5);
  CHECK(made(2, 3)->supports(Relation::kSubstitute));
  check_error(dpcalc::api::compute(compose("pld", discrete_laplace(1, 1.5), 3, 1e-5)), "items.0.mechanism.sensitivity");
  // Scale 0 adds no noise: no guarantee, not an error (trivial_events_test.cpp); below 0 it is one.
  check_error(dpcalc::api::compute(compose("pld", discrete_laplace(-1, 1), 3, 1e-5)), "items.0.mechanism.scale");
}

TEST_CASE("[mechanisms] discrete Laplace composed: exact lattice convolution and dp_accounting") {
  // Exact (mpmath): 9.9999770658214402, 29.859411024115616, 9.7482537040141324.
  // dp_accounting: 9.9999770658207545, 29.859411024130328, 9.7482537041718729.
  const Bracket a = pld_epsilon(discrete_laplace(1, 1), 10, 1e-6);
  const Bracket b = pld_epsilon(discrete_laplace(2, 3), 20, 1e-5);
  const Bracket c = pld_epsilon(discrete_laplace(5, 1), 100, 1e-5);
  check_bracket(a, 9.9999770658214402);
  check_bracket(b, 29.859411024115616);
  check_bracket(c, 9.7482537040141324);
  CHECK_REL(a.upper, 9.9999770658207545, 5e-3);
  CHECK_REL(b.upper, 29.859411024130328, 5e-3);
  CHECK_REL(c.upper, 9.7482537041718729, 5e-3);
  // Basic: 100 · 1/5 = 20; zCDP ρ = 100 (1/5)²/2 = 2 (Bun & Steinke 2016, Prop 1.4).
  check_upper_bound(epsilon_by("basic", discrete_laplace(5, 1), 100, 0), 20, 1e-14);
  const Value zcdp = result_of(dpcalc::api::compute(compose("zcdp", discrete_laplace(5, 1), 100, 1e-5)));
  check_upper_bound(number_at(zcdp, "guarantee", "rho"), 2, 1e-14);
  // Substitution with Δ the sensitivity for it: the same pair, never below add/remove.
  CHECK(pld_epsilon(discrete_laplace(5, 1), 100, 1e-5, "substitute").upper >= c.upper);
}

TEST_CASE("[mechanisms] discrete Laplace composed: exact on its own lattice, at any accuracy asked") {
  // b = 1, delta = 1e-5: exact eps 79.841322364969528 (100 uses) and 4995.7000369965099 (10^4 uses),
  // tests/reference/discrete_mechanisms_reference.py (binomial law, mpmath, to 1e-13). The losses are
  // +-1: on the grid of step 1 both discretisations are exact, and only the truncated tails and the
  // FFT's rounding separate the bounds. A finer step only added rounding: at relative_accuracy 3e-6
  // the 10^4 uses once took a step of 1/296 (434,637 points) and a bracket 8.3e-6 of eps wide.
  const struct { double count, exact; } rows[] = {{100, 79.841322364969528}, {10000, 4995.7000369965099}};
  for (const auto& row : rows) {
    for (const double accuracy : {1e-3, 3e-6}) {
      CAPTURE(row.count);
      CAPTURE(accuracy);
      Value request = compose("pld", discrete_laplace(1, 1), row.count, 1e-5);
      request.set("discretization", object().set("relative_accuracy", accuracy));
      const Value result = result_of(dpcalc::api::compute(request));
      const double lower = number_at(result, "epsilon_lower"), upper = number_at(result, "epsilon_upper");
      CHECK(lower <= row.exact * (1 + 1e-12));
      CHECK(upper >= row.exact * (1 - 1e-12));
      CHECK(upper - lower <= 1e-7 * upper);
      CHECK(number_at(result, "discretization") == 1);
    }
  }
}

TEST_CASE("[mechanisms] discrete Laplace: monotone in its noise, the count and the group") {
  double previous = 1e300;
  for (double scale : {0.5, 1.0, 2.0, 4.0}) {
    const double epsilon = pld_epsilon(discrete_laplace(scale, 2), 10, 1e-6).upper;
    CHECK(epsilon < previous);
    previous = epsilon;
  }
  previous = 0;
  for (double count : {1.0, 10.0, 100.0}) {
    const double epsilon = pld_epsilon(discrete_laplace(3, 1), count, 1e-6).upper;
    CHECK(epsilon > previous);
    previous = epsilon;
  }
  // Group of k: the mechanism at kΔ (the pair itself), size 1 the mechanism.
  const auto mechanism = made(2, 3);
  CHECK(finite_pair(*mechanism->for_group(1).value(), Relation::kAddRemove).p ==
        finite_pair(*mechanism, Relation::kAddRemove).p);
  const auto grouped = mechanism->for_group(4);
  REQUIRE(grouped.ok());
  CHECK(finite_pair(*grouped.value(), Relation::kAddRemove).p == finite_pair(*made(2, 12), Relation::kAddRemove).p);
  previous = 0;
  for (double k : {1.0, 2.0, 5.0}) {
    const Value request = object().set("op", "group").set("k", k).set("mechanism", discrete_laplace(2, 3));
    const double epsilon = number_at(result_of(dpcalc::api::compute(request)), "guarantee", "epsilon");
    CHECK(epsilon == 1.5 * k);
    CHECK(epsilon > previous);
    previous = epsilon;
  }
}

TEST_CASE("[mechanisms] discrete Laplace: calibrated scale meets the target") {
  const Value request = object()
                            .set("op", "calibrate")
                            .set("mechanism", object().set("type", "discrete_laplace").set("sensitivity", 2))
                            .set("unknown", "scale")
                            .set("count", 20)
                            .set("method", "pld")
                            .set("target", object().set("epsilon", 2).set("delta", 1e-6));
  const double scale = number_at(result_of(dpcalc::api::compute(request)), "scale");
  const double recomposed = pld_epsilon(discrete_laplace(scale, 2), 20, 1e-6).upper;
  CHECK(recomposed <= 2);
  CHECK(recomposed >= 2 * (1 - 2e-3));
}

// tests/reference/rdp_discrete_reference.py: the Rényi divergence summed over the integers |x| ≤ 4000
// in mpmath (40 digits); dp_accounting 0.6.0 has no curve for it. With Δ = 1 it is the ε-DP
// randomized-response pair at ε = 1/b (the loss is ±1/b only).
TEST_CASE("[mechanisms] discrete Laplace: its exact Rényi curve") {
  const double orders[] = {1.5, 2, 8, 64};
  const double unit[] = {0.17836940667623231, 0.22733629380264573, 0.43235370675646487, 0.49247496850507767};
  const double three[] = {1.5029444459826669, 1.6600345974825449, 1.9408074292479346, 1.9934226970340941};
  for (int i = 0; i < 4; ++i) {
    check_upper_bound(*made(2, 1)->rdp_epsilon(orders[i]), unit[i], 1e-12);
    check_upper_bound(*made(1.5, 3)->rdp_epsilon(orders[i]), three[i], 1e-12);
  }
  CHECK(*made(1.5, 3)->rdp_epsilon(1e6) <= 2);  // never above Δ/b
  // Monotone in the order and in the noise.
  CHECK(*made(1.5, 3)->rdp_epsilon(3) < *made(1.5, 3)->rdp_epsilon(4));
  CHECK(*made(2, 3)->rdp_epsilon(3) < *made(1.5, 3)->rdp_epsilon(3));
}
