#include "dpcalc/audit/claim_tradeoff.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/audit/normal_bounds.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::audit {
namespace {

Result<double> check_rate_argument(double rate) {
  if (!(rate >= 0 && rate <= 1)) {
    return invalid_argument("false_positive_rate", "The false-positive rate must be from 0 to 1 " + got(rate) + ".");
  }
  return rate;
}

}  // namespace

Result<double> approx_dp_allowed_tpr(double epsilon, double delta, double false_positive_rate) {
  if (!(epsilon >= 0) || std::isinf(epsilon)) {
    return invalid_argument("epsilon", "ε must be a finite number, 0 or more " + got(epsilon) + ".");
  }
  if (!(delta >= 0 && delta <= 1)) {
    return invalid_argument("delta", "δ must be from 0 to 1 " + got(delta) + ".");
  }
  DPCALC_TRY(const double rate, check_rate_argument(false_positive_rate));
  // e^ε FPR + δ: e^ε rounded up (an ulp), the product and the sum rounded up; an overflow of e^ε
  // leaves the other line.
  const double growth = tradeoff::round_up(std::exp(epsilon), 2);
  const double steep = std::isfinite(growth) ? tradeoff::round_up(delta + multiply_up(growth, rate), 1) : 1.0;
  // 1 − e^−ε (1 − δ − FPR) = (1 − e^−ε) + e^−ε (δ + FPR): nonnegative terms, 8 roundings and ulps.
  const double flat = tradeoff::round_up(-std::expm1(-epsilon) + std::exp(-epsilon) * (delta + rate), 8);
  return std::min({1.0, steep, flat});
}

Result<double> gaussian_dp_allowed_tpr(double mu, double false_positive_rate) {
  if (!(mu >= 0) || std::isinf(mu)) {
    return invalid_argument("mu", "μ must be a finite number, 0 or more " + got(mu) + ".");
  }
  DPCALC_TRY(const double rate, check_rate_argument(false_positive_rate));
  if (rate == 0 || rate == 1 || mu == 0) return rate;  // Φ(−∞) = 0, Φ(∞) = 1, G_0 is the diagonal
  const double z = normal_quantile_up(rate);
  const double t = z + mu;
  // The sum is within u of its value.
  return normal_cdf_up(t, kUnitRoundoff * std::fabs(t));
}

}  // namespace dpcalc::audit
