// Finite pairs in the PLD engine (pld/privacy_loss.hpp FinitePair): the randomized-response pair of
// pure ε-DP given as lists composes exactly as the engine's own ApproxDpPair{ε, 0}, the one
// mechanisms on finite outcomes are built on; and invalid lists are refused.
#include <doctest/doctest.h>

#include <cmath>

#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc::pld;

TEST_CASE("[pld] a finite pair composes as the same pair given as (ε, 0)") {
  // P = (e^ε, 1)/(1 + e^ε), Q = (1, e^ε)/(1 + e^ε): Kairouz, Oh, Viswanath 2015, Thm 2.1 at δ = 0.
  for (double epsilon : {0.1, 1.0, 3.0}) {
    CAPTURE(epsilon);
    const double high = 1 / (1 + std::exp(-epsilon)), low = 1 / (1 + std::exp(epsilon));
    const std::vector<CompositionItem> lists{{DominatingPair{FinitePair{{high, low}, {low, high}}, 1.0}, 20}};
    const std::vector<CompositionItem> pure{{DominatingPair{ApproxDpPair{epsilon, 0}, 1.0}, 20}};
    const auto from_lists = epsilon_for_delta(lists, 1e-6);
    const auto from_pure = epsilon_for_delta(pure, 1e-6);
    REQUIRE(from_lists.ok());
    REQUIRE(from_pure.ok());
    // Both bracket the same exact value (Kairouz, Oh, Viswanath 2015, Thm 3.3).
    CHECK(from_lists.value().epsilon_lower <= from_pure.value().epsilon_upper);
    CHECK(from_pure.value().epsilon_lower <= from_lists.value().epsilon_upper);
    CHECK(from_lists.value().epsilon_upper <= from_pure.value().epsilon_upper * (1 + 2e-3));
    // Subsampled: q P + (1 − q) Q, as for any pair (Zhu, Dong, Wang 2022, Thm 11).
    const std::vector<CompositionItem> sampled_lists{{DominatingPair{FinitePair{{high, low}, {low, high}}, 0.1}, 20}};
    const std::vector<CompositionItem> sampled_pure{{DominatingPair{ApproxDpPair{epsilon, 0}, 0.1}, 20}};
    const auto a = epsilon_for_delta(sampled_lists, 1e-6), b = epsilon_for_delta(sampled_pure, 1e-6);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK(a.value().epsilon_lower <= b.value().epsilon_upper);
    CHECK(b.value().epsilon_lower <= a.value().epsilon_upper);
  }
}

TEST_CASE("[pld] a finite pair with infinite-loss mass: δ at large ε is that mass") {
  // P puts 1e-6 on an outcome Q never takes (a truncated tail): δ(ε) ≥ 1e-6 for every ε.
  const std::vector<CompositionItem> items{
      {DominatingPair{FinitePair{{0.5, 0.5 - 1e-6, 1e-6}, {0.5, 0.5, 0}}, 1.0}, 1}};
  const auto delta = delta_for_epsilon(items, 50);
  REQUIRE(delta.ok());
  CHECK(delta.value().delta_upper >= 1e-6);
  CHECK(delta.value().delta_lower <= 1e-6 * (1 + 1e-9));
}

TEST_CASE("[pld] finite pairs are checked") {
  const auto refused = [](FinitePair pair) {
    return !epsilon_for_delta({{DominatingPair{std::move(pair), 1.0}, 1}}, 1e-6).ok();
  };
  CHECK(refused(FinitePair{{0.5, 0.5}, {1.0}}));        // different outcomes
  CHECK(refused(FinitePair{{0.5, 0.6}, {0.5, 0.5}}));   // not summing to 1
  CHECK(refused(FinitePair{{-0.1, 1.1}, {0.5, 0.5}}));  // negative
  CHECK(refused(FinitePair{{}, {}}));                   // empty
  CHECK(refused(FinitePair{{std::nan(""), 1}, {0.5, 0.5}}));
}
