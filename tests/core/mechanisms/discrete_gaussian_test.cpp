// The discrete Gaussian mechanism (core/src/mechanisms/discrete_gaussian.cpp) through every op that
// takes a mechanism. Exact references: tests/reference/discrete_mechanisms_reference.py (mpmath, 50
// digits, exact convolution of the lattice loss over |x − Δ| ≤ 40σ); its zCDP bound Δ²/(2σ²) is
// Canonne, Kamath, Steinke 2020, Thm 4 (dp_accounting has only this zCDP route, no PLD).
#include <doctest/doctest.h>

#include <cmath>
#include <numeric>
#include <variant>

#include "approx.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;
using dpcalc::mechanisms::Relation;

Value discrete_gaussian(double sigma, double sensitivity = 1) {
  return object().set("type", "discrete_gaussian").set("sigma", sigma).set("sensitivity", sensitivity);
}

dpcalc::mechanisms::MechanismPtr made(double sigma, double sensitivity = 1) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"sigma", sigma}, {"sensitivity", sensitivity}};
  return test_mechanisms::made(dpcalc::mechanisms::discrete_gaussian_type(), arguments);
}

dpcalc::pld::FinitePair finite_pair(const dpcalc::mechanisms::Mechanism& mechanism) {
  const auto pair = mechanism.pair(Relation::kAddRemove);
  REQUIRE(std::holds_alternative<dpcalc::pld::FinitePair>(pair.base));
  return std::get<dpcalc::pld::FinitePair>(pair.base);
}

}  // namespace

TEST_CASE("[mechanisms] discrete Gaussian: the truncated lattice pair, its cut mass at ±∞ loss") {
  const dpcalc::pld::FinitePair pair = finite_pair(*made(5, 1));
  // x in [−T, Δ + T], T = ⌈5 · 30.349⌉ + 1 = 153, then the two cut outcomes.
  REQUIRE(pair.p.size() == 153 + 1 + 153 + 1 + 2);
  CHECK_REL(std::accumulate(pair.p.begin(), pair.p.end(), 0.0), 1, 1e-13);
  CHECK_REL(std::accumulate(pair.q.begin(), pair.q.end(), 0.0), 1, 1e-13);
  // The cut mass: 2 (σ²/T) e^{−T²/(2σ²)} / Z with Z = Σ e^{−x²/50} = 12.533141373155002512 (mpmath):
  // 1.2253e-205 (mpmath), positive and below 1e-200.
  CHECK(pair.p[pair.p.size() - 2] > 0);
  CHECK(pair.p[pair.p.size() - 2] < 1e-200);
  CHECK(pair.q[pair.q.size() - 2] == 0);
  CHECK(pair.p.back() == 0);
  // P(x = 1) = 1/Z: the mode of N_Z(1, 25) (mpmath: 1/12.533141373155002512 = 0.079788456080286535588).
  CHECK_REL(pair.p[153 + 1], 0.079788456080286535588, 1e-14);
  CHECK_REL(pair.q[153], 0.079788456080286535588, 1e-14);
  CHECK_FALSE(made(5, 1)->pure_epsilon());
  CHECK_FALSE(made(5, 1)->gaussian());
  // zCDP Δ²/(2σ²) and its Rényi curve α Δ²/(2σ²) (Canonne, Kamath, Steinke 2020, Thm 4).
  check_upper_bound(made(5, 1)->zcdp()->rho, 0.02, 1e-15);
  check_upper_bound(*made(3, 2)->rdp_epsilon(4), 0.88888888888888888889, 1e-15);  // 4 · 4/18
  check_error(dpcalc::api::compute(compose("pld", discrete_gaussian(1, 0.5), 3, 1e-5)),
              "items.0.mechanism.sensitivity");
  check_error(dpcalc::api::compute(compose("pld", discrete_gaussian(1e6, 1), 3, 1e-5)), "items.0.mechanism.sigma");
}

TEST_CASE("[mechanisms] discrete Gaussian composed: exact lattice convolution inside the bracket") {
  // Exact (mpmath): 2.8755878488020699 (12 monthly tables at σ = 5), 4.9005855333607542, 7.8013874801122256.
  const Bracket year = pld_epsilon(discrete_gaussian(5, 1), 12, 1e-5);
  check_bracket(year, 2.8755878488020699);
  check_bracket(pld_epsilon(discrete_gaussian(2, 1), 4, 1e-6), 4.9005855333607542);
  check_bracket(pld_epsilon(discrete_gaussian(3, 2), 6, 1e-5), 7.8013874801122256);
  // zCDP: ρ = 12/50 = 0.24 (Canonne, Kamath, Steinke 2020, Thm 4; Bun & Steinke 2016, Lemma 2.3),
  // and the exact PLD is below its (ε, δ) conversion.
  const Value zcdp = result_of(dpcalc::api::compute(compose("zcdp", discrete_gaussian(5, 1), 12, 1e-5)));
  check_upper_bound(number_at(zcdp, "guarantee", "rho"), 0.24, 1e-14);
  CHECK(year.upper < number_at(zcdp, "approx", "epsilon"));
  // RDP: α·0.24, converted; never below the exact value.
  CHECK(epsilon_by("rdp", discrete_gaussian(5, 1), 12, 1e-5) >= 2.8755878488020699);
  // Substitution (Δ the sensitivity for it): the same pair, never below add/remove.
  CHECK(pld_epsilon(discrete_gaussian(5, 1), 12, 1e-5, "substitute").upper >= year.upper);
  // A release of the databases op: 12 queries of one database compose the same way.
  Value databases = Value::array();
  databases.push(object().set("mechanism", discrete_gaussian(5, 1)).set("queries", 12));
  const Value release = result_of(dpcalc::api::compute(
      object().set("op", "databases").set("method", "pld").set("delta", 1e-5).set("databases", databases)));
  check_upper_bound(number_at(release, "guarantee", "epsilon"), 2.8755878488020699, 5e-3);
}

TEST_CASE("[mechanisms] discrete Gaussian: monotone in σ, count and group size; group at kΔ") {
  double previous = 1e300;
  for (double sigma : {1.0, 2.0, 4.0, 8.0}) {
    const double epsilon = pld_epsilon(discrete_gaussian(sigma, 1), 4, 1e-6).upper;
    CHECK(epsilon < previous);
    previous = epsilon;
  }
  previous = 0;
  for (double count : {1.0, 4.0, 16.0}) {
    const double epsilon = pld_epsilon(discrete_gaussian(3, 1), count, 1e-6).upper;
    CHECK(epsilon > previous);
    previous = epsilon;
  }
  const auto mechanism = made(4, 1);
  CHECK(finite_pair(*mechanism->for_group(1).value()).p == finite_pair(*mechanism).p);
  CHECK(finite_pair(*mechanism->for_group(3).value()).p == finite_pair(*made(4, 3)).p);
  // The group op: ρ = (kΔ)²/(2σ²) converted at δ (Canonne, Kamath, Steinke 2020, Cor 13); k = 1
  // equals composing the mechanism once by zCDP.
  const auto group_epsilon = [](double k) {
    const Value request =
        object().set("op", "group").set("k", k).set("delta", 1e-5).set("mechanism", discrete_gaussian(4, 1));
    return number_at(result_of(dpcalc::api::compute(request)), "guarantee", "epsilon");
  };
  const Value once = result_of(dpcalc::api::compute(compose("zcdp", discrete_gaussian(4, 1), 1, 1e-5)));
  CHECK(group_epsilon(1) == number_at(once, "approx", "epsilon"));
  CHECK(group_epsilon(2) > group_epsilon(1));
  CHECK(group_epsilon(5) > group_epsilon(2));
}

TEST_CASE("[mechanisms] discrete Gaussian: calibrated σ meets the target") {
  const Value request = object()
                            .set("op", "calibrate")
                            .set("mechanism", object().set("type", "discrete_gaussian"))
                            .set("unknown", "sigma")
                            .set("count", 12)
                            .set("target", object().set("epsilon", 3).set("delta", 1e-5));
  const double sigma = number_at(result_of(dpcalc::api::compute(request)), "sigma");
  const double recomposed = pld_epsilon(discrete_gaussian(sigma, 1), 12, 1e-5).upper;
  CHECK(recomposed <= 3);
  CHECK(recomposed >= 3 * (1 - 2e-3));
  CHECK(sigma > 4);  // 12 tables at σ = 5 give ε ≈ 2.876 < 3
  CHECK(sigma < 5);
}
