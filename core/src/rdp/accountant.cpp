#include "dpcalc/rdp/accountant.hpp"

#include <cmath>
#include <cstring>

#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/rdp_function.hpp"

namespace dpcalc::rdp {

std::vector<double> compose(const std::vector<mechanisms::Use>& uses, const std::vector<double>& orders) {
  std::vector<double> total(orders.size(), 0.0);
  for (const mechanisms::Use& use : uses) {
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const double epsilon = *use.mechanism->rdp_epsilon(orders[i]);
      // A NaN says nothing: the order is unusable. count·ε and the running sum are rounded up.
      total[i] = add_up(total[i], std::isnan(epsilon) ? kInfinity : multiply_up(use.count, epsilon));
    }
  }
  // D_α is non-decreasing in α: each order may take the bound of a larger one (an order whose own
  // bound is infinite among them).
  for (std::size_t i = 1; i < orders.size(); ++i) {
    if (!(orders[i] > orders[i - 1])) return total;
  }
  return monotone_envelope(orders, std::move(total));
}

std::vector<MethodInfo> methods_cited(const std::vector<mechanisms::Use>& uses) {
  std::vector<MethodInfo> methods;
  for (const mechanisms::Use& use : uses) {
    const MethodInfo method = use.mechanism->rdp_method();
    bool seen = false;
    for (const MethodInfo& known : methods) seen = seen || std::strcmp(known.method, method.method) == 0;
    if (!seen) methods.push_back(method);
  }
  return methods;
}

Result<RdpToApprox> to_approx(const std::vector<double>& orders, const std::vector<double>& epsilons, double delta) {
  RdpCurve finite;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (std::isfinite(epsilons[i])) {
      finite.orders.push_back(orders[i]);
      finite.epsilons.push_back(epsilons[i]);
    }
  }
  const RdpConversion conversion =
      finite.orders.empty() ? RdpConversion{ApproxDp{kInfinity, delta}, 0, 0, false} : rdp_to_approx(finite, delta);
  if (!std::isfinite(conversion.guarantee.epsilon)) {
    return Error{kNumeric, "orders",
                 "No Rényi order gives a finite bound for these parameters; add orders closer to 1 (orders above "
                 "1: the KL divergence alone bounds δ only through the total variation distance)."};
  }
  return RdpToApprox{conversion.guarantee, conversion.order};
}

}  // namespace dpcalc::rdp
