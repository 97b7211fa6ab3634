// A Gaussian mixture against a Gaussian: P = Σ wⱼ N(shiftⱼ, σ²) against Q = N(0, σ²), given as the
// dominating pair of the remove direction (the add direction is the swapped pair). It describes,
// for instance, a subsampled Gaussian seen by a group (Schuchardt, Stoian, Kosmala, Günnemann
// 2024): the PLD engine composes it, no closed form is known.
#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::mechanisms {
namespace {

// The weights must sum to 1 within this (they are renormalised by the engine).
constexpr double kWeightSumTolerance = 1e-9;

class GaussianMixture final : public Mechanism {
 public:
  explicit GaussianMixture(const Arguments& arguments) : Mechanism(gaussian_mixture_type(), arguments) {}

  pld::DominatingPair pair_under(Relation) const override {
    const Arguments& values = arguments();
    return {pld::MixtureVsGaussianPair{values.number("sigma"), values.lists.at("shifts"), values.lists.at("weights")},
            1.0};
  }
};

Result<bool> check_components(const Arguments& arguments) {
  const std::vector<double>& shifts = arguments.lists.at("shifts");
  const std::vector<double>& weights = arguments.lists.at("weights");
  if (shifts.empty() || shifts.size() != weights.size()) {
    return invalid_argument("weights", "The weights and the shifts must be non-empty lists of the same length (got " +
                                           std::to_string(weights.size()) + " weights and " +
                                           std::to_string(shifts.size()) + " shifts).");
  }
  double total = 0;
  for (std::size_t j = 0; j < weights.size(); ++j) {
    if (!(weights[j] >= 0 && weights[j] <= 1)) {
      return about_item(invalid_argument("weights", "Each weight must be in [0, 1] " + got(weights[j]) + "."), j);
    }
    if (!std::isfinite(shifts[j])) {
      return about_item(invalid_argument("shifts", "Each shift must be a finite number " + got(shifts[j]) + "."), j);
    }
    total += weights[j];
  }
  if (!(std::fabs(total - 1) <= kWeightSumTolerance)) {
    return invalid_argument("weights", "The weights must sum to 1 (got a sum of " + format_number(total) + ").");
  }
  return true;
}

Result<MechanismPtr> create_gaussian_mixture(const Arguments& arguments) {
  DPCALC_CHECK(check_positive(arguments.number("sigma"), "sigma"));
  DPCALC_CHECK(check_components(arguments));
  return MechanismPtr{std::make_shared<GaussianMixture>(arguments)};
}

}  // namespace

const MechanismType& gaussian_mixture_type() {
  static const MechanismType type{
      "gaussian_mixture",
      "Gaussian mixture",
      "P = Σ wᵢ N(shiftᵢ, σ²) against Q = N(0, σ²)",
      {Parameter::number("sigma", "σ > 0"), Parameter::numbers("shifts", "the shifts of P's components, finite"),
       Parameter::numbers("weights", "their weights ≥ 0, summing to 1")},
      {},
      create_gaussian_mixture,
      {"", "", ""},
      true};
  return type;
}

}  // namespace dpcalc::mechanisms
