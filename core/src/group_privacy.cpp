#include "dpcalc/group_privacy.hpp"

#include <cmath>

#include "dpcalc/analytic_gaussian.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc {

PureDp group_privacy(const PureDp& guarantee, double group_size) { return PureDp{group_size * guarantee.epsilon}; }

ApproxDp group_privacy(const ApproxDp& guarantee, double group_size) {
  const double epsilon = group_size * guarantee.epsilon;
  if (guarantee.delta == 0) return ApproxDp{epsilon, 0};
  if (guarantee.epsilon == 0) return ApproxDp{0, std::fmin(1.0, group_size * guarantee.delta)};
  // log(delta · (e^{k eps} − 1)/(e^{eps} − 1)): e^{k eps} overflows for k eps > 709.
  const double log_delta =
      std::log(guarantee.delta) + log_expm1(epsilon) - log_expm1(guarantee.epsilon);
  return ApproxDp{epsilon, log_delta >= 0 ? 1.0 : std::exp(log_delta)};
}

Zcdp group_privacy(const Zcdp& guarantee, double group_size) { return Zcdp{group_size * group_size * guarantee.rho}; }

Result<RdpGroupResult> group_privacy(const RdpCurve& curve, double group_size, const std::string& field) {
  if (group_size == 1) return RdpGroupResult{curve, 1, 0};
  // A group of size k is a 2^c-stable transformation for the smallest c with 2^c >= k.
  double power_of_two = 1;
  double three_to_c = 1;
  while (power_of_two < group_size) {
    power_of_two *= 2;
    three_to_c *= 3;
  }
  RdpCurve grouped;
  std::size_t dropped = 0;
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    if (curve.orders[i] < 2 * power_of_two) {
      ++dropped;
      continue;
    }
    grouped.orders.push_back(curve.orders[i] / power_of_two);
    grouped.epsilons.push_back(curve.epsilons[i] * three_to_c);
  }
  if (grouped.orders.empty()) {
    return Error{kUnsupported, field,
                 "Mironov's group property for a group of " + std::to_string(static_cast<long long>(group_size)) +
                     " needs orders >= " + std::to_string(static_cast<long long>(2 * power_of_two)) +
                     "; the curve has none. Add larger orders."};
  }
  return RdpGroupResult{std::move(grouped), power_of_two, dropped};
}

PureDp laplace_group_privacy(double scale, double sensitivity, double group_size) {
  return PureDp{group_size * sensitivity / scale};
}

GaussianGroupResult gaussian_group_privacy(double sigma, double sensitivity, double group_size, double delta) {
  const double group_sensitivity = group_size * sensitivity;
  const double mu = group_sensitivity / sigma;
  return GaussianGroupResult{ApproxDp{gaussian_epsilon_for_delta(mu, delta), delta},
                             Zcdp{group_sensitivity * group_sensitivity / (2 * sigma * sigma)}};
}

}  // namespace dpcalc
