#include "dpcalc/mechanisms/sampled_group.hpp"

#include <cmath>
#include <limits>

namespace dpcalc::mechanisms {
namespace {

// Not a type of the catalog: made by PoissonSubsampled::for_group, never read from a request.
const MechanismType& sampled_group_type() {
  static const MechanismType type{"sampled_group",
                                  "group of a subsampled Gaussian",
                                  "a group of k records of which J are in the subsample, under Gaussian noise",
                                  {},
                                  {},
                                  nullptr};
  return type;
}

class SampledGroup final : public Mechanism {
 public:
  SampledGroup(std::vector<double> log_pmf, const GaussianNoise& noise)
      : Mechanism(sampled_group_type(), Arguments{}), log_pmf_(std::move(log_pmf)), noise_(noise) {}

  bool supports(Relation) const override { return true; }
  pld::DominatingPair pair(Relation relation) const override { return sampled_group_pair(log_pmf_, noise_, relation); }

 private:
  std::vector<double> log_pmf_;
  GaussianNoise noise_;
};

}  // namespace

pld::DominatingPair sampled_group_pair(const std::vector<double>& log_pmf, const GaussianNoise& noise,
                                       Relation relation) {
  std::vector<double> shifts, weights;
  for (std::size_t j = 0; j < log_pmf.size(); ++j) {
    const double weight = std::exp(log_pmf[j]);
    if (!(weight >= std::numeric_limits<double>::min())) continue;
    shifts.push_back(static_cast<double>(j) * noise.sensitivity);
    weights.push_back(weight);
  }
  if (relation == Relation::kAddRemove) {
    return pld::DominatingPair{pld::MixtureVsGaussianPair{noise.sigma, shifts, weights}, 1.0};
  }
  std::vector<double> negative = shifts;
  for (double& shift : negative) shift = -shift;
  return pld::DominatingPair{pld::MixtureVsMixturePair{noise.sigma, shifts, weights, negative, weights}, 1.0};
}

MechanismPtr sampled_group(std::vector<double> log_pmf, const GaussianNoise& noise) {
  return std::make_shared<SampledGroup>(std::move(log_pmf), noise);
}

}  // namespace dpcalc::mechanisms
