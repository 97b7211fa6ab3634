// Numerical estimate of the privacy of one group under Algorithm 1 (two_stage_noise.hpp): for the
// neighbouring counts x and x + 1, in both directions, the Rényi divergences (Mironov 2017)
//   D_α(p_x‖p_{x+1}) = log(1 + ∫ p_x h_{α−1}(L) dy)/(α − 1),
//   D_α(p_{x+1}‖p_x) = log(1 + ∫ p_{x+1} h_{α−1}(−L) dy)/(α − 1),
// with L = log p_x/p_{x+1} and h_a(L) = expm1(a L) + a expm1(−L) >= 0 (the a expm1(−L) term
// integrates to 0 and removes the cancellation of log(∫ p_x e^{aL}) near α = 1), and the hockey-stick
// divergence δ(ε) = max(∫ (p_x − e^ε p_{x+1})_+, ∫ (p_{x+1} − e^ε p_x)_+) of the pair.
// The y integral is a composite 10-point Gauss–Legendre rule on panels about one local standard
// deviation sqrt(σ² + r²y²) wide (uniform in asinh(r y/σ)), graded geometrically towards the
// logarithmic singularity of p_x at y = 0, and extended outwards from x ± 8 sd(Y) until a panel
// adds less than 1e-18 of every integral (or x ± 40 sd(Y) is reached). Every value is computed again with every panel
// halved; the error estimate is the difference plus the propagated error estimate of the inner quadrature. These are
// NUMERICAL ESTIMATES, NOT PROOFS. Proven: D_α/α <= rho for every α (post-processing of the Gaussian mechanism, Bun &
// Steinke 2016, Prop 1.6 and Lemma 1.8).
#pragma once

#include <optional>
#include <vector>

#include "dpcalc/groupwise/two_stage_noise.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::groupwise {

// The orders accepted by estimate_group_privacy.
inline constexpr double kMinOrder = 1.01;
inline constexpr double kMaxOrder = 256;
// The y mesh may not grow beyond this many panels (each panel is 10 + 20 density evaluations).
inline constexpr int kMaxPanels = 4000;

struct GroupPrivacyEstimate {
  double count = 0;
  std::vector<double> orders;
  std::vector<double> renyi;               // max of the two directions of D_α, at the finer mesh
  std::vector<double> renyi_error;         // estimated error of each D_α
  double rho_estimate = 0;                 // max over the orders of D_α/α
  double error_estimate = 0;               // estimated error of rho_estimate
  std::optional<double> epsilon_estimate;  // smallest ε with δ(ε) <= delta, when delta was given
  std::optional<double> epsilon_error;
  double normalization = 0;  // ∫ p_x dy at the finer mesh (1 up to the quadrature error)
  int panels = 0;            // panels of the coarser mesh
};

// Default orders: 50 orders with α − 1 geometric from 0.01 to 255.
std::vector<double> default_orders();

// `orders` strictly increasing in [kMinOrder, kMaxOrder]; `delta` in (0, 1) if given. The caller
// validates. Errors: "numeric" on its parameter "noise" when the mesh would exceed kMaxPanels, on
// "count" when the quadrature of the output density fails; "cancelled" when `progress` returns false. `epsilon_ceiling`
// bounds the ε search (a proven ε for `delta`).
Result<GroupPrivacyEstimate> estimate_group_privacy(const TwoStageNoise& noise, double count,
                                                    const std::vector<double>& orders, std::optional<double> delta,
                                                    double epsilon_ceiling, const ProgressCallback& progress = {});

}  // namespace dpcalc::groupwise
