// The Gaussian mechanism of the model (core/src/mechanisms/gaussian.cpp): exactly Gaussian noise,
// Δ²/(2σ²)-zCDP, its Rényi curve α Δ²/(2σ²), the group transform kΔ, calibration of σ and σ/Δ.
#include <doctest/doctest.h>

#include "approx.hpp"
#include "mechanisms_for_tests.hpp"

using dpcalc::mechanisms::Relation;

TEST_CASE("[mechanisms] Gaussian: what it knows") {
  const auto gaussian = test_mechanisms::gaussian(2, 3);
  CHECK(gaussian->gaussian()->sigma == 2);
  CHECK(gaussian->gaussian()->sensitivity == 3);
  CHECK_FALSE(gaussian->pure_epsilon());
  CHECK(gaussian->zcdp()->rho == 9.0 / 8);  // Bun & Steinke 2016, Prop 1.6
  // Mironov 2017, Prop 7: α Δ²/(2σ²) = 2 · 9/8 at α = 2.
  CHECK_REL(*gaussian->rdp_epsilon(2), 2.25, 1e-14);
  CHECK(gaussian->supports(Relation::kSubstitute));
  const auto pair = gaussian->pair(Relation::kAddRemove);
  REQUIRE(std::holds_alternative<dpcalc::pld::GaussianPair>(pair.base));
  CHECK(test_mechanisms::gaussian(1)->dominates(*test_mechanisms::gaussian(2)));
  CHECK_FALSE(test_mechanisms::gaussian(2, 1)->dominates(*test_mechanisms::gaussian(1, 1)));
}

TEST_CASE("[mechanisms] Gaussian: the group of k sees sensitivity kΔ; the noise multiplier is σ/Δ") {
  const auto grouped = test_mechanisms::gaussian(2, 0.5)->for_group(6);
  REQUIRE(grouped.ok());
  CHECK(grouped.value()->gaussian()->sensitivity == 3);
  CHECK(grouped.value()->gaussian()->sigma == 2);
  const auto by_multiplier = test_mechanisms::gaussian(1, 0.5)->with_noise("noise_multiplier", 4);
  REQUIRE(by_multiplier.ok());
  CHECK(by_multiplier.value()->gaussian()->sigma == 2);
  const auto by_sigma = test_mechanisms::gaussian(1, 0.5)->with_noise("sigma", 4);
  CHECK(by_sigma.value()->gaussian()->sigma == 4);
  CHECK_FALSE(test_mechanisms::gaussian(1)->with_noise("scale", 4).ok());
}
