// A dominating pair from points of a privacy profile. A mechanism that is (ε_i, δ_i)-DP for every i,
// in both directions, has a trade-off function T ≥ f with
//   f(α) = max(0, max_i 1 − δ_i − e^{ε_i} α, max_i e^{−ε_i} (1 − δ_i − α))
// (Kairouz, Oh, Viswanath 2015, Thm 2.1, for each point; Dong, Roth, Su 2019, Prop 2.12, for the
// maximum). f is convex, symmetric and piecewise linear, so it is the trade-off function of a pair on
// finitely many outcomes: a segment of slope −e^ℓ over [α, α′] is an outcome of Q-mass α′ − α and
// P-mass e^ℓ (α′ − α), P puts 1 − f(0) where Q is 0 and Q puts 1 − α₀ where P is 0 (f(α₀) = 0).
// T(P, Q) = f ≤ T of the mechanism, so (P, Q) dominates it (Zhu, Dong, Wang 2022, Def. 7) and
// composes like any pair, in both directions alike.
#pragma once

#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/privacy_loss.hpp"

namespace dpcalc::pld {

// The pair above from profile points (ε_i finite ≥ 0, δ_i in [0, 1], at least one and at most 199
// points: the pair has at most 2 per point and 2 more outcomes). Each δ_i is raised by a relative
// 1e-9 and each line lowered by 1e-13 first, so that the rounding of the masses to doubles leaves
// the pair's curve above the points' curve (its P-mass alone, at infinite loss, is then at least
// 1e-13).
FinitePair pair_from_profile(const std::vector<ApproxDp>& points);

}  // namespace dpcalc::pld
