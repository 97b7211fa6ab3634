// The trade-off promised by an (eps, delta) guarantee alone (Wasserman, Zhou 2010; Kairouz, Oh,
// Viswanath 2015, Thm 2.1: the randomized-response pair dominates every (eps, delta)-DP mechanism):
//   f_{eps,delta}(alpha) = max(0, 1 - delta - e^eps alpha, e^-eps (1 - delta - alpha)),
// i.e. TPR(alpha) <= min(1, delta + e^eps alpha, 1 - e^-eps (1 - delta - alpha)); pure eps-DP is
// delta = 0. Its advantage is delta + (1 - delta) tanh(eps / 2) ((e^eps - 1)/(e^eps + 1) when pure).
#pragma once

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::tradeoff {

inline constexpr MethodInfo kApproxDpTradeoff{"Trade-off of an (ε, δ) guarantee",
                                              "Kairouz, Oh, Viswanath 2015, Thm 2.1; Wasserman, Zhou 2010",
                                              "kairouz2015composition wasserman2010statistical"};

// beta rounded down; no bracket (this is the weakest mechanism the guarantee allows, not an
// approximation of the analysed one). A computed guarantee with delta = 1 gives the vacuous curve.
Result<TradeoffResult> approx_dp_tradeoff(const ApproxDp& guarantee, const TradeoffOptions& options);

}  // namespace dpcalc::tradeoff
