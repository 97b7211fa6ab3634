#include "dpcalc/closed_form/group_privacy.hpp"

#include <cfloat>
#include <cmath>
#include <limits>
#include <utility>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc {

PureDp group_privacy(const PureDp& guarantee, double group_size) {
  return PureDp{multiply_up(group_size, guarantee.epsilon)};
}

ApproxDp group_privacy(const ApproxDp& guarantee, double group_size) {
  if (group_size == 1) return guarantee;
  const double epsilon = multiply_up(group_size, guarantee.epsilon);
  if (guarantee.delta == 0) return ApproxDp{epsilon, 0};
  // (e^{k eps} − 1)/(e^{eps} − 1) → k as eps → 0.
  if (guarantee.epsilon == 0) return ApproxDp{0, std::fmin(1.0, multiply_up(group_size, guarantee.delta))};
  // (e^{k eps} − 1)/(e^{eps} − 1) directly while it is finite, each factor within a few ulps.
  const double growth = std::expm1(epsilon) / std::expm1(guarantee.epsilon);
  double delta;
  if (std::isfinite(growth)) {
    delta = guarantee.delta * growth * (1 + 8 * DBL_EPSILON);
  } else {
    // e^{k eps} overflows for k eps > 709 while the bound is still meaningful for delta small
    // enough: log space. Each log carries a few ulps of its own size, which exp turns into a
    // relative error.
    const double log_delta_in = std::log(guarantee.delta);
    const double log_growth = log_expm1(epsilon);
    const double log_denominator = log_expm1(guarantee.epsilon);
    const double log_error =
        4 * DBL_EPSILON * (std::fabs(log_delta_in) + std::fabs(log_growth) + std::fabs(log_denominator) + 1);
    delta = std::exp(log_delta_in + log_growth - log_denominator + log_error);
  }
  // Among the subnormals the relative margin is lost: one more step up keeps the bound.
  if (delta < DBL_MIN) delta = std::nextafter(delta, kInfinity);
  return ApproxDp{epsilon, std::fmin(1.0, delta)};
}

Zcdp group_privacy(const Zcdp& guarantee, double group_size) {
  return Zcdp{multiply_up(multiply_up(group_size, group_size), guarantee.rho)};
}

Result<RdpGroupResult> group_privacy(const RdpCurve& curve, double group_size) {
  if (group_size == 1) return RdpGroupResult{curve, 1, 0};
  // A group of size k is within distance 2^c for the smallest c with 2^c >= k.
  double power_of_two = 1;
  double three_to_c = 1;
  while (power_of_two < group_size) {
    power_of_two *= 2;
    three_to_c = multiply_up(three_to_c, 3);  // exact up to 3^33, rounded up beyond
  }
  RdpCurve grouped;
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    if (curve.orders[i] < 2 * power_of_two) {
      ++dropped;
      continue;
    }
    // Division by a power of two is exact.
    grouped.orders.push_back(curve.orders[i] / power_of_two);
    grouped.epsilons.push_back(multiply_up(curve.epsilons[i], three_to_c));
  }
  if (grouped.orders.empty()) {
    return Error{kUnsupported, "orders",
                 "Mironov's group property for a group of " + format_number(group_size) +
                     " needs orders >= " + format_number(2 * power_of_two) +
                     " (twice the next power of two), and the curve has none. " + "Add larger orders."};
  }
  for (std::size_t j = 0; j < grouped.epsilons.size(); ++j) {
    if (std::isinf(grouped.epsilons[j])) {
      // Output j comes from input order j + dropped; name that input's epsilon.
      return about_item(invalid_argument("epsilons", "ε at order " + format_number(curve.orders[j + dropped]) +
                                                         " is too large for a group of " + format_number(group_size) +
                                                         ": 3^c·ε = " + format_number(three_to_c) + " × " +
                                                         format_number(curve.epsilons[j + dropped]) +
                                                         " exceeds the largest double (about 1.8e308)."),
                        j + dropped);
    }
  }
  return RdpGroupResult{std::move(grouped), power_of_two, dropped};
}

GaussianGroupResult gaussian_group_privacy(double sigma, double sensitivity, double group_size, double delta) {
  // Both eps and rho increase with mu, so mu is rounded up.
  const double mu = divide_up(multiply_up(group_size, sensitivity), sigma);
  return GaussianGroupResult{ApproxDp{gaussian_epsilon_for_delta(mu, delta), delta}, Zcdp{multiply_up(mu, mu) / 2}};
}

}  // namespace dpcalc
