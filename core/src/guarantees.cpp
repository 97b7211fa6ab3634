#include "dpcalc/guarantees.hpp"

#include <cmath>

#include "dpcalc/checks.hpp"

namespace dpcalc {

Result<PureDp> PureDp::create(double epsilon) {
  DPCALC_TRY(double eps, check_epsilon(epsilon, "epsilon"));
  return PureDp{eps};
}

Result<ApproxDp> ApproxDp::create(double epsilon, double delta) {
  DPCALC_TRY(double eps, check_epsilon(epsilon, "epsilon"));
  DPCALC_TRY(double del, check_delta(delta, "delta"));
  return ApproxDp{eps, del};
}

Result<Zcdp> Zcdp::create(double rho) {
  DPCALC_TRY(double r, check_rho(rho, "rho"));
  return Zcdp{r};
}

Result<RdpCurve> RdpCurve::create(std::vector<double> orders, std::vector<double> epsilons) {
  if (orders.empty()) return invalid_argument("orders", "The RDP curve needs at least one order (the list is empty).");
  if (orders.size() != epsilons.size()) {
    return invalid_argument("epsilons", "The RDP curve needs one ε per order (" + std::to_string(orders.size()) +
                                            " orders, " + std::to_string(epsilons.size()) + " values of ε).");
  }
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (!(orders[i] > 1) || std::isinf(orders[i])) {
      return about_item(
          invalid_argument("orders", "Each order must be a finite number greater than 1 " + got(orders[i]) + "."), i);
    }
    if (i > 0 && !(orders[i] > orders[i - 1])) {
      return about_item(
          invalid_argument("orders", "The orders must be strictly increasing (" + format_number(orders[i]) +
                                         " follows " + format_number(orders[i - 1]) + ")."),
          i);
    }
    if (auto epsilon = check_epsilon(epsilons[i], "epsilons"); !epsilon.ok()) return about_item(epsilon.error(), i);
  }
  return RdpCurve{std::move(orders), std::move(epsilons)};
}

}  // namespace dpcalc
