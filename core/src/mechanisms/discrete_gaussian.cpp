// Discrete Gaussian noise (Canonne, Kamath, Steinke 2020, "The Discrete Gaussian for Differential
// Privacy"): P(x) = e^{−x²/(2σ²)}/Z on the integers, added to an integer query of sensitivity Δ (a
// whole number). It is Δ²/(2σ²)-zCDP (ibid., Thm 4), so its Rényi divergence of order α is at most
// αΔ²/(2σ²). Its exact pair (N + Δ, N) has privacy loss (2xΔ − Δ²)/(2σ²) at the outcome x: linear in
// x, so the PLD is exact on the lattice (under either relation, Δ the sensitivity for the relation
// at hand). Its Rényi DP curve is that pair's divergence, at most αΔ²/(2σ²) (rdp/discrete_rdp.hpp).
// A group of k records sees kΔ: op 'group' composes that exact pair (tighter than k²ρ converted).
//
// Truncated (`truncation_bound` T, as dp_accounting's DiscreteGaussianPrivacyLoss): the noise is the
// discrete Gaussian conditioned on [−T, T], P(x) = e^{−x²/(2σ²)}/Z_T there. The pair (N_T + Δ, N_T)
// is then exact with no cut: at the outcomes in (T, T + Δ] only P has mass (loss +∞: a δ that no ε
// removes), at those in [−T, Δ − T) only Q (loss −∞). Below 2T < Δ the supports are disjoint and the
// mechanism reveals which input it saw (δ = 1 at every ε). With mass at +∞ its Rényi divergences of
// every order ≥ 1 are infinite, so it is not zCDP: only the PLD route answers it. A bound T beyond
// the window below is the untruncated lattice in double precision (the conditioned mass differs by
// less than 10^{−37}), cut as below.
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
#include "dpcalc/mechanisms/no_noise.hpp"
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

// The half-width of the lattice the pair keeps: the window, or the truncation bound where that is smaller.
double half_width(double sigma, std::optional<double> truncation_bound) {
  const double window = std::ceil(sigma * kTailSigmas) + 1;
  return truncation_bound ? std::fmin(*truncation_bound, window) : window;
}
double lattice_size(double sigma, double sensitivity, std::optional<double> truncation_bound) {
  return 2 * half_width(sigma, truncation_bound) + sensitivity + 3;
}
// Whether the pair on [−T, Δ + T] is the truncated noise itself (no mass cut beyond a window).
bool truncated_within_window(double sigma, std::optional<double> truncation_bound) {
  return truncation_bound && *truncation_bound < std::ceil(sigma * kTailSigmas) + 1;
}

class DiscreteGaussian final : public Mechanism {
 public:
  explicit DiscreteGaussian(const Arguments& arguments)
      : Mechanism(discrete_gaussian_type(), arguments),
        sigma_(arguments.number("sigma")),
        sensitivity_(arguments.number("sensitivity")),
        truncation_bound_(arguments.optional_number("truncation_bound")) {}

  bool has_pair(Relation) const override { return true; }

  pld::DominatingPair pair_under(Relation) const override {
    const long long t = static_cast<long long>(half_width(sigma_, truncation_bound_)),
                    delta = static_cast<long long>(sensitivity_);
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
    pld::FinitePair pair;
    // The truncated noise has no mass outside [−T, T]: outcome x has P-mass only where x − Δ is in
    // it and Q-mass only where x is. The window's noise has mass everywhere, its tail bounded below.
    const bool truncated = truncated_within_window(sigma_, truncation_bound_);
    for (long long x = -t; x <= delta + t; ++x) {
      pair.p.push_back(!truncated || (x - delta >= -t && x - delta <= t) ? weight(x - delta) / z : 0.0);
      pair.q.push_back(!truncated || x <= t ? weight(x) / z : 0.0);
    }
    if (!truncated) {
      // Beyond the window: at most this much of each distribution, at loss ±∞ (see the file's head).
      const double td = static_cast<double>(t);
      const double cut = std::exp(std::log(2 * sigma_ * sigma_ / td) - td * td / two_variance) / z;
      pair.p.insert(pair.p.end(), {cut, 0.0});
      pair.q.insert(pair.q.end(), {0.0, cut});
    }
    return {std::move(pair), 1.0};
  }

  // Δ²/(2σ²) rounded up (2σ² is within half an ulp, which the last step up covers). The truncated
  // noise has none (its loss is +∞ with positive probability).
  std::optional<Zcdp> zcdp() const override {
    if (truncation_bound_) return std::nullopt;
    const double rho = divide_up(multiply_up(sensitivity_, sensitivity_), 2 * sigma_ * sigma_);
    return Zcdp{std::nextafter(rho, std::numeric_limits<double>::infinity())};
  }
  std::optional<double> rdp_epsilon(double order) const override {
    if (truncation_bound_) return std::nullopt;
    return rdp::discrete_gaussian_rdp(sigma_, sensitivity_, order);
  }
  MethodInfo rdp_method() const override {
    return truncation_bound_ ? MethodInfo{"", "", ""} : rdp::kDiscreteGaussianRdp;
  }
  std::pair<std::string, std::string> unbounded_loss() const override {
    if (!truncation_bound_) return {};
    return {"The truncated discrete Gaussian (truncation_bound " + format_number(*truncation_bound_) +
                ") has infinite privacy loss with positive probability (where the shifted noise leaves [−T, T]), so "
                "it has no finite Rényi DP or zCDP bound; compose it with method 'pld', which counts that mass in δ.",
            "truncation_bound"};
  }
  double sensitivity() const override { return sensitivity_; }

  Result<MechanismPtr> for_group(double group_size) const override {
    if (!(lattice_size(sigma_, group_size * sensitivity_, truncation_bound_) <= kLargestLattice)) {
      return not_supported(*this, "has a group transform only while its lattice at k·Δ has at most " +
                                      format_number(kLargestLattice) + " outcomes");
    }
    Arguments grouped = arguments();
    grouped.numbers["sensitivity"] = group_size * sensitivity_;
    return create(discrete_gaussian_type(), std::move(grouped));
  }

 private:
  double sigma_, sensitivity_;
  std::optional<double> truncation_bound_;
};

Result<MechanismPtr> create_discrete_gaussian(const Arguments& arguments) {
  DPCALC_TRY(const double sensitivity,
             check_whole_number(arguments.number("sensitivity"), 1, kLargestLattice, "sensitivity"));
  if (arguments.number("sigma") == 0) return no_noise(discrete_gaussian_type(), arguments, "sigma", sensitivity);
  DPCALC_TRY(const double sigma, check_noise(arguments.number("sigma"), sensitivity, "sigma"));
  if (!(sigma >= 0.01)) {
    return invalid_argument("sigma", "σ must be at least 0.01 " + got(sigma) +
                                         ": below that the discrete Gaussian is the constant 0 within double "
                                         "precision and adds no noise.");
  }
  std::optional<double> truncation_bound = arguments.optional_number("truncation_bound");
  if (truncation_bound) {
    DPCALC_TRY(truncation_bound, check_whole_number(*truncation_bound, 0, kMaxCount, "truncation_bound"));
  }
  if (!(lattice_size(sigma, sensitivity, truncation_bound) <= kLargestLattice)) {
    return invalid_argument("sigma", "A discrete Gaussian with σ = " + format_number(sigma) +
                                         " and Δ = " + format_number(sensitivity) + " needs more than " +
                                         format_number(kLargestLattice) +
                                         " lattice points for its exact privacy loss; σ up to about 360 "
                                         "(with a small Δ), or a truncation_bound up to about 5000, is supported.");
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
      {Parameter::number("sigma", "noise parameter σ (≥ 0.01, or 0: no noise)"),
       Parameter::number("sensitivity", "sensitivity Δ, a whole number ≥ 1", 1.0),
       Parameter::optional_number("truncation_bound",
                                  "T, a whole number ≥ 0: the noise restricted to [−T, T] (as dp_accounting's); "
                                  "left out, not truncated")},
      {{"sigma", "sigma", false}},
      create_discrete_gaussian,
      {"Discrete Gaussian mechanism at sensitivity kΔ: its exact privacy loss distribution (a group of k sees "
       "kΔ)",
       "Canonne, Kamath, Steinke 2020", "canonne2020discrete"},
      true};
  return type;
}

}  // namespace dpcalc::mechanisms
