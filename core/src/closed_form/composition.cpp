#include "dpcalc/closed_form/composition.hpp"

#include <algorithm>

namespace dpcalc {

ApproxDp compose_basic(const std::vector<ComposedItem>& items) {
  ApproxDp total;
  for (const ComposedItem& item : items) {
    total.epsilon += item.count * item.guarantee.epsilon;
    total.delta += item.count * item.guarantee.delta;
  }
  // A total delta of 1 or more promises nothing: report it as exactly 1 (vacuous).
  total.delta = std::min(total.delta, 1.0);
  return total;
}

ApproxDp compose_parallel(const std::vector<ComposedItem>& items) {
  ApproxDp total;
  for (const ComposedItem& item : items) {
    total.epsilon = std::max(total.epsilon, item.guarantee.epsilon);
    total.delta = std::max(total.delta, item.guarantee.delta);
  }
  return total;
}

Zcdp compose_zcdp(const std::vector<ZcdpItem>& items) {
  Zcdp total;
  for (const ZcdpItem& item : items) total.rho += item.count * item.guarantee.rho;
  return total;
}

}  // namespace dpcalc
