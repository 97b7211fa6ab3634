// RDP accounting: RDP composes additively at every order (Mironov 2017, Prop. 1), and the composed
// curve is converted to (eps, delta) with the project's conversion (Balle, Barthe, Gaboardi, Hsu,
// Sato 2020, Thm 21; conversions.hpp).
#pragma once

#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::rdp {

// Σ count · ε(α) of every use at each order (mechanisms::Mechanism::rdp_epsilon, which each use's
// mechanism must know); +infinity where an order is unusable.
std::vector<double> compose(const std::vector<mechanisms::Use>& uses, const std::vector<double>& orders);

struct RdpToApprox {
  ApproxDp guarantee;  // delta as requested; epsilon rounded up
  double order = 0;    // the minimising order
};

// The best (eps, delta) over the finite orders of the curve. Errors: numeric on "orders" when no
// order is finite.
Result<RdpToApprox> to_approx(const std::vector<double>& orders, const std::vector<double>& epsilons, double delta);

}  // namespace dpcalc::rdp
