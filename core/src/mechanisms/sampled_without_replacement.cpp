// A mechanism run on a sample of m records drawn without replacement from a dataset of n, for
// neighbours that substitute one record (n is public). With γ = m/n, its dominating pair is the
// subsampled pair of subsampled.hpp around the inner pair under substitution (Zhu, Dong, Wang 2022,
// Thm 11); sampling twice without replacement samples m₂ of n, and the rates multiply. Its Rényi DP
// curve is the bound of Wang, Balle, Kasiviswanathan 2019 around the inner mechanism's curve (Thm 9),
// or with a Gaussian inside their Gaussian bound (Thm 27; rdp/sampled_without_replacement_rdp.hpp).
#include "dpcalc/checks.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/mechanisms/subsampled.hpp"
#include "dpcalc/rdp/sampled_without_replacement_rdp.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

class SampledWithoutReplacement final : public Subsampled {
 public:
  explicit SampledWithoutReplacement(const Arguments& arguments)
      : Subsampled(sampled_without_replacement_type(), arguments,
                   SampleDraw::without_replacement(arguments.number("dataset_size"), arguments.number("sample_size")),
                   "sample_size") {}

  // Only substitution has this pair: the request's relation is checked against supports() first. An
  // inner pair that is already the pair of its own sampling (a Poisson-subsampled Gaussian under
  // substitution: two mixtures) is not subsampled again by the engine.
  bool has_pair(Relation relation) const override {
    if (relation != Relation::kSubstitute || !inner().supports(Relation::kSubstitute)) return false;
    const pld::BasePair inner_pair = inner().pair(Relation::kSubstitute).base;
    return !std::holds_alternative<pld::MixtureVsMixturePair>(inner_pair) &&
           !std::holds_alternative<pld::RevealedMixturePair>(inner_pair);
  }

  // Wang, Balle, Kasiviswanathan 2019: Thm 27 for a Gaussian inside (as dp_accounting computes it),
  // Thm 9 around any other inner curve (under substitution, the only relation it supports).
  std::optional<double> rdp_epsilon(double order) const override {
    if (const auto noise = inner().gaussian()) {
      return rdp::sampled_without_replacement_gaussian_rdp(
          rate(), rdp::noise_multiplier_down(noise->sigma, noise->sensitivity), order);
    }
    if (!has_inner_curve()) return std::nullopt;
    const Mechanism& inside = inner();
    return rdp::sampled_without_replacement_rdp(
        rate(), [&inside](double inner_order) { return *inside.rdp_epsilon(inner_order); }, order);
  }
  MethodInfo rdp_method() const override {
    if (inner().gaussian()) return rdp::kSampledWithoutReplacementGaussianRdp;
    return has_inner_curve() ? rdp::kSampledWithoutReplacementRdp : MethodInfo{"", "", ""};
  }

  // An inner Rényi curve under substitution, which Thm 9 needs.
  bool has_inner_curve() const {
    return inner().supports(Relation::kSubstitute) && inner().has_rdp_under(Relation::kSubstitute) &&
           inner().rdp_epsilon(2);
  }

  // Groups: the known group analysis for sampling without replacement is a Rényi DP bound evaluated by
  // quadrature (Schuchardt, Stoian, Kosmala, Günnemann 2024), with no dominating pair to compose. Op
  // 'group' answers by group privacy over its own privacy profile (pld/group_over_profile.hpp).
  Result<MechanismPtr> for_group(double) const override {
    return not_supported(*this,
                         "has no group transform (for groups, sampling without replacement is analysed only "
                         "through Rényi DP bounds); 'poisson_subsampled' has one with Gaussian or Laplace noise");
  }
};

Result<MechanismPtr> create_sampled_without_replacement(const Arguments& arguments) {
  DPCALC_TRY(const double dataset_size,
             check_whole_number(arguments.number("dataset_size"), 1, kMaxCount, "dataset_size"));
  DPCALC_CHECK(check_whole_number(arguments.number("sample_size"), 1, dataset_size, "sample_size"));
  return MechanismPtr{std::make_shared<SampledWithoutReplacement>(arguments)};
}

}  // namespace

const MechanismType& sampled_without_replacement_type() {
  static const MechanismType type{
      "sampled_without_replacement",
      "sampled without replacement",
      "the inner mechanism run on sample_size records drawn without replacement from dataset_size (relation "
      "'substitute' only)",
      {Parameter::number("dataset_size", "records in the dataset n, a whole number ≥ 1 (public)"),
       Parameter::number("sample_size", "records in the sample m, a whole number in [1, n]"),
       Parameter::mechanism("mechanism", "the mechanism run on the sample")},
      {},
      create_sampled_without_replacement,
      {"", "", ""},
      true};
  return type;
}

}  // namespace dpcalc::mechanisms
