#include "dpcalc/pld/pure_bound.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <variant>

#include "dpcalc/directed_rounding.hpp"

namespace dpcalc::pld {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// log(x) for x > 0, rounded up: the library's log is within an ulp; two steps up cover it.
double log_up(double x) { return std::nextafter(std::nextafter(std::log(x), kInfinity), kInfinity); }

// The largest |log(p/q)| over outcomes of a finite pair, after the renormalisation the engine
// applies; nullopt where one side has mass the other lacks (an infinite loss in one direction).
std::optional<double> finite_pair_loss(const FinitePair& pair) {
  const double p_total = std::accumulate(pair.p.begin(), pair.p.end(), 0.0);
  const double q_total = std::accumulate(pair.q.begin(), pair.q.end(), 0.0);
  double largest = 0;
  for (std::size_t i = 0; i < pair.p.size(); ++i) {
    if (pair.p[i] == 0 && pair.q[i] == 0) continue;
    if (pair.p[i] == 0 || pair.q[i] == 0) return std::nullopt;
    // p/q and q/p of the renormalised masses, each rounded up through its products and quotient.
    const double ratio = divide_up(multiply_up(pair.p[i], q_total), pair.q[i] * p_total * (1 - 4e-16));
    const double inverse = divide_up(multiply_up(pair.q[i], p_total), pair.p[i] * q_total * (1 - 4e-16));
    largest = std::max({largest, log_up(ratio), log_up(inverse)});
  }
  return largest;
}

// The bounded loss of the base pair as (ε, δ); nullopt where it is unbounded.
std::optional<ApproxDp> base_bound(const BasePair& base) {
  if (const auto* laplace = std::get_if<LaplacePair>(&base)) {
    return ApproxDp{divide_up(laplace->sensitivity, laplace->scale), 0};
  }
  if (const auto* approx = std::get_if<ApproxDpPair>(&base)) return ApproxDp{approx->epsilon, approx->delta};
  if (const auto* mixture = std::get_if<LaplaceMixturePair>(&base); mixture && !mixture->shifts.empty()) {
    // |log Σ w_j e^{(|x| − |x − s_j|)/b}| ≤ max_j s_j / b: each term lies in [e^{−s_j/b}, e^{s_j/b}].
    const double largest = *std::max_element(mixture->shifts.begin(), mixture->shifts.end());
    return ApproxDp{divide_up(largest, mixture->scale), 0};
  }
  if (const auto* finite = std::get_if<FinitePair>(&base)) {
    const auto loss = finite_pair_loss(*finite);
    if (loss) return ApproxDp{*loss, 0};
  }
  return std::nullopt;
}

}  // namespace

std::optional<ApproxDp> pure_bound(const DominatingPair& pair) {
  auto bound = base_bound(pair.base);
  if (!bound || pair.sampling_rate >= 1) return bound;
  const double epsilon = log_up(add_up(1, multiply_up(pair.sampling_rate, std::expm1(bound->epsilon) * (1 + 4e-16))));
  return ApproxDp{epsilon, multiply_up(pair.sampling_rate, bound->delta)};
}

std::optional<ApproxDp> basic_composition_bound(const std::vector<CompositionItem>& items) {
  ApproxDp total{0, 0};
  for (const CompositionItem& item : items) {
    const auto bound = pure_bound(item.pair);
    if (!bound) return std::nullopt;
    total.epsilon = add_up(total.epsilon, multiply_up(item.count, bound->epsilon));
    total.delta = add_up(total.delta, multiply_up(item.count, bound->delta));
  }
  return total;
}

}  // namespace dpcalc::pld
