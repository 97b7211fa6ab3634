// The trade-off implied by a zCDP or RDP guarantee, through its whole privacy profile. Each order
// lambda > 1 with RDP bound eps_lambda (in both directions) gives the profile
//   delta_lambda(eps) = exp((lambda - 1)(eps_lambda - eps)) (1 - 1/lambda)^(lambda - 1) / lambda
// (Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21; Canonne, Kamath, Steinke 2020, Prop. 12), and
// the envelope over eps of its lines 1 - delta - e^eps alpha and e^-eps (1 - delta - alpha) has a
// closed form (maximise over eps):
//   TPR(alpha) <= (alpha e^{eps_lambda})^{1 - 1/lambda},   beta(alpha) >= (1 - alpha)^{lambda/(lambda - 1)}
//   e^{-eps_lambda}.
// These hold for every alpha, also where the best eps is negative: they are the data-processing
// inequality for the Renyi divergence of the test's yes/no outcome, one of its two terms dropped.
// The curve takes the best order. For rho-zCDP (eps_lambda = rho lambda for all lambda > 1,
// Bun, Steinke 2016) the best order is explicit (lambda = sqrt(ln(1/alpha) / rho), resp.
// 1 + sqrt(-ln(1 - alpha) / rho)):
//   TPR(alpha) <= exp(-(sqrt(ln(1/alpha)) - sqrt(rho))^2)  when ln(1/alpha) > rho,
//   beta(alpha) >= exp(-(sqrt(-ln(1 - alpha)) + sqrt(rho))^2).
// The advantage is delta(0) of the profile, min over lambda of delta_lambda(0).
#pragma once

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::tradeoff {

inline constexpr MethodInfo kZcdpTradeoff{"Trade-off of a zCDP guarantee (its privacy profile)",
                                          "Bun, Steinke 2016; Canonne, Kamath, Steinke 2020, Prop. 12",
                                          "bun2016concentrated canonne2020discrete"};
inline constexpr MethodInfo kRdpTradeoff{"Trade-off of an RDP curve (its privacy profile)",
                                         "Mironov 2017; Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21",
                                         "mironov2017renyi balle2020hypothesis"};

// beta rounded down; no bracket (the curve of the guarantee, not of a particular mechanism).
Result<TradeoffResult> zcdp_tradeoff(const Zcdp& guarantee, const TradeoffOptions& options);
Result<TradeoffResult> rdp_tradeoff(const RdpCurve& curve, const TradeoffOptions& options);

}  // namespace dpcalc::tradeoff
