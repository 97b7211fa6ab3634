#include "dpcalc/tradeoff/gdp_bound.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

// The largest μ searched: beyond it the answer is no μ (G_μ at μ = 40 already lets a test reach
// TPR 1 − 1e-300 at α = 1e-300).
constexpr double kLargestGdpMu = 1e4;

// Whether δ_μ(ε_{i+1}) ≥ δ̄(ε_i) at every step, by a certified lower bound on δ_μ.
bool gaussian_profile_above(double mu, const std::vector<double>& epsilons, const std::vector<double>& deltas) {
  for (std::size_t i = 0; i + 1 < epsilons.size(); ++i) {
    if (deltas[i] > 0 && !(gaussian_delta_lower_for_epsilon(mu, epsilons[i + 1]) >= deltas[i])) return false;
  }
  return true;
}

// The largest finite loss with mass of a pessimistic PLD (−infinity when it has none).
double largest_finite_loss(const pld::DiscretePld& pld) {
  for (std::size_t k = pld.masses.size(); k-- > 0;) {
    if (pld.masses[k] > 0)
      return static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(k)) * pld.discretization_interval;
  }
  return -kInfinity;
}

}  // namespace

GdpBound no_gdp_bound(std::string reason) { return GdpBound{std::nullopt, std::move(reason)}; }

GdpBound profile_gdp_bound(const std::function<double(double)>& delta_upper, double largest_loss, int points) {
  if (!(largest_loss > 0)) return GdpBound{0.0, ""};  // δ(ε) = 0 at every ε ≥ 0: G_0, no test beats a coin
  std::vector<double> epsilons, deltas;
  for (int i = 0; i <= points; ++i) {
    // The last point is the bound itself, where the profile is 0.
    epsilons.push_back(i == points ? largest_loss : largest_loss * i / points);
    deltas.push_back(i == points ? 0.0 : delta_upper(epsilons.back()));
  }
  if (!(deltas.front() < 1))
    return no_gdp_bound("The answer is vacuous (δ reaches 1), so it is μ-GDP for no finite μ.");
  double low = 0, high = 1;
  while (!gaussian_profile_above(high, epsilons, deltas)) {
    low = high;
    high *= 2;
    if (high > kLargestGdpMu) return no_gdp_bound("The answer is μ-GDP for no μ up to 10^4.");
  }
  for (int i = 0; i < 60 && high - low > 1e-12 * high; ++i) {
    const double middle = 0.5 * (low + high);
    if (gaussian_profile_above(middle, epsilons, deltas)) {
      high = middle;
    } else {
      low = middle;
    }
  }
  return GdpBound{high, ""};
}

GdpBound pure_gdp_bound(double epsilon) {
  if (!(epsilon > 0)) return GdpBound{0.0, ""};
  // (e^ε − e^ε′)/(1 + e^ε) = −expm1(−(ε − ε′)) / (1 + e^{−ε}), a few units of roundoff, rounded up.
  const auto delta = [epsilon](double at) {
    return round_up(-std::expm1(-(epsilon - at)) / (1 + std::exp(-epsilon)), 8);
  };
  return profile_gdp_bound(delta, epsilon, 1024);
}

GdpBound pld_gdp_bound(const pld::ComposedPlds& plds) {
  // δ(ε) is 0 beyond the largest loss: that of the grid, or where the mass counted at +∞ by
  // truncation came from (top_index), which is finite when every loss is bounded.
  double largest = -kInfinity;
  for (const pld::DiscretePld* upper : {&plds.upper_remove, &plds.upper_add}) {
    const double top =
        upper->infinite_mass > 0 ? upper->top_index * upper->discretization_interval : largest_finite_loss(*upper);
    if (!std::isfinite(top) && top > 0) {
      return no_gdp_bound("The certified privacy loss keeps mass " + format_number(upper->infinite_mass) +
                          " at infinite loss (the cut tail of an unbounded loss, or outcomes only one input can "
                          "give), so δ(ε) stays positive as ε grows and no finite μ is certified.");
    }
    largest = std::max(largest, top + 1e-15 * std::fabs(top));
  }
  // Each δ(ε) walks the grid once: fewer points on large grids.
  const std::size_t grid = std::max(plds.upper_remove.masses.size(), plds.upper_add.masses.size());
  const int points = grid <= 20000 ? 1024 : grid <= 200000 ? 256 : 64;
  return profile_gdp_bound([&plds](double epsilon) { return pld::delta_bracket(plds, epsilon).delta_upper; }, largest,
                           points);
}

}  // namespace dpcalc::tradeoff
