// Rényi divergences of finite pairs in closed form: D_α(P‖Q) = log Σ_i P_i^α Q_i^{1−α} / (α − 1)
// (Mironov 2017, Def. 3), from the logarithms of the summands, so that large orders do not overflow;
// and the curve of pure ε-DP.
#pragma once

#include <vector>

#include "dpcalc/method_info.hpp"

namespace dpcalc::rdp {

// log(Σ e^{t_i}) / (order − 1) for order > 1, rounded up: 64u·max|t_i| + 8u is added before the
// division, which covers summands formed by up to a dozen roundings of parts at most a few times
// max|t_i| (as its callers form them) and the log-sum-exp itself; at least 0 (a Rényi divergence is
// never negative).
double renyi_from_log_terms(const std::vector<double>& log_terms, double order);

inline constexpr MethodInfo kPureDpRdp{"Rényi DP of ε-DP (the ε-DP randomized-response pair)",
                                       "Mironov 2017, Prop. 5; Kairouz, Oh, Viswanath 2015, Thm 2.1",
                                       "mironov2017renyi kairouz2015composition"};

// The ε-DP randomized-response pair (e^ε, 1)/(1 + e^ε) against (1, e^ε)/(1 + e^ε), which dominates
// every ε-DP mechanism (Kairouz, Oh, Viswanath 2015, Thm 2.1), so that by the data-processing
// inequality (van Erven, Harremoës 2014, Thm 9) its divergence bounds that of any ε-DP mechanism,
// and it is itself ε-DP: the tightest curve ε-DP implies. With e^{αε} + e^{(1−α)ε} =
// 2e^{ε/2}cosh((α − ½)ε),
//     ε(α) = [log cosh((α − ½)ε) − log cosh(ε/2)]/(α − 1)   (α > 1),
//     ε(1) = ε tanh(ε/2) (the KL divergence),   ε(∞) = ε;
// rounded up, and never above ε (Mironov 2017, Prop. 5: ε-DP is (α, ε)-RDP at every order).
double pure_dp_renyi(double epsilon, double order);

}  // namespace dpcalc::rdp
