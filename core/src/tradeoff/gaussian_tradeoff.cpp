#include "dpcalc/tradeoff/gaussian_tradeoff.hpp"

#include <boost/math/special_functions/erf.hpp>
#include <cfloat>
#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;

// Phi(mu + Phi^-1(alpha)) for alpha in (0, 1), within a relative error bound. Phi^-1(alpha) =
// -sqrt(2) erfc_inv(2 alpha) and Phi(t) = erfc(-t / sqrt(2)) / 2; Boost's erfc_inv and erfc are
// within a few ulps, so z = Phi^-1(alpha) is taken within 64u (|z| + 1) and t = mu + z within
// another 4u |t|. An error dt in t moves log Phi(t) by at most (|t| + 2 + dt) dt, since
// d log Phi / dt = phi(t) / Phi(t) is below 0.8 for t >= 0 and below |t| + 1/|t| for t < 0 (Mills'
// ratio), which is below |t| + 2 for every t; erfc itself adds 32u.
struct BoundedTpr {
  double value;
  double relative_error;
};
BoundedTpr gaussian_tpr(double mu, double alpha) {
  const double z = -boost::math::erfc_inv(2 * alpha) / kSqrtHalf;
  const double t = mu + z;
  const double value = 0.5 * boost::math::erfc(-t * kSqrtHalf);
  const double shift = 64 * kUnit * (std::fabs(z) + 1) + 4 * kUnit * std::fabs(t);
  return {value, std::expm1((std::fabs(t) + 2 + shift) * shift) * (1 + 1e-6) + 32 * kUnit};
}

TprBounds evaluate(double mu, const std::vector<double>& alphas) {
  TprBounds bounds;
  for (double alpha : alphas) {
    if (alpha == 0 || alpha == 1 || mu == 0) {  // exact: Phi(-inf) = 0, Phi(inf) = 1, G_0(alpha) = 1 - alpha
      bounds.upper.push_back(alpha);
      bounds.lower.push_back(alpha);
      continue;
    }
    const BoundedTpr tpr = gaussian_tpr(mu, alpha);
    if (std::isnan(tpr.value) || std::isnan(tpr.relative_error)) {  // Boost reported an error: say nothing
      bounds.upper.push_back(1);
      bounds.lower.push_back(alpha);
      continue;
    }
    // DBL_MIN covers a TPR that erfc rounded to 0 below the double range.
    bounds.upper.push_back(tpr.value * (1 + tpr.relative_error) + DBL_MIN);
    bounds.lower.push_back(tpr.value * (1 - tpr.relative_error));
  }
  return bounds;
}

}  // namespace

Result<TradeoffResult> gaussian_tradeoff(double mu, const TradeoffOptions& options) {
  if (!(mu >= 0) || std::isinf(mu)) {
    return invalid_argument("mu", "μ must be a finite number, 0 or more " + got(mu) + ".");
  }
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  CurveSource source;
  source.evaluate = [mu](const std::vector<double>& alphas) { return evaluate(mu, alphas); };
  source.advantage = mu == 0 ? 0.0 : gaussian_delta_for_epsilon(mu, 0);
  source.likelihood_ratio = mu == 0 ? 1.0 : kInfinity;
  source.mu = mu;
  source.method = kGaussianTradeoff;
  return summarize(source, checked);
}

}  // namespace dpcalc::tradeoff
