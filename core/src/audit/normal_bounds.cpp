#include "dpcalc/audit/normal_bounds.hpp"

#include <boost/math/special_functions/erf.hpp>
#include <cfloat>
#include <cmath>
#include <limits>

#include "dpcalc/floating_point.hpp"

namespace dpcalc::audit {
namespace {

constexpr double kSqrtTwo = 1.41421356237309504880;
constexpr double kHalfSqrtTwo = 0.70710678118654752440;

// Φ⁻¹(p) as computed, and its error bound. The smaller of p and 1 − p goes to erfc_inv (1 − p is exact
// for p ≥ 1/2, Sterbenz), so the tail that matters keeps its relative precision; 2p is exact.
struct QuantileEstimate {
  double value;
  double error;
};
QuantileEstimate normal_quantile_estimate(double p) {
  const double z = p <= 0.5 ? -kSqrtTwo * boost::math::erfc_inv(2 * p) : kSqrtTwo * boost::math::erfc_inv(2 * (1 - p));
  return {z, 64 * kUnitRoundoff * (std::fabs(z) + 1)};
}

}  // namespace

double normal_quantile_down(double p) {
  if (!(p > 0)) return -std::numeric_limits<double>::infinity();
  if (!(p < 1)) return std::numeric_limits<double>::infinity();
  const QuantileEstimate z = normal_quantile_estimate(p);
  // Boost reports an error as NaN: say nothing (−inf is below every quantile).
  if (std::isnan(z.value)) return -std::numeric_limits<double>::infinity();
  return z.value - z.error;
}

double normal_quantile_up(double p) {
  if (!(p > 0)) return -std::numeric_limits<double>::infinity();
  if (!(p < 1)) return std::numeric_limits<double>::infinity();
  const QuantileEstimate z = normal_quantile_estimate(p);
  if (std::isnan(z.value)) return std::numeric_limits<double>::infinity();
  return z.value + z.error;
}

double normal_cdf_up(double t, double t_error) {
  if (t == -std::numeric_limits<double>::infinity()) return 0;
  if (!(t + t_error < 40)) return 1;  // Φ(40) rounds to 1, and so does every bound above it
  // The argument is moved up by the caller's error and by the rounding of −t/√2 (2u relative).
  const double shifted = t + t_error + 4 * kUnitRoundoff * (std::fabs(t) + t_error);
  const double value = 0.5 * boost::math::erfc(-shifted * kHalfSqrtTwo);
  if (std::isnan(value)) return 1;
  // DBL_MIN covers a value erfc rounded to 0 or into the subnormal range.
  const double upper = value * (1 + 34 * kUnitRoundoff) + DBL_MIN;
  return upper < 1 ? upper : 1.0;
}

}  // namespace dpcalc::audit
