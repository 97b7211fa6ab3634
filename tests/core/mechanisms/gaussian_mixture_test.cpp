// The Gaussian mixture of the model (core/src/mechanisms/gaussian_mixture.cpp): its pair, and
// checks of its components whose errors start with the field they name.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "mechanisms_for_tests.hpp"

namespace {

dpcalc::Result<dpcalc::mechanisms::MechanismPtr> mixture(std::vector<double> shifts, std::vector<double> weights) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"sigma", 1}};
  arguments.lists = {{"shifts", std::move(shifts)}, {"weights", std::move(weights)}};
  return dpcalc::mechanisms::create(dpcalc::mechanisms::gaussian_mixture_type(), arguments);
}

// Refused on the parameter `field`, and on its element `item` (an index) where there is one.
void check_refused(const dpcalc::Result<dpcalc::mechanisms::MechanismPtr>& result, const std::string& field,
                   std::size_t item = dpcalc::Error::kNoItem) {
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().field == field);
  CHECK(result.error().item == item);
  CHECK_FALSE(result.error().message.empty());
}

}  // namespace

TEST_CASE("[mechanisms] Gaussian mixture: its pair, and nothing in closed form") {
  const auto made = mixture({0, 1, 2}, {0.25, 0.5, 0.25});
  REQUIRE(made.ok());
  const auto pair = made.value()->pair(dpcalc::mechanisms::Relation::kAddRemove);
  const auto& components = std::get<dpcalc::pld::MixtureVsGaussianPair>(pair.base);
  CHECK(components.shifts == std::vector<double>{0, 1, 2});
  CHECK(components.weights == std::vector<double>{0.25, 0.5, 0.25});
  CHECK_FALSE(made.value()->pure_epsilon());
  CHECK_FALSE(made.value()->zcdp());
  CHECK(made.value()->calibratable().empty());
}

TEST_CASE("[mechanisms] Gaussian mixture: weights and shifts are checked, each error on its field") {
  check_refused(mixture({0, 1}, {0.5}), "weights");
  check_refused(mixture({0, 1}, {0.5, 2}), "weights", 1);
  check_refused(mixture({0, std::nan("")}, {0.5, 0.5}), "shifts", 1);
  check_refused(mixture({0, 1}, {0.5, 0.4}), "weights");
}
