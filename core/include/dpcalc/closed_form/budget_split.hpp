// Budget split, the inverse of composition: the per-item (eps, delta) such that `count` items
// composed under a method reach at most the target (eps, delta). Found by bisection on the sound
// forward function, so composing the answer back never exceeds the target and is within 1% of it.
// Delta is split as follows: basic gives each item delta/count; advanced and optimal keep half of
// the target as the composition slack and give each item delta/(2·count) (Dwork & Roth 2014,
// Cor 3.21 discussion); zCDP gives each item a pure eps0 with count·eps0²/2 = rho, where rho is the
// largest zCDP budget whose Canonne–Kamath–Steinke conversion meets the target.
#pragma once

#include <string>

#include "dpcalc/closed_form/advanced_composition.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc {

// The optimal split composes up to ~100 times while it searches eps0, so it accepts fewer items
// than one optimal composition (kMaxOptimalCompositionCount): this keeps it to about a second.
inline constexpr double kMaxOptimalSplitCount = 1e6;

enum class SplitMethod { kBasic, kAdvancedDworkRothblumVadhan, kAdvancedKairouzOhViswanath, kOptimal, kZcdp };

struct SplitResult {
  ApproxDp per_item;
  double delta_slack;   // advanced/optimal: the composition's delta'; NaN otherwise
  double rho_per_item;  // zCDP: the per-item rho; NaN otherwise
  ApproxDp achieved;    // the forward composition of per_item (<= target)
};

// target.delta must be > 0 for advanced, optimal and zCDP. Errors name "target_epsilon",
// "target_delta" or "count".
Result<SplitResult> split_budget(SplitMethod method, const ApproxDp& target, double count);

}  // namespace dpcalc
