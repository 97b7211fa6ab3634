// The smallest μ for which an answer is μ-GDP (Dong, Roth, Su 2019, Def. 2.6): its trade-off curve
// lies above G_μ(α) = Φ(Φ⁻¹(1 − α) − μ) everywhere. By duality (ibid., Cor. 2.13) that holds iff the
// answer is (ε, δ_μ(ε))-DP at every ε ≥ 0, δ_μ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) (the Gaussian
// profile, closed_form/analytic_gaussian.hpp). Sound over the continuum of ε: with a sound upper
// profile δ̄, non-increasing, and ε_0 < … < ε_N = L beyond which δ̄ is 0, every ε in [ε_i, ε_{i+1}]
// has δ(ε) ≤ δ̄(ε_i) and δ_μ(ε) ≥ δ_μ(ε_{i+1}), so δ̄(ε_i) ≤ δ_μ(ε_{i+1}) for every i proves it. The
// μ returned meets that with a certified lower bound on δ_μ, so it is an upper bound on the
// smallest μ. A profile whose δ stays positive as ε → ∞ (mass at infinite loss: an (ε, δ) bound with
// δ > 0, a numeric composition's truncated tail) is μ-GDP for no finite μ; nor is a bound whose
// profile's tail the calculator cannot compare with the Gaussian's (zCDP, Rényi DP): then no μ.
#pragma once

#include <functional>
#include <optional>
#include <string>

#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::tradeoff {

struct GdpBound {
  std::optional<double> mu_upper;  // an upper bound on the smallest μ, where one is certified
  std::string reason;              // why there is none, as a sentence, when mu_upper is absent
};

// From an upper profile `delta_upper` (non-increasing on [0, largest_loss], 0 beyond it), checked at
// `points` + 1 equally spaced ε.
GdpBound profile_gdp_bound(const std::function<double(double)>& delta_upper, double largest_loss, int points);
// Pure ε-DP: the profile of randomized response at ε, δ(ε') = (e^ε − e^ε′)/(1 + e^ε) on [0, ε],
// which dominates every ε-DP mechanism (Kairouz, Oh, Viswanath 2015, Thm 2.1).
GdpBound pure_gdp_bound(double epsilon);
// Composed PLDs: their pessimistic δ(ε) (both directions), bounded by their largest finite loss;
// none when they hold mass at +infinity.
GdpBound pld_gdp_bound(const pld::ComposedPlds& plds);
// What no μ follows from: an (ε, δ) guarantee with δ > 0, a zCDP or Rényi DP bound.
GdpBound no_gdp_bound(std::string reason);

}  // namespace dpcalc::tradeoff
