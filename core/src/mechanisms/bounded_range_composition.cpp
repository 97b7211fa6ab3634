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
// Atoms on each side of 0 at most (measured in the browser: about 75 µs per atom per composition).
constexpr std::size_t kMostAtomsPerSide = 256;
// Terms of the binomial below the smallest normal double may underflow to 0: at most k + 1 of them.
constexpr double kUnderflowSlack = 1e-300;
constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2;

// Nodes per ε: at least enough for a spacing ε/r of at most 1/32 and at most ε/8 (the chords then move
// the composed ε by about 1e-4 relative), and as many as the work budget allows up to 256 (few
// selections gain little over the adaptive pair, whose atoms are ε/128 apart: finer chords keep the
// answer below it). 0 when even the fewest nodes exceed the budget.
int nodes_per_epsilon(double epsilon, double count) {
  const double fewest = std::max(8.0, std::ceil(32 * epsilon));
  const double affordable = std::floor(kMaxWork / ((count + 1) * (count + 1)));
  if (!(affordable >= fewest)) return 0;
  return static_cast<int>(std::max(fewest, std::min(affordable, 256.0)));
}

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
  const int r = nodes_per_epsilon(epsilon, count);
  if (r == 0) return std::nullopt;
  const int k = static_cast<int>(count);
  const std::vector<double> delta = composed_profile(epsilon, k, r);

  // The last node: the first where δ_k is negligible (δ_k(kε) = 0 at the latest).
  std::size_t last = 1;
  while (last + 1 < delta.size() && delta[last] > kNegligibleDelta) ++last;
  const double infinite = delta[last];
  // The atoms: every `stride`-th node and the last, at most kMostAtomsPerSide (the engine's work grows
  // with the atoms). A chord between any two nodes lies above δ_k too.
  const std::size_t stride = (last + kMostAtomsPerSide - 1) / kMostAtomsPerSide;
  std::vector<std::size_t> kept;
  for (std::size_t j = 0; j < last; j += stride) kept.push_back(j);
  kept.push_back(last);
  const std::size_t n = kept.size() - 1;  // atoms at kept[1..n]
  auto node = [&](std::size_t i) { return static_cast<double>(kept[i]) * epsilon / r; };

  // slopes[i] = Q[L > x_i], the chord's slope in e^x on [x_i, x_{i+1}]; made non-increasing (a
  // larger slope to the left only raises the curve at the nodes), so every mass is non-negative.
  std::vector<double> slopes(n + 1, 0.0);
  for (std::size_t i = n; i-- > 0;) {
    const double chord =
        (delta[kept[i]] - delta[kept[i + 1]]) / (std::exp(node(i)) * std::expm1(node(i + 1) - node(i)));
    slopes[i] = std::max(chord, slopes[i + 1]);
  }
  // Atoms at x_1..x_n (q from the slopes, p = q e^x), their mirror images at −x_i (the family is
  // closed under swapping P and Q: s ↦ ε − s), δ_k at the last node at ±infinity and the rest at 0.
  pld::FinitePair pair;
  std::vector<double> p(n + 1, 0.0), q(n + 1, 0.0);
  double used = infinite;
  for (std::size_t i = 1; i <= n; ++i) {
    q[i] = slopes[i - 1] - slopes[i];
    p[i] = q[i] * std::exp(node(i));
    used += p[i] + q[i];
  }
  if (!(used <= 1 + 1e-9)) return std::nullopt;
  for (std::size_t i = n; i >= 1; --i) {
    pair.p.push_back(q[i]);
    pair.q.push_back(p[i]);
  }
  pair.p.push_back(std::max(0.0, 1 - used));
  pair.q.push_back(std::max(0.0, 1 - used));
  for (std::size_t i = 1; i <= n; ++i) {
    pair.p.push_back(p[i]);
    pair.q.push_back(q[i]);
  }
  pair.p.insert(pair.p.end(), {infinite, 0.0});
  pair.q.insert(pair.q.end(), {0.0, infinite});
  return pair;
}

}  // namespace dpcalc::mechanisms
