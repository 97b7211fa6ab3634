#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/tradeoff/pld_tradeoff.hpp"

using namespace dpcalc;
using namespace dpcalc::pld;

namespace {

// The answer with its PLDs, checked to be epsilon_for_delta's own answer, bound for bound.
AnsweredEpsilon answered_as_alone(const std::vector<CompositionItem>& items, double delta) {
  const auto answered = epsilon_for_delta_with_plds(items, delta);
  const auto alone = epsilon_for_delta(items, delta);
  REQUIRE(answered.ok());
  REQUIRE(alone.ok());
  CHECK(answered.value().bracket.epsilon_upper == alone.value().epsilon_upper);
  CHECK(answered.value().bracket.epsilon_lower == alone.value().epsilon_lower);
  return answered.value();
}

}  // namespace

TEST_CASE("[pld] epsilon_for_delta_with_plds: the answer of epsilon_for_delta and the PLDs it is read from") {
  SUBCASE("Gaussian sigma = 10 composed 100 times (symmetric: both lower PLDs)") {
    // Exact eps at delta 1e-5: 4.3771780956812246086 (mpmath, as in pld_accountant_test.cpp; mu = 1,
    // Balle & Wang 2018, Thm 8). G_1 at the false-positive rates below: tests/reference/
    // tradeoff_reference.py, section 1 (mpmath).
    const std::vector<CompositionItem> items{{DominatingPair{GaussianPair{10, 1}, 1}, 100}};
    const AnsweredEpsilon answered = answered_as_alone(items, 1e-5);
    const ComposedPlds& plds = answered.plds;
    const EpsilonBracket read_back = epsilon_bracket(plds, 1e-5);
    CHECK(read_back.epsilon_upper >= 4.3771780956812246086);
    CHECK(read_back.epsilon_lower <= 4.3771780956812246086);
    CHECK(read_back.epsilon_upper >= answered.bracket.epsilon_upper);
    CHECK(plds.lower_add.masses.size() == plds.lower_remove.masses.size());
    CHECK(plds.lower_remove.masses.size() > 1);

    tradeoff::TradeoffOptions options;
    options.alphas = {1e-6, 1e-3, 0.1, 0.5, 0.9};
    const std::vector<double> exact = {0.9999127823898596108, 0.98170153159434340198, 0.61085630835463903096,
                                       0.15865525393145705141, 0.011257914512604765376};
    const auto curve = tradeoff::pld_tradeoff(plds, options);
    REQUIRE(curve.ok());
    for (std::size_t i = 0; i < exact.size(); ++i) {
      CAPTURE(options.alphas[i]);
      CHECK(curve.value().beta[i] <= exact[i] + 1e-12);
      CHECK(curve.value().beta[i] >= exact[i] - 0.005);
      CHECK(curve.value().beta_upper[i] >= exact[i] - 1e-12);
      CHECK(curve.value().beta_upper[i] <= exact[i] + 0.005);
    }
  }
  SUBCASE("Poisson-subsampled Gaussian (asymmetric): a lower PLD the answer skipped bounds nothing") {
    const std::vector<CompositionItem> items{{DominatingPair{GaussianPair{1, 1}, 0.01}, 1000}};
    const AnsweredEpsilon answered = answered_as_alone(items, 1e-5);
    const ComposedPlds& plds = answered.plds;
    // The remove direction has the larger eps here: its lower PLD is composed, the add one is not
    // needed, and its place holds the pair of equal laws (delta(eps) = 0 for eps >= 0).
    CHECK(plds.lower_remove.masses.size() > 1);
    CHECK(plds.lower_add.masses.size() == 1);
    CHECK(hockey_stick_divergence(plds.lower_add, 0).upper() < 1e-15);
    // The curve keeps its bracket from the one lower PLD: ordered and narrow.
    tradeoff::TradeoffOptions options;
    options.alphas.clear();
    for (int i = 0; i <= 120; ++i) options.alphas.push_back(std::pow(10.0, -12 + 12.0 * i / 120));
    const auto curve = tradeoff::pld_tradeoff(plds, options);
    REQUIRE(curve.ok());
    for (std::size_t i = 0; i < options.alphas.size(); ++i) {
      CAPTURE(options.alphas[i]);
      CHECK(curve.value().beta[i] <= curve.value().beta_upper[i]);
      CHECK(curve.value().beta_upper[i] - curve.value().beta[i] <= 0.005);
    }
  }
}
