#include "dpcalc/conversions.hpp"

#include <cmath>
#include <limits>

namespace dpcalc {
namespace {

// Covers the rounding of a few floating-point operations, so reported bounds never fall below the
// formula's exact value.
constexpr double kRoundUp = 1 + 1e-14;

// Canonne, Kamath, Steinke 2020, Cor 13 at one order alpha > 1 (valid at every alpha).
double cks_epsilon(double rho, double log_delta, double alpha) {
  const double alpha_minus_one = alpha - 1;
  return alpha * rho + (alpha * std::log1p(-1 / alpha) - std::log(alpha_minus_one) - log_delta) / alpha_minus_one;
}

}  // namespace

Zcdp pure_to_zcdp(const PureDp& guarantee) { return Zcdp{guarantee.epsilon * guarantee.epsilon / 2}; }

Zcdp gaussian_to_zcdp(double sigma, double sensitivity) {
  return Zcdp{sensitivity * sensitivity / (2 * sigma * sigma)};
}

ApproxDp zcdp_to_approx_bun_steinke(const Zcdp& guarantee, double delta) {
  return ApproxDp{(guarantee.rho + 2 * std::sqrt(guarantee.rho * std::log(1 / delta))) * kRoundUp, delta};
}

ApproxDp zcdp_to_approx_canonne_kamath_steinke(const Zcdp& guarantee, double delta) {
  const double rho = guarantee.rho;
  const double log_delta = std::log(delta);
  if (rho == 0) return ApproxDp{0, delta};
  // Search x = log(alpha − 1) on a grid, then refine by golden section around the best point;
  // whatever alpha is found, the value there is a valid bound.
  constexpr double kLow = -12;
  constexpr double kHigh = 30;
  constexpr int kGridPoints = 85;
  const double step = (kHigh - kLow) / (kGridPoints - 1);
  const auto value_at = [&](double x) { return cks_epsilon(rho, log_delta, 1 + std::exp(x)); };
  double best_x = kLow;
  double best = value_at(kLow);
  for (int i = 1; i < kGridPoints; ++i) {
    const double x = kLow + i * step;
    const double value = value_at(x);
    if (value < best) {
      best = value;
      best_x = x;
    }
  }
  constexpr double kInverseGolden = 0.6180339887498949;
  double a = best_x - step;
  double b = best_x + step;
  double c = b - kInverseGolden * (b - a);
  double d = a + kInverseGolden * (b - a);
  double value_c = value_at(c);
  double value_d = value_at(d);
  for (int i = 0; i < 60; ++i) {
    if (value_c < value_d) {
      b = d;
      d = c;
      value_d = value_c;
      c = b - kInverseGolden * (b - a);
      value_c = value_at(c);
    } else {
      a = c;
      c = d;
      value_c = value_d;
      d = a + kInverseGolden * (b - a);
      value_d = value_at(d);
    }
  }
  best = std::fmin(best, std::fmin(value_c, value_d));
  return ApproxDp{std::fmax(0.0, best * kRoundUp), delta};
}

RdpConversion rdp_to_approx(const RdpCurve& curve, double delta) {
  const double log_delta = std::log(delta);
  double best = std::numeric_limits<double>::infinity();
  std::size_t best_index = 0;
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    const double alpha = curve.orders[i];
    const double epsilon =
        curve.epsilons[i] + std::log1p(-1 / alpha) - (log_delta + std::log(alpha)) / (alpha - 1);
    if (epsilon < best) {
      best = epsilon;
      best_index = i;
    }
  }
  const bool at_boundary = best_index == 0 || best_index + 1 == curve.orders.size();
  return RdpConversion{ApproxDp{std::fmax(0.0, best * kRoundUp), delta}, curve.orders[best_index], best_index,
                       at_boundary};
}

}  // namespace dpcalc
