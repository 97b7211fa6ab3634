// RDP accounting of Gaussian and Poisson-subsampled Gaussian steps: RDP composes additively at
// every order (Mironov 2017, Prop. 1), and the composed curve is converted to (eps, delta) with the
// project's conversion (Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21; conversions.hpp).
#pragma once

#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::rdp {

// `count` steps of Gaussian noise with the given noise multiplier (sigma / sensitivity) on a Poisson
// subsample of rate sampling_rate (1: no subsampling). Validated by the caller.
struct RdpItem {
  double sampling_rate = 1;
  double noise_multiplier = 1;
  double count = 1;
};

// sum_i count_i eps_i(alpha) at each order; +infinity where an order is unusable.
std::vector<double> compose(const std::vector<RdpItem>& items, const std::vector<double>& orders);

struct RdpToApprox {
  ApproxDp guarantee;  // delta as requested; epsilon rounded up
  double order = 0;    // the minimising order
};

// The best (eps, delta) over the finite orders of the curve. Errors: numeric on `field` when no
// order is finite.
Result<RdpToApprox> to_approx(const std::vector<double>& orders, const std::vector<double>& epsilons, double delta,
                              const std::string& field);

}  // namespace dpcalc::rdp
