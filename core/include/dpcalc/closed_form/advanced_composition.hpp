// Advanced composition of heterogeneous (eps_i, delta_i) guarantees, each used count_i times, with
// a slack delta' > 0. Both bounds are upper bounds, and are never reported above basic composition
// (the epsilon is min(advanced, Σ eps_i) since basic composition needs less delta).
//
// Dwork, Rothblum, Vadhan 2010, Thm III.3 (heterogeneous form, Dwork & Roth 2014, Thm 3.20):
//   eps = sqrt(2 ln(1/delta') Σ eps_i²) + Σ eps_i (e^{eps_i} − 1),   delta = Σ delta_i + delta'
// Kairouz, Oh, Viswanath 2015, Thm 3.5 (heterogeneous; homogeneous is Thm 3.4):
//   eps = min{ Σ eps_i,
//              Σ eps_i tanh(eps_i/2) + sqrt(2 Σ eps_i² ln(e + sqrt(Σ eps_i²)/delta')),
//              Σ eps_i tanh(eps_i/2) + sqrt(2 Σ eps_i² ln(1/delta')) }
//   delta = 1 − (1 − delta') Π (1 − delta_i)^{count_i}
#pragma once

#include <string>
#include <vector>

#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc {

enum class AdvancedVariant { kDworkRothblumVadhan, kKairouzOhViswanath };

inline constexpr MethodInfo kAdvancedDrv{"Advanced composition (Dwork–Rothblum–Vadhan)",
                                         "Dwork, Rothblum, Vadhan 2010, Thm III.3", "dwork2010boosting"};
inline constexpr MethodInfo kAdvancedKov{"Advanced composition (Kairouz–Oh–Viswanath)",
                                         "Kairouz, Oh, Viswanath 2015, Thm 3.5", "kairouz2015composition"};

struct AdvancedResult {
  ApproxDp guarantee;  // total (eps, delta)
  double delta_slack;  // the delta' used
};

// With a given slack delta' in (0, 1).
AdvancedResult compose_advanced(AdvancedVariant variant, const std::vector<ComposedItem>& items, double delta_slack);

// With a total delta target: delta' chosen to minimise eps subject to the total delta being at
// most `total_delta`. If the items' own deltas already use up the target, the error is on
// "total_delta" and states the smallest reachable total delta.
Result<AdvancedResult> compose_advanced_for_total_delta(AdvancedVariant variant, const std::vector<ComposedItem>& items,
                                                        double total_delta);

}  // namespace dpcalc
