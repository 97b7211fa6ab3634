#include "dpcalc/rdp/accountant.hpp"

#include <cmath>

#include "dpcalc/closed_form/conversions.hpp"

namespace dpcalc::rdp {

std::vector<double> compose(const std::vector<mechanisms::Use>& uses, const std::vector<double>& orders) {
  std::vector<double> total(orders.size(), 0.0);
  for (const mechanisms::Use& use : uses) {
    for (std::size_t i = 0; i < orders.size(); ++i) total[i] += use.count * *use.mechanism->rdp_epsilon(orders[i]);
  }
  return total;
}

Result<RdpToApprox> to_approx(const std::vector<double>& orders, const std::vector<double>& epsilons, double delta) {
  RdpCurve finite;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (std::isfinite(epsilons[i])) {
      finite.orders.push_back(orders[i]);
      finite.epsilons.push_back(epsilons[i]);
    }
  }
  if (finite.orders.empty()) {
    return Error{kNumeric, "orders",
                 "No Rényi order gives a finite bound for these parameters; add orders closer to 1."};
  }
  const RdpConversion conversion = rdp_to_approx(finite, delta);
  return RdpToApprox{conversion.guarantee, conversion.order};
}

}  // namespace dpcalc::rdp
