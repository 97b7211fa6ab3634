#include "dpcalc/mechanisms/sampled_group.hpp"

#include <cmath>
#include <limits>
#include <optional>

namespace dpcalc::mechanisms {
namespace {

// Not a type of the catalog: made by PoissonSubsampled::for_group, never read from a request.
const MechanismType& sampled_group_type() {
  static const MechanismType type{"sampled_group",
                                  "group of a subsampled mechanism",
                                  "a group of k records of which J are in the subsample, under additive noise",
                                  {},
                                  {},
                                  nullptr};
  return type;
}

class SampledGroup final : public Mechanism {
 public:
  SampledGroup(pld::DominatingPair add_remove, std::optional<pld::DominatingPair> substitute)
      : Mechanism(sampled_group_type(), Arguments{}),
        add_remove_(std::move(add_remove)),
        substitute_(std::move(substitute)) {}

  bool has_pair(Relation relation) const override {
    return relation == Relation::kAddRemove || substitute_.has_value();
  }
  pld::DominatingPair pair_under(Relation relation) const override {
    return relation == Relation::kSubstitute && substitute_ ? *substitute_ : add_remove_;
  }

 private:
  pld::DominatingPair add_remove_;
  std::optional<pld::DominatingPair> substitute_;
};

// The components jΔ, Pr[J = j] of the group's mixture, weights below the smallest normal double left
// out.
struct Components {
  std::vector<double> shifts, weights;
};
Components components(const std::vector<double>& log_pmf, double sensitivity) {
  Components result;
  for (std::size_t j = 0; j < log_pmf.size(); ++j) {
    const double weight = std::exp(log_pmf[j]);
    if (!(weight >= std::numeric_limits<double>::min())) continue;
    result.shifts.push_back(static_cast<double>(j) * sensitivity);
    result.weights.push_back(weight);
  }
  return result;
}

}  // namespace

pld::DominatingPair sampled_group_pair(const std::vector<double>& log_pmf, const GaussianNoise& noise,
                                       Relation relation) {
  Components mixture = components(log_pmf, noise.sensitivity);
  if (relation == Relation::kAddRemove) {
    return pld::DominatingPair{pld::MixtureVsGaussianPair{noise.sigma, mixture.shifts, mixture.weights}, 1.0};
  }
  std::vector<double> negative = mixture.shifts;
  for (double& shift : negative) shift = -shift;
  return pld::DominatingPair{
      pld::MixtureVsMixturePair{noise.sigma, mixture.shifts, mixture.weights, negative, mixture.weights}, 1.0};
}

MechanismPtr sampled_group(std::vector<double> log_pmf, const GaussianNoise& noise) {
  return std::make_shared<SampledGroup>(sampled_group_pair(log_pmf, noise, Relation::kAddRemove),
                                        sampled_group_pair(log_pmf, noise, Relation::kSubstitute));
}

MechanismPtr sampled_group(const std::vector<double>& log_pmf, const pld::LaplacePair& noise) {
  Components mixture = components(log_pmf, noise.sensitivity);
  return std::make_shared<SampledGroup>(
      pld::DominatingPair{pld::LaplaceMixturePair{noise.scale, std::move(mixture.shifts), std::move(mixture.weights)},
                          1.0},
      std::nullopt);
}

}  // namespace dpcalc::mechanisms
