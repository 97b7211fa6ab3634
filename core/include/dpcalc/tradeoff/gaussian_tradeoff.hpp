// mu-GDP (Dong, Roth, Su 2019, Def. 2.6): the trade-off between N(0, 1) and N(mu, 1),
//   G_mu(alpha) = Phi(Phi^-1(1 - alpha) - mu),        TPR(alpha) = Phi(mu + Phi^-1(alpha)).
// It is exactly the trade-off of the Gaussian mechanism with mu = sensitivity / sigma (ibid.,
// Thm 2.7) and of any composition of Gaussian mechanisms, with mu = sqrt(sum mu_i^2) (ibid.,
// Cor. 3.3); a group of k records shifts the mean k times as far (mu k). Its advantage is
// 2 Phi(mu / 2) - 1, delta(0) of the Gaussian profile (Balle, Wang 2018, Thm 8).
#pragma once

#include <string>

#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::tradeoff {

inline constexpr MethodInfo kGaussianTradeoff{"Gaussian differential privacy (exact trade-off)",
                                              "Dong, Roth, Su 2019, Def. 2.6 and Thm 2.7", "dong2019gaussian"};

// The curve of mu-GDP (mu finite >= 0; error invalid_argument on "mu"), each value within a
// bound on its floating-point error: beta rounded down, beta_upper rounded up. Sets result.mu.
Result<TradeoffResult> gaussian_tradeoff(double mu, const TradeoffOptions& options);

}  // namespace dpcalc::tradeoff
