#include "dpcalc/dpsgd/pair_density.hpp"

#include <algorithm>
#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <variant>

#include "dpcalc/checks.hpp"

namespace dpcalc::dpsgd {
namespace {

// Half-width of the drawn range beyond the outermost shifts, in noise standard deviations.
constexpr double kReach = 4;

struct Mixture {
  const std::vector<double>& shifts;
  const std::vector<double>& weights;
};

// sum_j w_j N(x; shift_j, σ²), each normal density evaluated as exp(−z²/2)/(σ √(2π)).
double mixture_density(const Mixture& mixture, double sigma, double x) {
  const double scale = 1 / (sigma * boost::math::constants::root_two_pi<double>());
  double total = 0;
  for (std::size_t j = 0; j < mixture.shifts.size(); ++j) {
    const double z = (x - mixture.shifts[j]) / sigma;
    total += mixture.weights[j] * scale * std::exp(-0.5 * z * z);
  }
  return total;
}

}  // namespace

Result<PairDensities> pair_densities(const GroupSetting& setting, double noise_multiplier, double points) {
  DPCALC_TRY(const GroupSetting checked, check_setting(setting));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double count, check_whole_number(points, 2, kMaxDensityPoints, "points"));
  // 1/(σ √(2π)) must be finite for the densities to be numbers.
  if (!(sigma >= 1e-300)) {
    return invalid_argument("noise_multiplier", "The noise multiplier must be at least 1e-300 " +
                                                    got(noise_multiplier) + " for its densities to be finite.");
  }
  // The plotted range reaches kReach σ beyond the shifts: it must stay within the doubles.
  if (!(sigma <= 1e300)) {
    return invalid_argument("noise_multiplier", "The noise multiplier must be at most 1e300 " + got(noise_multiplier) +
                                                    " for the plotted range to be finite.");
  }
  const pld::DominatingPair pair = worst_case_pair(checked, sigma);
  static const std::vector<double> kOrigin{0}, kWhole{1};
  const auto* single = std::get_if<pld::MixtureVsGaussianPair>(&pair.base);
  const auto* both = std::get_if<pld::MixtureVsMixturePair>(&pair.base);
  const Mixture p = single ? Mixture{single->shifts, single->weights} : Mixture{both->p_shifts, both->p_weights};
  const Mixture q = single ? Mixture{kOrigin, kWhole} : Mixture{both->q_shifts, both->q_weights};
  const double pair_sigma = single ? single->sigma : both->sigma;
  const double low = std::min(*std::min_element(p.shifts.begin(), p.shifts.end()),
                              *std::min_element(q.shifts.begin(), q.shifts.end())) -
                     kReach * pair_sigma;
  const double high = std::max(*std::max_element(p.shifts.begin(), p.shifts.end()),
                               *std::max_element(q.shifts.begin(), q.shifts.end())) +
                      kReach * pair_sigma;
  PairDensities densities;
  const auto n = static_cast<int>(count);
  for (int i = 0; i < n; ++i) {
    const double x = low + (high - low) * i / (n - 1);
    densities.x.push_back(x);
    densities.p.push_back(mixture_density(p, pair_sigma, x));
    densities.q.push_back(mixture_density(q, pair_sigma, x));
  }
  return densities;
}

}  // namespace dpcalc::dpsgd
