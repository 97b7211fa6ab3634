#include "dpcalc/mechanisms/bounded_range_composition.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/pld.hpp"

namespace dpcalc::mechanisms {
namespace {

// The evaluation costs about r (k + 1)² steps: at most this many keeps it within tens of
// milliseconds in the browser.
constexpr double kMaxWork = 4194304;  // 2^22
// Nodes whose δ_k is below this end the pair: the rest of the curve is this constant, a P-mass at
// +infinity far below any δ the engine certifies.
constexpr double kNegligibleDelta = 1e-40;
// Terms of the binomial below the smallest normal double may underflow to 0: at most k + 1 of them.
constexpr double kUnderflowSlack = 1e-300;
constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2;

// Node spacing ε/r at most 1/32 and at most ε/8: the chords then move the composed ε by about 1e-4
// relative (tests/reference/nonadaptive_bounded_range_reference.py).
int nodes_per_epsilon(double epsilon) { return std::max(8, static_cast<int>(std::ceil(32 * epsilon))); }

// Binomial(k, p) probabilities with p/(1 − p) = e^{log_odds}, from the mode outward by the ratio of
// neighbours, so that nothing overflows (terms far from the mode underflow to 0).
void binomial_pmf(int k, double p, double log_odds, std::vector<double>& pmf) {
  const int mode = std::clamp(static_cast<int>(std::floor((k + 1) * p)), 0, k);
  pmf.assign(static_cast<std::size_t>(k) + 1, 0.0);
  pmf[mode] = 1;
  const double up = std::exp(log_odds), down = std::exp(-log_odds);
  for (int i = mode; i < k; ++i) pmf[i + 1] = pmf[i] * (static_cast<double>(k - i) / (i + 1)) * up;
  for (int i = mode; i > 0; --i) pmf[i - 1] = pmf[i] * (static_cast<double>(i) / (k - i + 1)) * down;
  double total = 0;
  for (double mass : pmf) total += mass;
  for (double& mass : pmf) mass /= total;
}

// δ_k at the nodes x_j = jε/r, j = 0..rk, rounded up. Take s on the grid mε/(r(k + 1)): it is the
// peak s = (x_j + (k − i0 + 1)ε)/(k + 1) of node j = m − rt for i0 = k + 1 − t, t ≥ 1, and at every
// such peak the smallest positive loss lies ε − s above the node. With the binomial's tails
// A(i) = P[I ≥ i] and E(i) = Σ_{l > i} P_l (1 − e^{−(l − i)ε}) (both sums of positive terms), the
// candidate is (1 − e^{−(ε − s)}) A(i0) + e^{−(ε − s)} E(i0): no cancellation anywhere.
// Rounding: each probability is within (k + 1)(3u + e) of its value, e the relative error of the
// odds (within (4 + |log odds|)u), and the tails and weights add (2k + 8)u, all covered by the factor
// 1 + 4(k + 2)(6 + |log odds|)u; the underflowed terms by kUnderflowSlack.
std::vector<double> composed_profile(double epsilon, int k, int r) {
  const int grid = r * (k + 1);
  std::vector<double> delta(static_cast<std::size_t>(r) * k + 1, 0.0);
  std::vector<double> pmf, above(static_cast<std::size_t>(k) + 2, 0.0), excess(static_cast<std::size_t>(k) + 1, 0.0);
  const double step_keep = -std::expm1(-epsilon), step_fade = std::exp(-epsilon);
  for (int m = r; m < grid; ++m) {
    const double s = epsilon * m / grid;
    const double p = std::exp(s + log_expm1(epsilon - s) - log_expm1(epsilon));
    const double log_odds = s + log_expm1(epsilon - s) - log_expm1(s);
    binomial_pmf(k, p, log_odds, pmf);
    for (int i = k; i >= 0; --i) {
      above[i] = above[i + 1] + pmf[i];
      excess[i] = i == k ? 0 : step_keep * above[i + 1] + step_fade * excess[i + 1];
    }
    const double keep = -std::expm1(s - epsilon), fade = std::exp(s - epsilon);
    const double margin = 1 + 4.0 * (k + 2) * (6 + std::fabs(log_odds)) * kUnit;
    for (int t = 1; r * t <= m; ++t) {
      const int i0 = k + 1 - t;
      double& node = delta[static_cast<std::size_t>(m - r * t)];
      node = std::max(node, (keep * above[i0] + fade * excess[i0]) * margin + kUnderflowSlack);
    }
  }
  return delta;
}

}  // namespace

std::optional<pld::FinitePair> nonadaptive_bounded_range_pair(double epsilon, double count) {
  // One selection is one ε-BR pair: the adaptive envelope is already exact.
  if (!(count >= 2) || !(multiply_up(count, epsilon) <= pld::kMaxLoss)) return std::nullopt;
  const int r = nodes_per_epsilon(epsilon);
  if (!(r * (count + 1) * (count + 1) <= kMaxWork)) return std::nullopt;
  const int k = static_cast<int>(count);
  const std::vector<double> delta = composed_profile(epsilon, k, r);

  // The last node: the first where δ_k is negligible (δ_k(kε) = 0 at the latest).
  std::size_t last = 1;
  while (last + 1 < delta.size() && delta[last] > kNegligibleDelta) ++last;
  const double infinite = delta[last];
  const double spacing = epsilon / r;
  auto node = [&](std::size_t j) { return static_cast<double>(j) * spacing; };

  // slopes[j] = Q[L > x_j], the chord's slope in e^x on [x_j, x_{j+1}]; made non-increasing (a
  // larger slope to the left only raises the curve at the nodes), so every mass is non-negative.
  std::vector<double> slopes(last + 1, 0.0);
  for (std::size_t j = last; j-- > 0;) {
    const double chord = (delta[j] - delta[j + 1]) / (std::exp(node(j)) * std::expm1(spacing));
    slopes[j] = std::max(chord, slopes[j + 1]);
  }
  // Atoms at x_1..x_last (q from the slopes, p = q e^x), their mirror images at −x_j (the family is
  // closed under swapping P and Q: s ↦ ε − s), δ_k(kε ∨ x_last) at ±infinity and the rest at 0.
  pld::FinitePair pair;
  std::vector<double> p(last + 1, 0.0), q(last + 1, 0.0);
  double used = infinite;
  for (std::size_t j = 1; j <= last; ++j) {
    q[j] = slopes[j - 1] - slopes[j];
    p[j] = q[j] * std::exp(node(j));
    used += p[j] + q[j];
  }
  if (!(used <= 1 + 1e-9)) return std::nullopt;
  for (std::size_t j = last; j >= 1; --j) {
    pair.p.push_back(q[j]);
    pair.q.push_back(p[j]);
  }
  pair.p.push_back(std::max(0.0, 1 - used));
  pair.q.push_back(std::max(0.0, 1 - used));
  for (std::size_t j = 1; j <= last; ++j) {
    pair.p.push_back(p[j]);
    pair.q.push_back(q[j]);
  }
  pair.p.insert(pair.p.end(), {infinite, 0.0});
  pair.q.insert(pair.q.end(), {0.0, infinite});
  return pair;
}

}  // namespace dpcalc::mechanisms
