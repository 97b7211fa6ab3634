// Permute-and-flip (core/src/mechanisms/permute_and_flip.cpp): ε-DP (McKenna & Sheldon 2020, Thm 1),
// accounted through the ε-DP randomized-response pair (Kairouz, Oh, Viswanath 2015, Thm 2.1).
// References: tests/reference/discrete_mechanisms_reference.py (mpmath, 50 digits): the exact
// composition of that pair (binomial sums), and the exact two-candidate instance of permute-and-flip
// (a lower bound on any sound answer); dp_accounting 0.6.0 from source,
// tests/reference/dp_accounting_discrete.py (PLDAccountant, its Laplace pair of parameter 1/ε).
#include <doctest/doctest.h>

#include "approx.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;

Value permute_and_flip(double epsilon) { return object().set("type", "permute_and_flip").set("epsilon", epsilon); }

dpcalc::mechanisms::MechanismPtr made(double epsilon) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"epsilon", epsilon}};
  return test_mechanisms::made(dpcalc::mechanisms::permute_and_flip_type(), arguments);
}

}  // namespace

TEST_CASE("[mechanisms] permute-and-flip composed: between its two-candidate instance and dp_accounting's bound") {
  // 20 selections at ε = 0.5, δ = 1e-5: ε-DP pair exactly 9.8594110241156159; the two-candidate
  // instance 8.5036717999964822 (lower bound); dp_accounting (Laplace pair) 9.1055436682584858.
  const Bracket twenty = pld_epsilon(permute_and_flip(0.5), 20, 1e-5);
  check_bracket(twenty, 9.8594110241156159);
  CHECK(twenty.upper >= 8.5036717999964822);
  CHECK(twenty.upper >= 9.1055436682584858);
  // 5 at ε = 1, δ = 1e-6: 4.9999952110520098 exactly; two candidates 4.9999679994880353;
  // dp_accounting 4.9999680034878482.
  const Bracket five = pld_epsilon(permute_and_flip(1), 5, 1e-6);
  check_bracket(five, 4.9999952110520098);
  CHECK(five.upper >= 4.9999680034878482);
  // Closed forms from its pure ε: basic 20 · 0.5 = 10; optimal composition is exact for this pair.
  CHECK(epsilon_by("basic", permute_and_flip(0.5), 20, 0) == 10);
  CHECK_REL(epsilon_by("optimal", permute_and_flip(0.5), 20, 1e-5), 9.8594110241156159, 1e-6);
  // Substitution (score sensitivity for it): the same pair.
  CHECK(pld_epsilon(permute_and_flip(0.5), 20, 1e-5, "substitute").upper >= twenty.upper);
}

TEST_CASE("[mechanisms] permute-and-flip: monotone in ε, count and group size; group of 1 is itself") {
  double previous = 0;
  for (double epsilon : {0.1, 0.3, 1.0, 2.0}) {
    const double composed = pld_epsilon(permute_and_flip(epsilon), 10, 1e-6).upper;
    CHECK(composed > previous);
    previous = composed;
  }
  previous = 0;
  for (double count : {1.0, 10.0, 100.0}) {
    const double composed = pld_epsilon(permute_and_flip(0.2), count, 1e-6).upper;
    CHECK(composed > previous);
    previous = composed;
  }
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"epsilon", 0.3}};
  const auto mechanism = test_mechanisms::made(dpcalc::mechanisms::permute_and_flip_type(), arguments);
  CHECK(*mechanism->for_group(1).value()->pure_epsilon() == 0.3);
  // k records move every score by at most kΔu: permute-and-flip at kε (upper bound 3 · 0.3 rounded up).
  check_upper_bound(*mechanism->for_group(3).value()->pure_epsilon(), 0.9, 1e-15);
  const Value request = object().set("op", "group").set("k", 4).set("mechanism", permute_and_flip(0.25));
  CHECK(number_at(result_of(dpcalc::api::compute(request)), "guarantee", "epsilon") == 1);
  check_error(dpcalc::api::compute(compose("pld", permute_and_flip(0), 3, 1e-5)), "items.0.mechanism.epsilon");
}

// tests/reference/rdp_discrete_reference.py: the Rényi divergence of the ε-DP randomized-response pair
// in mpmath (40 digits), the curve of the pair the calculator uses; dp_accounting 0.6.0's Laplace
// curve is lower (0.155978 … 0.489122 at ε = 0.5, same script).
TEST_CASE("[mechanisms] permute-and-flip: the Rényi curve of the ε-DP pair") {
  const double orders[] = {1.5, 2, 8, 64};
  const double half[] = {0.17836940667623231, 0.22733629380264573, 0.43235370675646487, 0.49247496850507767};
  const double two[] = {1.7824438337496745, 1.875547674094758, 1.9818674269938744, 1.9979852696659846};
  for (int i = 0; i < 4; ++i) {
    check_upper_bound(*made(0.5)->rdp_epsilon(orders[i]), half[i], 1e-12);
    check_upper_bound(*made(2)->rdp_epsilon(orders[i]), two[i], 1e-12);
  }
  CHECK(*made(2)->rdp_epsilon(1e6) <= 2);
}
