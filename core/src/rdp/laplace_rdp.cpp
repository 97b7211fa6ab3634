#include "dpcalc/rdp/laplace_rdp.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::rdp {
namespace {

// T of the header, rounded up (α ε₀ ≤ 1): the terms are bounded by (2/α)(αε₀)^k/k!, so the sum stops
// once that bound is below 2^-60 of it, and the rest is at most twice the bound.
double laplace_series_upper(double pure_epsilon, double order) {
  const double u = kUnitRoundoff;
  const double order_minus_one = order - 1;
  double sum = 0, magnitude = 0;
  double power = pure_epsilon;                  // ε₀^k/k!, from k = 1
  double of_order = 1, of_order_minus_one = 1;  // α^{k−1}, (α − 1)^{k−1}
  int k = 1;
  double bound = 0;
  for (;;) {
    ++k;
    power *= pure_epsilon / k;
    of_order *= order;
    of_order_minus_one *= order_minus_one;
    const double term = power * (of_order_minus_one + (k % 2 == 0 ? of_order : -of_order));
    sum += term;
    magnitude += std::fabs(term) + power * (of_order + of_order_minus_one);
    bound = 2 / order * std::pow(order * pure_epsilon, k + 1) / std::tgamma(k + 2.0);
    if (bound <= 0x1p-60 * std::fabs(sum) || k > 200) break;
  }
  return sum + 2 * bound + (3 * k + 6) * u * magnitude;
}

}  // namespace

double laplace_rdp(double pure_epsilon, double order) {
  const double u = kUnitRoundoff;
  if (!(pure_epsilon >= 0 && order >= 1)) return kInfinity;
  if (pure_epsilon == 0) return 0;
  if (order == kInfinity) return pure_epsilon;
  double value;
  if (order * pure_epsilon <= 1) {
    const double series = laplace_series_upper(pure_epsilon, order);
    const double scaled = divide_up(multiply_up(order, series), 2 * order - 1);  // αT/(2α − 1)
    const double v = multiply_up(order - 1, scaled);
    // log1p(v)/v ≤ 1, within 3u; v = 0 at α = 1, where the value is T itself (the KL divergence).
    const double ratio = v == 0 ? 1 : std::min(1.0, std::log1p(v) / v * (1 + 4 * u));
    value = multiply_up(ratio, scaled) * (1 + 4 * u);
  } else if (order == 1) {
    value = (pure_epsilon + std::expm1(-pure_epsilon)) * (1 + 8 * u);
  } else {
    // ε₀ + log1p(−w)/(α − 1), w = ((α − 1)/(2α − 1))(1 − e^{−(2α−1)ε₀}) ≤ 1/2: w within 6u
    // relative, log1p(−w) within 2w·6u + 2u|log1p(−w)|, and the final sum within u of its parts.
    const double order_minus_one = order - 1;
    const double w = order_minus_one / (2 * order - 1) * -std::expm1(-(2 * order - 1) * pure_epsilon);
    const double log_term = std::log1p(-w);
    const double correction = log_term / order_minus_one;
    const double error = (12 * u * w + 2 * u * std::fabs(log_term)) / order_minus_one * (1 + 4 * u) +
                         2 * u * (std::fabs(correction) + pure_epsilon);
    value = pure_epsilon + correction + error;
  }
  return std::min(std::nextafter(value, kInfinity), pure_epsilon);
}

}  // namespace dpcalc::rdp
