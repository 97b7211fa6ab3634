#include "dpcalc/analytic_gaussian.hpp"

#include <boost/math/special_functions/erf.hpp>
#include <cmath>

#include "dpcalc/log_math.hpp"

namespace dpcalc {
namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;
constexpr double kLogSqrtTwoPi = 0.91893853320467274178;

// log Φ(x). For x < -30, erfc underflows long before the probabilities we need do (delta down to
// 1e-300), so the asymptotic series of the Mills ratio is used:
//   Φ(x) = φ(x)/|x| · (1 − 1/x² + 3/x⁴ − 15/x⁶ + 105/x⁸ − …),
// whose next term is below 1e-26 relative for x² >= 900.
double log_normal_cdf(double x) {
  if (x > -30) return std::log(0.5 * boost::math::erfc(-x * kSqrtHalf));
  const double inverse_square = 1 / (x * x);
  const double series =
      1 - inverse_square * (1 - inverse_square * (3 - inverse_square * (15 - inverse_square * 105)));
  return -0.5 * x * x - std::log(-x) - kLogSqrtTwoPi + std::log(series);
}

// log delta(eps); -inf when delta(eps) is 0 in double precision.
double log_gaussian_delta(double mu, double epsilon) {
  const double log_first = log_normal_cdf(mu / 2 - epsilon / mu);
  const double log_second = epsilon + log_normal_cdf(-mu / 2 - epsilon / mu);
  return log_sub_exp(log_first, log_second);
}

}  // namespace

double gaussian_delta_for_epsilon(double mu, double epsilon) { return std::exp(log_gaussian_delta(mu, epsilon)); }

double gaussian_epsilon_for_delta(double mu, double delta) {
  const double log_target = std::log(delta);
  if (log_gaussian_delta(mu, 0) <= log_target) return 0;
  // delta(eps) decreases in eps: double an upper end, then bisect, keeping hi feasible.
  double lo = 0;
  double hi = 1;
  while (log_gaussian_delta(mu, hi) > log_target) {
    lo = hi;
    hi *= 2;
  }
  for (int i = 0; i < 200 && hi - lo > 4e-16 * hi; ++i) {
    const double mid = lo + (hi - lo) / 2;
    if (log_gaussian_delta(mu, mid) > log_target) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  // hi is feasible as evaluated; the margin covers the rounding of that evaluation.
  return hi * (1 + 1e-13);
}

}  // namespace dpcalc
