// Discrete Gaussian noise (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential
// Privacy"): P(x) = e^{−x²/(2σ²)}/Z on the integers, added to an integer query of sensitivity Δ (a
// whole number). It is Δ²/(2σ²)-zCDP (ibid., Thm 4), so its Rényi divergence of order α is at most
// αΔ²/(2σ²). Its exact pair (N + Δ, N) has privacy loss (2xΔ − Δ²)/(2σ²) at the outcome x: linear in
// x, so the PLD is exact on the lattice (under either relation, Δ the sensitivity for the relation
// at hand). Its Rényi DP curve is that pair's divergence, at most αΔ²/(2σ²) (rdp/discrete_rdp.hpp).
// A group of k records sees kΔ: op 'group' composes that exact pair (tighter than k²ρ converted).
//
// The lattice is infinite; the pair keeps x in [−T, Δ + T] with T = ⌈σ √(2 ln 10^40)⌉ + 1. Each
// distribution puts at most 2 (σ²/T) e^{−T²/(2σ²)}/Z ≤ 10^{−40} σ/6.7 of its mass outside (the tail
// sum is below the integral of the density from T, which is below (σ²/T) e^{−T²/(2σ²)}). That
// bound, as P-mass at loss +∞ and as Q-mass at loss −∞, stands for the cut outcomes: for every ε,
// Σ_cut (P(x) − e^ε Q(x))_+ ≤ P(cut) in either direction, so the truncated pair still dominates.
#include <cmath>
#include <limits>
#include <memory>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/rdp/discrete_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

// √(2 ln 10^40) (rounded up): the window's half-width in units of σ. The cut mass it leaves, at most
// 10^{−40} σ per use, is far below the δ any request resolves (the accountant's own tail
// truncation adds 10^{−14} by default).
constexpr double kTailSigmas = 13.5723;
// Outcomes of the truncated lattice, at most: the numeric accountant's time grows with the number
// of outcomes of a finite pair, which this keeps within seconds.
constexpr double kLargestLattice = 1e4;

double half_width(double sigma) { return std::ceil(sigma * kTailSigmas) + 1; }
double lattice_size(double sigma, double sensitivity) { return 2 * half_width(sigma) + sensitivity + 3; }

class DiscreteGaussian final : public Mechanism {
 public:
  explicit DiscreteGaussian(const Arguments& arguments)
      : Mechanism(discrete_gaussian_type(), arguments),
        sigma_(arguments.number("sigma")),
        sensitivity_(arguments.number("sensitivity")) {}

  bool has_pair(Relation) const override { return true; }

  pld::DominatingPair pair_under(Relation) const override {
    const long long t = static_cast<long long>(half_width(sigma_)), delta = static_cast<long long>(sensitivity_);
    const double two_variance = 2 * sigma_ * sigma_;
    const auto weight = [&](long long x) {
      return std::exp(-static_cast<double>(x) * static_cast<double>(x) / two_variance);
    };
    // Z, summed with Neumaier's compensation; the tails beyond ±T add less than 10^{−37} to Z ≥ 1,
    // nothing in double precision.
    double z = 0, compensation = 0;
    for (long long x = -t; x <= t; ++x) {
      const double term = weight(x), sum = z + term;
      compensation += std::fabs(z) >= term ? (z - sum) + term : (term - sum) + z;
      z = sum;
    }
    z += compensation;
    const double td = static_cast<double>(t);
    const double cut = std::exp(std::log(2 * sigma_ * sigma_ / td) - td * td / two_variance) / z;
    pld::FinitePair pair;
    for (long long x = -t; x <= delta + t; ++x) {
      pair.p.push_back(weight(x - delta) / z);
      pair.q.push_back(weight(x) / z);
    }
    pair.p.insert(pair.p.end(), {cut, 0.0});
    pair.q.insert(pair.q.end(), {0.0, cut});
    return {std::move(pair), 1.0};
  }

  // Δ²/(2σ²) rounded up (2σ² is within half an ulp, which the last step up covers).
  std::optional<Zcdp> zcdp() const override {
    const double rho = divide_up(multiply_up(sensitivity_, sensitivity_), 2 * sigma_ * sigma_);
    return Zcdp{std::nextafter(rho, std::numeric_limits<double>::infinity())};
  }
  std::optional<double> rdp_epsilon(double order) const override {
    return rdp::discrete_gaussian_rdp(sigma_, sensitivity_, order);
  }
  MethodInfo rdp_method() const override { return rdp::kDiscreteGaussianRdp; }
  double sensitivity() const override { return sensitivity_; }

  Result<MechanismPtr> for_group(double group_size) const override {
    if (!(lattice_size(sigma_, group_size * sensitivity_) <= kLargestLattice)) {
      return not_supported(*this, "has a group transform only while its lattice at k·Δ has at most " +
                                      format_number(kLargestLattice) + " outcomes");
    }
    Arguments grouped = arguments();
    grouped.numbers["sensitivity"] = group_size * sensitivity_;
    return create(discrete_gaussian_type(), std::move(grouped));
  }

 private:
  double sigma_, sensitivity_;
};

Result<MechanismPtr> create_discrete_gaussian(const Arguments& arguments) {
  DPCALC_TRY(const double sensitivity,
             check_whole_number(arguments.number("sensitivity"), 1, kLargestLattice, "sensitivity"));
  DPCALC_TRY(const double sigma, check_noise(arguments.number("sigma"), sensitivity, "sigma"));
  if (!(sigma >= 0.01)) {
    return invalid_argument("sigma", "σ must be at least 0.01 " + got(sigma) +
                                         ": below that the discrete Gaussian is the constant 0 within double "
                                         "precision and adds no noise.");
  }
  if (!(lattice_size(sigma, sensitivity) <= kLargestLattice)) {
    return invalid_argument("sigma", "A discrete Gaussian with σ = " + format_number(sigma) +
                                         " and Δ = " + format_number(sensitivity) + " needs more than " +
                                         format_number(kLargestLattice) +
                                         " lattice points for its exact privacy loss; σ up to about 360 "
                                         "(with a small Δ) is supported.");
  }
  return MechanismPtr{std::make_shared<DiscreteGaussian>(arguments)};
}

}  // namespace

const MechanismType& discrete_gaussian_type() {
  static const MechanismType type{
      "discrete_gaussian",
      "discrete Gaussian mechanism",
      "discrete Gaussian noise P(x) ∝ e^{−x²/(2σ²)} on the integers, on an integer query of sensitivity Δ: "
      "Δ²/(2σ²)-zCDP, exact privacy loss distribution",
      {Parameter::number("sigma", "noise parameter σ (≥ 0.01)"),
       Parameter::number("sensitivity", "sensitivity Δ, a whole number ≥ 1", 1.0)},
      {{"sigma", "sigma", false}},
      create_discrete_gaussian,
      {"Discrete Gaussian mechanism at sensitivity kΔ: its exact privacy loss distribution (a group of k sees "
       "kΔ)",
       "Canonne, Kamath, Steinke 2020", "canonne2020discrete"},
      true};
  return type;
}

}  // namespace dpcalc::mechanisms
