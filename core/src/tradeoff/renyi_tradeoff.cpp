#include "dpcalc/tradeoff/renyi_tradeoff.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

// Error bounds below: each exponent is a handful of operations on terms whose magnitudes sum to
// at most the given total; 8u times that total covers them (libm's log, log1p and sqrt count 2u).

// Upper bound on the TPR from beta >= e^{lower_log_beta}: 1 - beta.
double tpr_from_log_beta(double log_beta, double error) { return one_minus_up(exp_down(log_beta, error)); }

// The best of the RDP orders (each order > 1 with epsilon >= 0 finite) at alpha in (0, 1). The
// exponents are compared first, each moved up by its error bound, and exponentiated once.
double rdp_tpr_upper(const std::vector<std::pair<double, double>>& orders, double alpha) {
  const double log_alpha = std::log(alpha), log_keep = std::log1p(-alpha);
  double steep = 0, flat = -kInfinity;  // exponents of the TPR bound and of the beta bound
  for (const auto& [order, epsilon] : orders) {
    const double exponent = (1 - 1 / order) * (log_alpha + epsilon);
    steep = std::min(steep, exponent + 8 * kUnit * (std::fabs(log_alpha) + epsilon) + 2 * kUnit * std::fabs(exponent));
    const double log_beta = order / (order - 1) * log_keep - epsilon;
    flat = std::max(flat, log_beta - 8 * kUnit * (std::fabs(log_beta) + 2 * epsilon) - 2 * kUnit * std::fabs(log_beta));
  }
  return std::min(exp_up(steep, 0), tpr_from_log_beta(flat, 0));
}

// log delta_lambda(0) = (lambda - 1) eps_lambda + (lambda - 1) log(1 - 1/lambda) - log(lambda), rounded up.
double order_log_delta_at_zero(double order, double epsilon) {
  const double spread = (order - 1) * epsilon, shape = (order - 1) * std::log1p(-1 / order), scale = std::log(order);
  return spread + shape - scale + 8 * kUnit * (spread + std::fabs(shape) + scale);
}

double zcdp_tpr_upper(double rho, double alpha) {
  if (rho == 0) return alpha;  // 0-zCDP: P = Q
  const double root_rho = std::sqrt(rho);
  const double log_inverse = -std::log(alpha);
  double tpr = 1;
  if (log_inverse > rho) {
    const double gap = std::sqrt(log_inverse) - root_rho;
    const double spread = std::sqrt(log_inverse) + root_rho;
    tpr = exp_up(-gap * gap, 8 * kUnit * spread * spread);
  }
  const double sum = std::sqrt(-std::log1p(-alpha)) + root_rho;
  return std::min(tpr, tpr_from_log_beta(-sum * sum, 8 * kUnit * sum * sum));
}

// TPR(0) = 0: a finite Renyi divergence of order > 1 makes P absolutely continuous with respect
// to Q, so a test that never fires without the record never fires with it. TPR(1) = 1.
template <class Bound>
TprBounds evaluate(const std::vector<double>& alphas, Bound bound) {
  TprBounds bounds;
  for (double alpha : alphas) bounds.upper.push_back(alpha == 0 || alpha == 1 ? alpha : bound(alpha));
  return bounds;
}

// Smallest value of f over log(lambda - 1) in [-30, 40] found by golden-section search (f need not
// be unimodal: every value is a valid bound, the search only looks for a small one).
double smallest_over_orders(const std::function<double(double)>& log_delta_of_order) {
  const double ratio = 0.6180339887498949;
  double a = -30, b = 40;
  auto f = [&](double s) { return log_delta_of_order(1 + std::exp(s)); };
  double c = b - ratio * (b - a), d = a + ratio * (b - a);
  double fc = f(c), fd = f(d), best = std::min(fc, fd);
  for (int i = 0; i < 80; ++i) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - ratio * (b - a);
      fc = f(c);
      best = std::min(best, fc);
    } else {
      a = c, c = d, fc = fd;
      d = a + ratio * (b - a);
      fd = f(d);
      best = std::min(best, fd);
    }
  }
  return best;
}

// Why a zCDP or Rényi bound gives no μ here.
constexpr const char* kNoRenyiGdp =
    "A zCDP or Rényi DP bound fixes the Rényi divergences, not the trade-off curve: the calculator certifies no "
    "μ-GDP from it (exactly Gaussian answers report μ; the PLDs of a composition of bounded losses give one).";

double advantage_from_log_delta(double log_delta) { return std::min(1.0, exp_up(log_delta, 0)); }

}  // namespace

Result<TradeoffResult> zcdp_tradeoff(const Zcdp& guarantee, const TradeoffOptions& options) {
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  const double rho = guarantee.rho;
  CurveSource source;
  source.evaluate = [rho](const std::vector<double>& alphas) {
    return evaluate(alphas, [rho](double alpha) { return zcdp_tpr_upper(rho, alpha); });
  };
  source.advantage = rho == 0 ? 0.0 : advantage_from_log_delta(smallest_over_orders([rho](double order) {
    return order_log_delta_at_zero(order, round_up(rho * order, 1));
  }));
  source.likelihood_ratio = rho == 0 ? 1.0 : kInfinity;
  source.method = kZcdpTradeoff;
  TradeoffResult result = summarize(source, checked);
  result.gdp = rho == 0 ? GdpBound{0.0, ""} : no_gdp_bound(kNoRenyiGdp);
  return result;
}

Result<TradeoffResult> rdp_tradeoff(const RdpCurve& curve, const TradeoffOptions& options) {
  DPCALC_TRY(const TradeoffOptions checked, check_options(options));
  // Orders with an infinite (unusable) bound say nothing and are skipped, and so are the orders 1
  // and +infinity a composed curve may carry (the bound below is for finite orders above 1).
  std::vector<std::pair<double, double>> orders;
  for (std::size_t i = 0; i < curve.orders.size() && i < curve.epsilons.size(); ++i) {
    if (curve.orders[i] > 1 && std::isfinite(curve.orders[i]) && curve.epsilons[i] >= 0 &&
        std::isfinite(curve.epsilons[i])) {
      orders.emplace_back(curve.orders[i], curve.epsilons[i]);
    }
  }
  CurveSource source;
  source.evaluate = [&orders](const std::vector<double>& alphas) {
    if (orders.empty()) return TprBounds{std::vector<double>(alphas.size(), 1.0), {}};
    return evaluate(alphas, [&orders](double alpha) { return rdp_tpr_upper(orders, alpha); });
  };
  double log_delta = 0;
  for (const auto& [order, epsilon] : orders) log_delta = std::min(log_delta, order_log_delta_at_zero(order, epsilon));
  source.advantage = advantage_from_log_delta(log_delta);
  source.method = kRdpTradeoff;
  TradeoffResult result = summarize(source, checked);
  // A finite ε at order ∞ is pure ε-DP.
  double pure = kInfinity;
  for (std::size_t i = 0; i < curve.orders.size() && i < curve.epsilons.size(); ++i) {
    if (std::isinf(curve.orders[i]) && curve.epsilons[i] >= 0) pure = std::min(pure, curve.epsilons[i]);
  }
  result.gdp = std::isfinite(pure) ? pure_gdp_bound(pure) : no_gdp_bound(kNoRenyiGdp);
  return result;
}

}  // namespace dpcalc::tradeoff
