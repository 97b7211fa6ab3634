// A Rényi DP curve as a function of the order: α ↦ an upper bound on
//   ε(α) = sup over neighbours D, D' of D_α(M(D) ‖ M(D')),  D_α(P ‖ Q) = log E_Q[(P/Q)^α]/(α − 1)
// (Mironov 2017, Def. 3), for α = 1 (the limit, the Kullback–Leibler divergence E_P[log(P/Q)]),
// α > 1, and α = +∞ (the limit, sup log(P/Q): the pure ε, +∞ where the loss is unbounded). The order
// ∞ is std::numeric_limits<double>::infinity(). ε(α) is non-decreasing in α for every pair (van
// Erven & Harremoës 2014, "Rényi divergence and Kullback–Leibler divergence", Thm 3), hence for
// every curve; its logarithmic moment (α − 1)ε(α) is convex in α (a cumulant generating function).
#pragma once

#include <functional>
#include <vector>

namespace dpcalc::rdp {

using RdpFunction = std::function<double(double order)>;

// The curve made non-decreasing from above: ε(α_i) replaced by min_{j ≥ i} ε(α_j) for strictly
// increasing orders. Still an upper bound, since the exact curve is non-decreasing (above); never
// larger than the input.
std::vector<double> monotone_envelope(const std::vector<double>& orders, std::vector<double> epsilons);

}  // namespace dpcalc::rdp
