#include "dpcalc/guarantees.hpp"

#include <cmath>

#include "dpcalc/checks.hpp"

namespace dpcalc {

Result<PureDp> PureDp::create(double epsilon, const std::string& prefix) {
  DPCALC_TRY(double eps, check_epsilon(epsilon, field_path(prefix, "epsilon")));
  return PureDp{eps};
}

Result<ApproxDp> ApproxDp::create(double epsilon, double delta, const std::string& prefix) {
  DPCALC_TRY(double eps, check_epsilon(epsilon, field_path(prefix, "epsilon")));
  DPCALC_TRY(double del, check_delta(delta, field_path(prefix, "delta")));
  return ApproxDp{eps, del};
}

Result<Zcdp> Zcdp::create(double rho, const std::string& prefix) {
  DPCALC_TRY(double r, check_rho(rho, field_path(prefix, "rho")));
  return Zcdp{r};
}

Result<RdpCurve> RdpCurve::create(std::vector<double> orders, std::vector<double> epsilons, const std::string& prefix) {
  const std::string orders_field = field_path(prefix, "orders");
  const std::string epsilons_field = field_path(prefix, "epsilons");
  if (orders.empty())
    return invalid_argument(orders_field, "The RDP curve needs at least one order (" + orders_field + " is empty).");
  if (orders.size() != epsilons.size()) {
    return invalid_argument(epsilons_field, epsilons_field + " must have one value per order (" +
                                                std::to_string(orders.size()) + " orders, " +
                                                std::to_string(epsilons.size()) + " epsilons).");
  }
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const std::string item = orders_field + "." + std::to_string(i);
    if (!(orders[i] > 1) || std::isinf(orders[i])) {
      return invalid_argument(item,
                              describe_field(item) + " must be a finite number greater than 1 " + got(orders[i]) + ".");
    }
    if (i > 0 && !(orders[i] > orders[i - 1])) {
      return invalid_argument(item, "The orders must be strictly increasing (" + item + " = " +
                                        format_number(orders[i]) + " follows " + format_number(orders[i - 1]) + ").");
    }
    DPCALC_TRY(double eps, check_epsilon(epsilons[i], epsilons_field + "." + std::to_string(i)));
    (void)eps;
  }
  return RdpCurve{std::move(orders), std::move(epsilons)};
}

}  // namespace dpcalc
