// The Laplace mechanism of the model (core/src/mechanisms/laplace.cpp): (Δ/b)-DP rounded up, its
// pair, its group transform at sensitivity kΔ, and the checks of its parameters.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "approx.hpp"
#include "dpcalc/rdp/laplace_rdp.hpp"
#include "mechanisms_for_tests.hpp"

using dpcalc::mechanisms::Relation;

TEST_CASE("[mechanisms] Laplace: pure ε = Δ/b, rounded up") {
  CHECK(*test_mechanisms::laplace(2)->pure_epsilon() == 0.5);
  // 1/3 rounds down to nearest; the bound is the next double up: 3 · ε ≥ 1 exactly.
  const double epsilon = *test_mechanisms::laplace(3)->pure_epsilon();
  CHECK(std::fma(epsilon, 3.0, -1.0) >= 0);
  CHECK(epsilon == std::nextafter(1.0 / 3, 1.0));
  // zCDP through its pure ε: ε²/2 (Bun & Steinke 2016, Prop 1.4).
  CHECK(test_mechanisms::laplace(2)->zcdp()->rho == 0.125);
  CHECK_FALSE(test_mechanisms::laplace(2)->gaussian());
  // Its Rényi curve, Mironov 2017, Prop. 6, at ε₀ = 1/2 (mpmath quadrature, tests/reference/
  // rdp_mechanisms_reference.py laplace); the pure ε at order infinity.
  CHECK_REL(*test_mechanisms::laplace(2)->rdp_epsilon(2), 0.20030389617361596, 1e-12);
  CHECK(*test_mechanisms::laplace(2)->rdp_epsilon(std::numeric_limits<double>::infinity()) == 0.5);
  CHECK(std::string(test_mechanisms::laplace(2)->rdp_method().method) == dpcalc::rdp::kLaplaceRdp.method);
}

TEST_CASE("[mechanisms] Laplace: the group of k sees sensitivity kΔ") {
  // mpmath: 5 · double(1.3) / double(0.7) = 9.2857142857142866206.
  const auto grouped = test_mechanisms::laplace(0.7, 1.3)->for_group(5);
  REQUIRE(grouped.ok());
  check_upper_bound(*grouped.value()->pure_epsilon(), 9.2857142857142866206, 1e-15);
  CHECK(*test_mechanisms::laplace(2)->for_group(3).value()->pure_epsilon() == 1.5);
  CHECK(*test_mechanisms::laplace(2)->for_group(1).value()->pure_epsilon() == 0.5);
  double previous = 0;
  for (double k = 1; k <= 40; ++k) {
    const double epsilon = *test_mechanisms::laplace(3)->for_group(k).value()->pure_epsilon();
    CHECK(epsilon >= previous);
    CHECK(epsilon * 3 >= k);  // never below kΔ/b
    previous = epsilon;
  }
}

TEST_CASE("[mechanisms] Laplace: its pair, domination, calibration and checks") {
  const auto pair = test_mechanisms::laplace(2, 3)->pair(Relation::kAddRemove);
  const auto* laplace = std::get_if<dpcalc::pld::LaplacePair>(&pair.base);
  REQUIRE(laplace != nullptr);
  CHECK(laplace->scale == 2);
  CHECK(laplace->sensitivity == 3);
  CHECK(pair.sampling_rate == 1);
  CHECK(test_mechanisms::laplace(1)->dominates(*test_mechanisms::laplace(2)));
  CHECK_FALSE(test_mechanisms::laplace(2)->dominates(*test_mechanisms::laplace(1)));
  CHECK_FALSE(test_mechanisms::laplace(1)->dominates(*test_mechanisms::gaussian(1)));
  const auto noisier = test_mechanisms::laplace(1, 2)->with_noise("scale", 8);
  REQUIRE(noisier.ok());
  CHECK(*noisier.value()->pure_epsilon() == 0.25);

  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"scale", -1}, {"sensitivity", 1}};
  auto refused = dpcalc::mechanisms::create(dpcalc::mechanisms::laplace_type(), arguments);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().field == "scale");
  arguments.numbers = {{"scale", 1e-310}, {"sensitivity", 1}};
  refused = dpcalc::mechanisms::create(dpcalc::mechanisms::laplace_type(), arguments);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().field == "scale");
  arguments.numbers = {{"scale", 1}, {"sensitivity", std::nan("")}};
  refused = dpcalc::mechanisms::create(dpcalc::mechanisms::laplace_type(), arguments);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().field == "sensitivity");
}
