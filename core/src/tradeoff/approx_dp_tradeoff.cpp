#include "dpcalc/tradeoff/approx_dp_tradeoff.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

// Upper bound on min(1, delta + e^eps alpha, 1 - e^-eps (1 - delta - alpha)). The second line is
// written as (1 - e^-eps) + e^-eps (delta + alpha), a sum of nonnegative terms.
double tpr_upper(double epsilon, double delta, double alpha) {
  if (!(delta < 1)) return 1;
  const double scaled =
      alpha == 0 ? 0.0 : exp_up(epsilon + std::log(alpha), 2 * kUnit * (epsilon + std::fabs(std::log(alpha))));
  const double steep = round_up(delta + scaled, 1);
  const double flat = round_up(-std::expm1(-epsilon) + std::exp(-epsilon) * (delta + alpha), 8);
  return std::min({1.0, steep, flat});
}

}  // namespace

Result<TradeoffResult> approx_dp_tradeoff(const ApproxDp& guarantee, const TradeoffOptions& options) {
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  const double epsilon = guarantee.epsilon, delta = std::min(guarantee.delta, 1.0);
  CurveSource source;
  source.evaluate = [epsilon, delta](const std::vector<double>& alphas) {
    TprBounds bounds;
    for (double alpha : alphas) bounds.upper.push_back(tpr_upper(epsilon, delta, alpha));
    return bounds;
  };
  source.advantage = std::min(1.0, round_up(delta + (1 - delta) * std::tanh(epsilon / 2), 6));
  source.likelihood_ratio = delta > 0 ? kInfinity : exp_up(epsilon, 0);
  source.method = kApproxDpTradeoff;
  return summarize(source, checked);
}

}  // namespace dpcalc::tradeoff
