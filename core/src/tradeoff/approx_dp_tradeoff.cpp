#include "dpcalc/tradeoff/approx_dp_tradeoff.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

// Upper bound on min(1, delta + e^eps alpha, 1 - e^-eps (1 - delta - alpha)). The second line is
// written as (1 - e^-eps) + e^-eps (delta + alpha), a sum of nonnegative terms. The factors that do
// not depend on alpha are computed once.
class TprUpper {
 public:
  TprUpper(double epsilon, double delta)
      : epsilon_(epsilon),
        delta_(delta),
        growth_(exp_up(epsilon, 0)),
        complement_(-std::expm1(-epsilon)),
        decay_(std::exp(-epsilon)) {}

  double operator()(double alpha) const {
    if (!(delta_ < 1)) return 1;
    // e^eps alpha: e^eps rounded up once (the product rounded up, two subnormal ulps where rounding
    // is absolute); where e^eps overflows, e^{eps + log alpha}.
    double scaled = 0;
    if (alpha > 0 && std::isfinite(growth_)) {
      scaled = round_up(growth_ * alpha, 1) + 2 * kSubnormalUlp;
    } else if (alpha > 0) {
      scaled = exp_up(epsilon_ + std::log(alpha), 2 * kUnit * (epsilon_ + std::fabs(std::log(alpha))));
    }
    const double steep = round_up(delta_ + scaled, 1);
    const double flat = round_up(complement_ + decay_ * (delta_ + alpha), 8);
    return std::min({1.0, steep, flat});
  }

 private:
  double epsilon_, delta_, growth_, complement_, decay_;
};

}  // namespace

Result<TradeoffResult> approx_dp_tradeoff(const ApproxDp& guarantee, const TradeoffOptions& options) {
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  const double epsilon = guarantee.epsilon, delta = std::min(guarantee.delta, 1.0);
  CurveSource source;
  source.evaluate = [epsilon, delta](const std::vector<double>& alphas) {
    const TprUpper tpr_upper(epsilon, delta);
    TprBounds bounds;
    bounds.upper.reserve(alphas.size());
    for (double alpha : alphas) bounds.upper.push_back(tpr_upper(alpha));
    return bounds;
  };
  source.advantage = std::min(1.0, round_up(delta + (1 - delta) * std::tanh(epsilon / 2), 6));
  source.likelihood_ratio = delta > 0 ? kInfinity : exp_up(epsilon, 0);
  source.method = kApproxDpTradeoff;
  TradeoffResult result = summarize(source, checked);
  result.gdp = delta == 0 ? pure_gdp_bound(epsilon)
                          : no_gdp_bound(
                                "An (ε, δ) guarantee with δ > 0 lets δ(ε) stay at δ as ε grows (a "
                                "mass δ may reveal the record), so it is μ-GDP for no finite μ.");
  return result;
}

}  // namespace dpcalc::tradeoff
