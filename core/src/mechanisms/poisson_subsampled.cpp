// A mechanism run on a Poisson subsample: each record is kept independently with probability q.
// Under add/remove its dominating pair is the subsampled pair of subsampled.hpp (Zhu, Dong, Wang
// 2022, Thm 11), whatever the inner pair (Laplace, Gaussian, a finite pair: the engine mixes it);
// subsampling twice keeps a record with the product of the rates. With a Gaussian inside it also has
// a pair under substitution (below), and its Rényi
// DP curve is known (Mironov, Talwar, Zhang 2019); with Gaussian or Laplace noise inside, so is the
// worst-case pair of a group (sampled_group.hpp).
#include "dpcalc/checks.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/mechanisms/sampled_group.hpp"
#include "dpcalc/mechanisms/subsampled.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

constexpr MethodInfo kLaplaceGroupMethod{
    "The group's worst-case Laplace mixture (J ~ Binomial(k, rate) of its records sampled), composed with privacy "
    "loss distributions",
    "Schuchardt, Stoian, Kosmala, Günnemann 2024; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "schuchardt2024unified doroshenko2022connect"};

class PoissonSubsampled final : public Subsampled {
 public:
  explicit PoissonSubsampled(const Arguments& arguments)
      : Subsampled(poisson_subsampled_type(), arguments, SampleDraw::poisson(arguments.number("rate")), "rate") {}

  // Under add/remove, the subsampled pair of any inner pair. Under substitution, x replaced by x′:
  // with the common records' output S fixed, M(S ∪ x) and M(S ∪ x′) each move the output by at most Δ
  // (the inner add/remove sensitivity, what one record adds), so the pair is
  // (1 − q)N(0, σ²) + qN(Δ, σ²) against (1 − q)N(0, σ²) + qN(−Δ, σ²) for Gaussian noise: the one-record
  // case of the substitution pair of Schuchardt, Stoian, Kosmala, Günnemann 2024 (sampled_group.hpp),
  // and dp_accounting's REPLACE_ONE pair of the subsampled Gaussian. With other noise inside no
  // substitution pair is known here (dp_accounting refuses Laplace too).
  bool has_pair(Relation relation) const override {
    if (!inner().supports(Relation::kAddRemove)) return false;
    return relation == Relation::kAddRemove || std::holds_alternative<pld::GaussianPair>(flat_pair().base);
  }

  pld::DominatingPair pair_under(Relation relation) const override {
    if (relation == Relation::kAddRemove) return Subsampled::pair_under(relation);
    const pld::DominatingPair flat = flat_pair();
    const auto& noise = std::get<pld::GaussianPair>(flat.base);
    return sampled_group_pair(group_inclusion_log_pmf(SampleDraw::poisson(flat.sampling_rate), 1),
                              GaussianNoise{noise.sigma, noise.sensitivity}, Relation::kSubstitute);
  }

  // Its Rényi curve (Mironov, Talwar, Zhang 2019) is that of the add/remove pair (zero-out's too).
  bool has_rdp_under(Relation relation) const override { return pair_relation(relation) == Relation::kAddRemove; }

  std::optional<double> rdp_epsilon(double order) const override {
    if (rate() == 0) return 0.0;
    const pld::DominatingPair flat = pair(Relation::kAddRemove);
    const auto* gaussian = std::get_if<pld::GaussianPair>(&flat.base);
    if (gaussian == nullptr) return std::nullopt;
    return rdp::subsampled_gaussian_rdp(flat.sampling_rate,
                                        rdp::noise_multiplier_down(gaussian->sigma, gaussian->sensitivity), order);
  }
  MethodInfo rdp_method() const override {
    return std::holds_alternative<pld::GaussianPair>(pair(Relation::kAddRemove).base) ? rdp::kSubsampledGaussianRdp
                                                                                      : MethodInfo{"", "", ""};
  }

  // A group of k records: J ~ Binomial(k, q) of them are in the subsample (sampled_group.hpp).
  // Op 'group' answers other noise inside by group privacy over the subsampled mechanism's own
  // privacy profile (pld/group_over_profile.hpp).
  Result<MechanismPtr> for_group(double group_size) const override {
    if (!has_group_pair())
      return not_supported(*this, "has a group transform only with Gaussian or Laplace noise inside");
    const pld::DominatingPair flat = pair(Relation::kAddRemove);
    // The nested rates multiply: one Poisson draw at their product.
    const std::vector<double> log_pmf = group_inclusion_log_pmf(SampleDraw::poisson(flat.sampling_rate), group_size);
    if (const auto* gaussian = std::get_if<pld::GaussianPair>(&flat.base)) {
      return sampled_group(log_pmf, GaussianNoise{gaussian->sigma, gaussian->sensitivity});
    }
    return sampled_group(log_pmf, std::get<pld::LaplacePair>(flat.base));
  }

  MethodInfo group_method() const override {
    return std::holds_alternative<pld::LaplacePair>(pair(Relation::kAddRemove).base) ? kLaplaceGroupMethod
                                                                                     : type().group_method;
  }

  // The group's pair has k + 1 components; without one there is nothing that grows with k.
  double max_group_size() const override { return has_group_pair() ? kMaxSampledGroupSize : kMaxCount; }

 private:
  // The add/remove pair: the innermost noise at the product of the nested rates.
  pld::DominatingPair flat_pair() const { return Subsampled::pair_under(Relation::kAddRemove); }

  // Gaussian or Laplace noise inside: the group's worst-case mixture is known (sampled_group.hpp).
  bool has_group_pair() const {
    const pld::DominatingPair flat = pair(Relation::kAddRemove);
    return std::holds_alternative<pld::GaussianPair>(flat.base) || std::holds_alternative<pld::LaplacePair>(flat.base);
  }
};

Result<MechanismPtr> create_poisson_subsampled(const Arguments& arguments) {
  // Rate 0 samples no one: 0-DP whatever runs inside.
  if (arguments.number("rate") != 0) {
    DPCALC_CHECK(check_rate(arguments.number("rate"), "rate"));
  }
  return MechanismPtr{std::make_shared<PoissonSubsampled>(arguments)};
}

}  // namespace

const MechanismType& poisson_subsampled_type() {
  static const MechanismType type{
      "poisson_subsampled",
      "Poisson-subsampled mechanism",
      "the inner mechanism run on a Poisson subsample (each record kept with probability rate)",
      {Parameter::number("rate", "sampling rate in [0, 1] (0: no record is used, ε = 0)"),
       Parameter::mechanism("mechanism", "the mechanism run on the subsample")},
      {},
      create_poisson_subsampled,
      {"The group's worst-case Gaussian mixture (J ~ Binomial(k, rate) of its records sampled), composed with "
       "privacy loss distributions",
       "Schuchardt, Stoian, Kosmala, Günnemann 2024; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
       "schuchardt2024unified doroshenko2022connect"},
      true};
  return type;
}

}  // namespace dpcalc::mechanisms
