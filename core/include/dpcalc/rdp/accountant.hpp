// RDP accounting: RDP composes additively at every order (Mironov 2017, Prop. 1), and the composed
// curve is converted to (eps, delta) with the project's conversion (Balle, Barthe, Gaboardi, Hsu,
// Sato 2020, Thm 21; conversions.hpp). Orders are 1 (the KL divergence), finite orders > 1 and
// +infinity (std::numeric_limits<double>::infinity(): the pure ε); rdp_function.hpp.
#pragma once

#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::rdp {

// Σ count · ε(α) of every use at each order (mechanisms::Mechanism::rdp_epsilon, which each use's
// mechanism must know), rounded up; +infinity where an order is unusable (or the sum overflows).
// For strictly increasing orders the curve is then made non-decreasing from above
// (monotone_envelope): an order takes the smallest bound of the orders from it on.
std::vector<double> compose(const std::vector<mechanisms::Use>& uses, const std::vector<double>& orders);

// The curves the uses' ε(α) come from (Mechanism::rdp_method), each once, in the order of first use.
std::vector<MethodInfo> methods_cited(const std::vector<mechanisms::Use>& uses);

struct RdpToApprox {
  ApproxDp guarantee;  // delta as requested; epsilon rounded up
  double order = 0;    // the minimising order (+infinity when the pure ε is the best)
};

// The best (eps, delta) over the orders of the curve with a finite ε (rdp_to_approx). Errors:
// numeric on "orders" when no order gives a finite ε (no finite value, or only the KL divergence
// with δ below the total variation bound it gives).
Result<RdpToApprox> to_approx(const std::vector<double>& orders, const std::vector<double>& epsilons, double delta);

}  // namespace dpcalc::rdp
