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
  // x in [−T, Δ + T], T = ⌈5 · 13.5723⌉ + 1 = 69, then the two cut outcomes.
  REQUIRE(pair.p.size() == 69 + 1 + 69 + 1 + 2);
  CHECK_REL(std::accumulate(pair.p.begin(), pair.p.end(), 0.0), 1, 1e-13);
  CHECK_REL(std::accumulate(pair.q.begin(), pair.q.end(), 0.0), 1, 1e-13);
  // The cut mass: 2 (σ²/T) e^{−T²/(2σ²)} / Z with Z = Σ e^{−x²/50} = 12.533141373155002512 (mpmath):
  // 2 (25/69) e^{−69²/50} / Z = 2.5617716090630784e-43 (mpmath), below 1e-40.
  CHECK_REL(pair.p[pair.p.size() - 2], 2.5617716090630784e-43, 1e-12);
  CHECK(pair.q[pair.q.size() - 2] == 0);
  CHECK(pair.p.back() == 0);
  // P(x = 1) = 1/Z: the mode of N_Z(1, 25) (mpmath: 1/12.533141373155002512 = 0.079788456080286535588).
  CHECK_REL(pair.p[69 + 1], 0.079788456080286535588, 1e-14);
  CHECK_REL(pair.q[69], 0.079788456080286535588, 1e-14);
  CHECK_FALSE(made(5, 1)->pure_epsilon());
  CHECK_FALSE(made(5, 1)->gaussian());
  // zCDP Δ²/(2σ²) and its Rényi curve α Δ²/(2σ²) (Canonne, Kamath, Steinke 2020, Thm 4).
  check_upper_bound(made(5, 1)->zcdp()->rho, 0.02, 1e-15);
  check_upper_bound(*made(3, 2)->rdp_epsilon(4), 0.88888888888888888889, 1e-15);  // 4 · 4/18
  check_error(dpcalc::api::compute(compose("pld", discrete_gaussian(1, 0.5), 3, 1e-5)),
              "items.0.mechanism.sensitivity");
  check_error(dpcalc::api::compute(compose("pld", discrete_gaussian(400, 1), 3, 1e-5)), "items.0.mechanism.sigma");
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
  // The group op: the exact pair at kΔ, composed once; k = 1 equals composing the mechanism once.
  const auto group_bracket = [](double sigma, double k, double delta) {
    const Value request =
        object().set("op", "group").set("k", k).set("delta", delta).set("mechanism", discrete_gaussian(sigma, 1));
    const Value response = dpcalc::api::compute(request);
    const Value& result = result_of(response);
    CHECK(number_at(result, "guarantee", "epsilon") == number_at(result, "epsilon_upper"));
    return Bracket{number_at(result, "epsilon_lower"), number_at(result, "epsilon_upper")};
  };
  const Bracket one = group_bracket(4, 1, 1e-5);
  CHECK(one.upper == pld_epsilon(discrete_gaussian(4, 1), 1, 1e-5).upper);
  CHECK(group_bracket(4, 2, 1e-5).upper > one.upper);
  CHECK(group_bracket(4, 5, 1e-5).upper > group_bracket(4, 2, 1e-5).upper);
  // Exact (discrete_mechanisms_reference.py, "group of discrete_gaussian"): σ = 1, δ = 1e-6: k = 1
  // 4.4995909821943769, k = 2 10.895232260922057; σ = 3, k = 4, δ = 1e-5: 6.1416942953437683. The
  // zCDP route (k²ρ converted, Canonne, Kamath, Steinke 2020, Cor 13) gave 5.22 and 11.69.
  check_bracket(group_bracket(1, 1, 1e-6), 4.4995909821943769);
  check_bracket(group_bracket(1, 2, 1e-6), 10.895232260922057);
  check_bracket(group_bracket(3, 4, 1e-5), 6.1416942953437683);
  const Value zcdp = result_of(dpcalc::api::compute(compose("zcdp", discrete_gaussian(1, 2), 1, 1e-6)));
  CHECK(group_bracket(1, 2, 1e-6).upper < number_at(zcdp, "approx", "epsilon"));
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
