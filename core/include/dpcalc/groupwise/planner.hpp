// The planner's question for Algorithm 1 (two_stage_noise.hpp): for a relative error r and a group of
// count x > 0, the smallest first-stage rho (largest σ) with E|Y − x| <= r x.
// E|Y − x| is non-decreasing in σ: Y − x = σ W (1 + r Z) + r x Z with W, Z standard normal, so for
// each (W, Z) |Y − x| is convex in σ with zero mean slope at σ = 0; it tends to r x sqrt(2/π) < r x
// as σ → 0, so a solution always exists. Halving σ to a bracket, then TOMS 748 on σ with the
// quadrature of expected_absolute_error; the answer is the end of the final bracket that meets the target, so
// the returned rho keeps the error within r x up to the quadrature's error (about 1e-10 relative).
#pragma once

#include "dpcalc/result.hpp"

namespace dpcalc::groupwise {

struct Plan {
  double sigma = 0;
  double rho = 0;                      // 1/(2 σ²)
  double expected_absolute_error = 0;  // E|Y − x| at that σ, <= r x
};

// relative_error in (0, 1], count in [1, kMaxGroupCount]; the caller validates. A numeric error (on
// relative_error) when the search does not converge.
Result<Plan> plan_first_stage(double relative_error, double count);

}  // namespace dpcalc::groupwise
