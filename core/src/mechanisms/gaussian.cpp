// Gaussian noise of standard deviation σ on a query of ℓ2 sensitivity Δ: exactly μ-GDP with μ = Δ/σ
// (Dong, Roth, Su 2019), with the analytic (ε, δ) curve of Balle & Wang 2018 (Thm 8) and
// Δ²/(2σ²)-zCDP (Bun & Steinke 2016, Prop 1.6). Its dominating pair is (N(Δ, σ²), N(0, σ²)) under
// either relation; a group of k records sees sensitivity kΔ.
#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/mechanisms/no_noise.hpp"

namespace dpcalc::mechanisms {
namespace {

class Gaussian final : public Mechanism {
 public:
  explicit Gaussian(const Arguments& arguments)
      : Mechanism(gaussian_type(), arguments),
        sigma_(arguments.number("sigma")),
        sensitivity_(arguments.number("sensitivity")) {}

  bool has_pair(Relation) const override { return true; }
  pld::DominatingPair pair_under(Relation) const override { return {pld::GaussianPair{sigma_, sensitivity_}, 1.0}; }
  std::optional<GaussianNoise> gaussian() const override { return GaussianNoise{sigma_, sensitivity_}; }
  double sensitivity() const override { return sensitivity_; }

  Result<MechanismPtr> for_group(double group_size) const override {
    Arguments grouped = arguments();
    grouped.numbers["sensitivity"] = multiply_up(group_size, sensitivity_);
    return create(gaussian_type(), std::move(grouped));
  }

 private:
  double sigma_, sensitivity_;
};

Result<MechanismPtr> create_gaussian(const Arguments& arguments) {
  DPCALC_TRY(const double sensitivity, check_positive(arguments.number("sensitivity"), "sensitivity"));
  if (arguments.number("sigma") == 0) return no_noise(gaussian_type(), arguments, "sigma", sensitivity);
  DPCALC_CHECK(check_noise(arguments.number("sigma"), sensitivity, "sigma"));
  return MechanismPtr{std::make_shared<Gaussian>(arguments)};
}

}  // namespace

const MechanismType& gaussian_type() {
  static const MechanismType type{
      "gaussian",
      "Gaussian mechanism",
      "Gaussian noise of standard deviation σ on a query of ℓ2 sensitivity Δ: exactly μ-GDP with μ = Δ/σ",
      {Parameter::number("sigma", "noise standard deviation σ > 0 (0: no noise, no guarantee)"),
       Parameter::number("sensitivity", "ℓ2 sensitivity Δ > 0", 1.0)},
      {{"sigma", "sigma", false}, {"noise_multiplier", "sigma", true}},
      create_gaussian,
      {"Analytic Gaussian mechanism at sensitivity kΔ", "Balle & Wang 2018, Thm 8", "balle2018improving"}};
  return type;
}

}  // namespace dpcalc::mechanisms
