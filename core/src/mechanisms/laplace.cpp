// Laplace noise of scale b on a query of ℓ1 sensitivity Δ: (Δ/b)-DP (Dwork, McSherry, Nissim,
// Smith 2006, Prop 1). Its dominating pair is (Lap(Δ, b), Lap(0, b)) under either relation (Δ is
// the sensitivity for the relation at hand), and a group of k records sees sensitivity kΔ. Its
// Rényi DP curve is that pair's divergence (Mironov 2017, Prop. 6; rdp/laplace_rdp.hpp).
#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/mechanisms/no_noise.hpp"
#include "dpcalc/rdp/laplace_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

class Laplace final : public Mechanism {
 public:
  explicit Laplace(const Arguments& arguments)
      : Mechanism(laplace_type(), arguments),
        scale_(arguments.number("scale")),
        sensitivity_(arguments.number("sensitivity")) {}

  bool has_pair(Relation) const override { return true; }
  pld::DominatingPair pair_under(Relation) const override { return {pld::LaplacePair{scale_, sensitivity_}, 1.0}; }
  std::optional<double> pure_epsilon() const override { return divide_up(sensitivity_, scale_); }
  double sensitivity() const override { return sensitivity_; }
  std::optional<double> rdp_epsilon(double order) const override { return rdp::laplace_rdp(*pure_epsilon(), order); }
  MethodInfo rdp_method() const override { return rdp::kLaplaceRdp; }

  // Laplace pairs are ordered by Δ/b: the pair with the larger one dominates the other.
  bool dominates(const Mechanism& other) const override {
    return &other.type() == &type() && *pure_epsilon() >= *other.pure_epsilon();
  }

  Result<MechanismPtr> for_group(double group_size) const override {
    Arguments grouped = arguments();
    grouped.numbers["sensitivity"] = multiply_up(group_size, sensitivity_);
    return create(laplace_type(), std::move(grouped));
  }

 private:
  double scale_, sensitivity_;
};

Result<MechanismPtr> create_laplace(const Arguments& arguments) {
  DPCALC_TRY(const double sensitivity, check_positive(arguments.number("sensitivity"), "sensitivity"));
  if (arguments.number("scale") == 0) return no_noise(laplace_type(), arguments, "scale", sensitivity);
  DPCALC_CHECK(check_noise(arguments.number("scale"), sensitivity, "scale"));
  return MechanismPtr{std::make_shared<Laplace>(arguments)};
}

}  // namespace

const MechanismType& laplace_type() {
  static const MechanismType type{
      "laplace",
      "Laplace mechanism",
      "Laplace noise of scale b on a query of ℓ1 sensitivity Δ: (Δ/b)-DP",
      {Parameter::number("scale", "noise scale b > 0 (0: no noise, no guarantee)"),
       Parameter::number("sensitivity", "ℓ1 sensitivity Δ > 0", 1.0)},
      {{"scale", "scale", false}},
      create_laplace,
      {"Laplace mechanism at sensitivity kΔ", "Dwork, McSherry, Nissim, Smith 2006", "dwork2006calibrating"}};
  return type;
}

}  // namespace dpcalc::mechanisms
