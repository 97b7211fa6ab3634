// The trade-off implied by a privacy profile given at finitely many points: each pair
// (eps, delta) with delta(eps) <= delta in the remove direction (P || Q) gives the line
// TPR <= delta + e^eps alpha, each pair of the add direction (Q || P) the line
// beta >= e^-eps (1 - delta - alpha), and the curve is their envelope (Dong, Roth, Su 2019,
// Prop. 2.12; between the given eps nothing better follows, since delta is convex in e^eps).
#pragma once

#include <string>
#include <vector>

#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::tradeoff {

inline constexpr MethodInfo kProfileTradeoff{"Trade-off of a privacy profile (envelope of its (ε, δ) pairs)",
                                             "Dong, Roth, Su 2019, Prop. 2.12", "dong2019gaussian"};

// Pairs of one direction: delta(epsilons[i]) <= deltas[i].
struct ProfilePoints {
  std::vector<double> epsilons;  // each finite >= 0
  std::vector<double> deltas;    // each in [0, 1]; one per epsilon
};

// Errors: invalid_argument on "remove_epsilons", "remove_deltas", "add_epsilons" or "add_deltas"
// (the pair's index as Error::item; none when the lengths differ); at most kMaxRequestedPoints
// pairs each.
// Either list may be empty (that direction says nothing). beta rounded down; no bracket.
Result<TradeoffResult> profile_tradeoff(const ProfilePoints& remove, const ProfilePoints& add,
                                        const TradeoffOptions& options);

// The same pairs for both directions (a profile that answers for the worse one, as the PLD
// accountant's privacy_profile does); errors on "epsilons" / "deltas" (the index as Error::item).
Result<TradeoffResult> profile_tradeoff(const ProfilePoints& both, const TradeoffOptions& options);

}  // namespace dpcalc::tradeoff
