#include "dpcalc/rdp/rdp_function.hpp"

#include <algorithm>
#include <cstddef>

namespace dpcalc::rdp {

std::vector<double> monotone_envelope(const std::vector<double>& orders, std::vector<double> epsilons) {
  const std::size_t count = std::min(orders.size(), epsilons.size());
  for (std::size_t i = count; i-- > 1;) {
    // A NaN is left as it is (and leaves the orders below it to their own values).
    if (epsilons[i] < epsilons[i - 1]) epsilons[i - 1] = epsilons[i];
  }
  return epsilons;
}

}  // namespace dpcalc::rdp
