// Optimal homogeneous composition (Kairouz, Oh, Viswanath 2015, Thm 3.3): the exact privacy region
// of the k-fold adaptive composition of (eps0, delta0)-DP mechanisms. For eps >= 0,
//   delta_k(eps) = 1 − (1 − delta0)^k (1 − Σ_{l : (k−2l) eps0 > eps} C(k,l) (e^{(k−l) eps0} − e^{eps} e^{l eps0}) / (1
//   + e^{eps0})^k)
// which is linear in e^eps between the breakpoints (k−2i) eps0. Everything is computed in log space
// so that k = 1e5 and k·eps0 = 1e3 work.
#pragma once

#include <string>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc {

inline constexpr MethodInfo kOptimalComposition{"Optimal composition (exact)", "Kairouz, Oh, Viswanath 2015, Thm 3.3",
                                                "kairouz2015composition"};

// The largest total count composed exactly. A delta(eps) walks O(√count) terms and an inverse is one
// pass of O(√count) steps, about 0.1 ms at this count in the browser (npm run bench), so a request
// stays within the closed-form budget; a budget split, which searches over eps0 too, uses a lower
// limit. Larger counts are refused before any work.
inline constexpr double kMaxOptimalCompositionCount = 1e7;

// Checks that `count` items of per-step eps0 = `epsilon0` can be composed exactly: count at most
// `max_count` (kMaxOptimalCompositionCount, or less for a search that composes many times; error on
// "count", naming the limit and the methods that scale) and count·eps0 a finite double (error on
// "epsilon0"). Both arguments are already valid.
Result<double> check_optimal_composition_size(double epsilon0, double count,
                                              double max_count = kMaxOptimalCompositionCount);

// The exact total delta for a given eps (>= 0). Rounded up. Needs check_optimal_composition_size.
double optimal_composition_delta(const ApproxDp& per_step, double count, double epsilon);

// The smallest eps with delta_k(eps) <= total_delta, exact (not rounded to a breakpoint), rounded
// up so that optimal_composition_delta(result) <= total_delta. A total_delta below the smallest
// reachable value 1 − (1 − delta0)^k is an error on "total_delta" stating that value. Needs
// check_optimal_composition_size (outside it the result is a numeric error, never a hang).
Result<double> optimal_composition_epsilon(const ApproxDp& per_step, double count, double total_delta);

}  // namespace dpcalc
