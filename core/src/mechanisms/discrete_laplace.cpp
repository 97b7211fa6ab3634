// Discrete Laplace noise (the two-sided geometric mechanism, Ghosh, Roughgarden, Sundararajan 2009):
// P(x) = tanh(1/(2b)) e^{−|x|/b} on the integers, added to an integer query of ℓ1 sensitivity Δ (a
// whole number). It is (Δ/b)-DP. Its exact pair (N + Δ, N) has privacy loss (|x| − |x − Δ|)/b: −Δ/b
// for every x ≤ 0, +Δ/b for every x ≥ Δ and (2x − Δ)/b in between, so with r = e^{−1/b}
//   P = (r^Δ/(1 + r), tanh(1/(2b)) r^{Δ−x} for x = 1 … Δ − 1, 1/(1 + r)),
//   Q = (1/(1 + r),  tanh(1/(2b)) r^x     for x = 1 … Δ − 1, r^Δ/(1 + r)):
// a finite pair of Δ + 1 outcomes with nothing truncated (the geometric tails sum in closed form),
// under either relation (Δ the sensitivity for the relation at hand). A group of k records sees kΔ.
#include <cmath>
#include <memory>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/mechanisms/no_noise.hpp"
#include "dpcalc/rdp/discrete_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

// The pair has Δ + 1 outcomes: the sensitivity is bounded so that it stays small enough to compose.
constexpr double kLargestSensitivity = 1e6;

class DiscreteLaplace final : public Mechanism {
 public:
  explicit DiscreteLaplace(const Arguments& arguments)
      : Mechanism(discrete_laplace_type(), arguments),
        scale_(arguments.number("scale")),
        sensitivity_(arguments.number("sensitivity")) {}

  bool has_pair(Relation) const override { return true; }
  pld::DominatingPair pair_under(Relation) const override {
    const double log_r = -1 / scale_;
    const double one_plus_r = 1 + std::exp(log_r), middle = std::tanh(0.5 / scale_);
    const int delta = static_cast<int>(sensitivity_);
    pld::FinitePair pair;
    pair.p.push_back(std::exp(delta * log_r) / one_plus_r);
    pair.q.push_back(1 / one_plus_r);
    for (int x = 1; x < delta; ++x) {
      pair.p.push_back(middle * std::exp((delta - x) * log_r));
      pair.q.push_back(middle * std::exp(x * log_r));
    }
    pair.p.push_back(1 / one_plus_r);
    pair.q.push_back(std::exp(delta * log_r) / one_plus_r);
    return {std::move(pair), 1.0};
  }
  std::optional<double> pure_epsilon() const override { return divide_up(sensitivity_, scale_); }
  double sensitivity() const override { return sensitivity_; }
  // Its exact Rényi divergence, the same in both directions (x ↦ Δ − x swaps P and Q), in closed
  // form (rdp/discrete_rdp.hpp). (dp_accounting 0.6.0 has no Rényi curve for it.)
  std::optional<double> rdp_epsilon(double order) const override {
    return rdp::discrete_laplace_rdp(scale_, sensitivity_, order);
  }
  MethodInfo rdp_method() const override { return rdp::kDiscreteLaplaceRdp; }

  Result<MechanismPtr> for_group(double group_size) const override {
    if (!(group_size * sensitivity_ <= kLargestSensitivity)) {
      return not_supported(*this, "has a group transform for k·Δ up to " + format_number(kLargestSensitivity) +
                                      " (its exact pair has k·Δ + 1 outcomes)");
    }
    Arguments grouped = arguments();
    grouped.numbers["sensitivity"] = group_size * sensitivity_;
    return create(discrete_laplace_type(), std::move(grouped));
  }

 private:
  double scale_, sensitivity_;
};

Result<MechanismPtr> create_discrete_laplace(const Arguments& arguments) {
  DPCALC_TRY(const double sensitivity,
             check_whole_number(arguments.number("sensitivity"), 1, kLargestSensitivity, "sensitivity"));
  if (arguments.number("scale") == 0) return no_noise(discrete_laplace_type(), arguments, "scale", sensitivity);
  DPCALC_TRY(const double scale, check_noise(arguments.number("scale"), sensitivity, "scale"));
  if (!(sensitivity / scale < 700)) {
    return invalid_argument("scale", describe_name("scale") + " is too small next to the sensitivity " + got(scale) +
                                         ": the privacy loss Δ/b is beyond 700, where "
                                         "e^loss no longer fits a double.");
  }
  return MechanismPtr{std::make_shared<DiscreteLaplace>(arguments)};
}

}  // namespace

const MechanismType& discrete_laplace_type() {
  static const MechanismType type{
      "discrete_laplace",
      "discrete Laplace mechanism",
      "discrete Laplace noise P(x) ∝ e^{−|x|/b} on the integers, on an integer query of ℓ1 sensitivity Δ: (Δ/b)-DP",
      {Parameter::number("scale", "noise scale b > 0 (0: no noise, no guarantee)"),
       Parameter::number("sensitivity", "ℓ1 sensitivity Δ, a whole number from 1 to 10^6", 1.0)},
      {{"scale", "scale", false}},
      create_discrete_laplace,
      {"Discrete Laplace mechanism at sensitivity kΔ", "Ghosh, Roughgarden, Sundararajan 2009",
       "ghosh2009universally"}};
  return type;
}

}  // namespace dpcalc::mechanisms
