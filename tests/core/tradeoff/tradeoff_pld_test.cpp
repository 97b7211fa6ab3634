#include <algorithm>
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/tradeoff/pld_tradeoff.hpp"

using namespace dpcalc;
using namespace dpcalc::tradeoff;

namespace {

// The false-positive rates of tests/reference/tradeoff_reference.py.
const std::vector<double> kAlphas = {1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.3, 0.5, 0.9};

pld::ComposedPlds composed(const pld::DominatingPair& pair, double count) {
  const auto plds = pld::compose_items({pld::CompositionItem{pair, count}}, {});
  REQUIRE(plds.ok());
  return plds.value();
}

TradeoffOptions at(const std::vector<double>& alphas) {
  TradeoffOptions options;
  options.alphas = alphas;
  return options;
}

// The correctness criterion for numeric curves: beta <= exact + 1e-12 (sound) and >= exact - 0.005;
// the optimistic side brackets the exact value the same way.
void check_bracket(const TradeoffResult& result, const std::vector<double>& exact) {
  REQUIRE(result.beta.size() == exact.size());
  REQUIRE(result.beta_upper.size() == exact.size());
  for (std::size_t i = 0; i < exact.size(); ++i) {
    CAPTURE(result.alphas[i]);
    CHECK(result.beta[i] <= exact[i] + 1e-12);
    CHECK(result.beta[i] >= exact[i] - 0.005);
    CHECK(result.beta_upper[i] >= exact[i] - 1e-12);
    CHECK(result.beta_upper[i] <= exact[i] + 0.005);
  }
}

}  // namespace

TEST_CASE("[tradeoff] Gaussian PLDs give G_mu") {
  // G_1 at kAlphas: tests/reference/tradeoff_reference.py, section 1 (mpmath).
  const std::vector<double> exact = {0.99999971007013689457, 0.9999127823898596108,  0.98170153159434340198,
                                     0.90763775192630606415, 0.61085630835463903096, 0.3171798703640042593,
                                     0.15865525393145705141, 0.011257914512604765376};
  SUBCASE("one Gaussian mechanism, sigma = 1") {
    const auto result = pld_tradeoff(composed({pld::GaussianPair{1, 1}}, 1), at(kAlphas));
    REQUIRE(result.ok());
    check_bracket(result.value(), exact);
    // Total variation 2 Phi(1/2) - 1 (mpmath, section 1).
    check_upper_bound(result.value().advantage, 0.38292492254802620728, 1e-3);
    CHECK_FALSE(result.value().mu.has_value());
    REQUIRE(result.value().discretization.has_value());
    CHECK(result.value().discretization->grid_size > 0);
  }
  SUBCASE("four compositions at sigma = 2 (mu = sqrt(4) / 2 = 1)") {
    const auto result = pld_tradeoff(composed({pld::GaussianPair{2, 1}}, 4), at(kAlphas));
    REQUIRE(result.ok());
    check_bracket(result.value(), exact);
  }
}

TEST_CASE("[tradeoff] a Laplace PLD gives the closed-form Laplace trade-off") {
  struct Case {
    double epsilon;  // sensitivity / scale
    std::vector<double> exact;
    double advantage;
  };
  // tests/reference/tradeoff_reference.py, section 2 (mpmath): the closed form of Dong, Roth, Su
  // 2019 restated in /work/shared/science/mechanisms_and_tradeoffs.md, at kAlphas.
  const Case cases[] = {
      {0.5,
       {0.9999999983512787293, 0.99999835127872929987, 0.99835127872929987185, 0.98351278729299871853,
        0.83512787292998718532, 0.50538361878996155595, 0.3032653298563167118, 0.06065306597126334236},
       0.22119921692859513175},
      {1,
       {0.99999999728171817154, 0.99999728171817154095, 0.99728171817154095476, 0.97281718171540954765,
        0.72817181715409547646, 0.30656620097620193466, 0.1839397205857211608, 0.03678794411714423216},
       0.3934693402873665764},
      {3,
       {0.99999997991446307681, 0.99997991446307681233, 0.97991446307681233226, 0.79914463076812332259,
        0.12446767091965985745, 0.041489223639886619149, 0.02489353418393197149, 0.0049787068367863942979},
       0.77686983985157017107},
  };
  for (const Case& c : cases) {
    CAPTURE(c.epsilon);
    const auto result = pld_tradeoff(composed({pld::LaplacePair{1 / c.epsilon, 1}}, 1), at(kAlphas));
    REQUIRE(result.ok());
    check_bracket(result.value(), c.exact);
    check_upper_bound(result.value().advantage, c.advantage, 1e-3);
  }
}

TEST_CASE("[tradeoff] randomized response composed T times: the exact Neyman-Pearson curve") {
  struct Case {
    double epsilon, rounds;
    std::vector<double> exact;
  };
  // tests/reference/tradeoff_reference.py, section 3 (mpmath, Neyman-Pearson over the binomial
  // outcomes), at kAlphas. ApproxDpPair{eps, 0} is exactly the randomized-response pair.
  const Case cases[] = {
      {1,
       1,
       {0.99999999728171817154, 0.99999728171817154095, 0.99728171817154095476, 0.97281718171540954765,
        0.72817181715409547646, 0.25751560882000962512, 0.1839397205857211608, 0.03678794411714423216}},
      {0.5,
       10,
       {0.99999985158684089742, 0.9998515868408974234, 0.93988222293234774659, 0.78064299256957648226,
        0.39649333422539862287, 0.14294787665297864201, 0.061922025637320390302, 0.0029360223535973567778}},
      {0.1,
       100,
       {0.99999974990619339919, 0.99991893057237185516, 0.98206393648781134731, 0.90850887429424485753,
        0.61202767478153207542, 0.31802738738414396301, 0.15817927668518527892, 0.011406507460855911749}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.epsilon);
    CAPTURE(c.rounds);
    const auto result = pld_tradeoff(composed({pld::ApproxDpPair{c.epsilon, 0}}, c.rounds), at(kAlphas));
    REQUIRE(result.ok());
    check_bracket(result.value(), c.exact);
  }
}

TEST_CASE("[tradeoff] a PLD curve agrees with the accountant's answers on the same PLDs") {
  // DP-SGD-like: Poisson-subsampled Gaussian, whose remove and add directions differ.
  const pld::ComposedPlds plds = composed({pld::GaussianPair{1, 1}, 0.01}, 1000);
  std::vector<double> alphas;
  for (int i = 0; i <= 3000; ++i) alphas.push_back(std::pow(10.0, -12 + 12.0 * i / 3000));
  const auto result = pld_tradeoff(plds, at(alphas));
  REQUIRE(result.ok());
  const TradeoffResult& curve = result.value();

  SUBCASE("the (eps, delta) read back from the curve lies in the accountant's bracket") {
    for (double delta : {1e-5, 1e-3}) {
      CAPTURE(delta);
      const pld::EpsilonBracket bracket = pld::epsilon_bracket(plds, delta);
      // The smallest eps with TPR <= delta + e^eps alpha (remove direction) and
      // 1 - alpha <= delta + e^eps beta (add direction) at every reported point.
      double read_back = 0;
      for (std::size_t i = 0; i < alphas.size(); ++i) {
        const double tpr = 1 - curve.beta[i];
        if (tpr > delta) read_back = std::max(read_back, std::log((tpr - delta) / alphas[i]));
        if (1 - alphas[i] > delta && curve.beta[i] > 0) {
          read_back = std::max(read_back, std::log((1 - alphas[i] - delta) / curve.beta[i]));
        }
      }
      CHECK(read_back <= bracket.epsilon_upper * (1 + 1e-9));
      CHECK(read_back >= bracket.epsilon_lower);
    }
  }
  SUBCASE("the advantage is delta(0) of the profile, within its bracket") {
    const pld::DeltaBracket at_zero = pld::delta_bracket(plds, 0);
    CHECK(curve.advantage <= at_zero.delta_upper * (1 + 1e-12));
    CHECK(curve.advantage >= at_zero.delta_lower);
    for (std::size_t i = 0; i < alphas.size(); ++i) CHECK(1 - alphas[i] - curve.beta[i] <= curve.advantage);
  }
  SUBCASE("the bracket is ordered and narrow") {
    for (std::size_t i = 0; i < alphas.size(); ++i) {
      CHECK(curve.beta[i] <= curve.beta_upper[i]);
      CHECK(curve.beta_upper[i] - curve.beta[i] <= 0.005);
    }
  }
}

TEST_CASE("[tradeoff] swapping the directions gives the other test's curve, the inverse function") {
  // Poisson subsampling makes the remove and add directions differ; with them swapped the PLDs
  // describe the test for "not in the data", whose curve is f^-1 (Dong, Roth, Su 2019, Def. 2.1).
  const pld::ComposedPlds plds = composed({pld::GaussianPair{0.8, 1}, 0.05}, 50);
  pld::ComposedPlds swapped = plds;
  std::swap(swapped.upper_remove, swapped.upper_add);
  std::swap(swapped.lower_remove, swapped.lower_add);
  const std::vector<double> alphas = {1e-4, 0.01, 0.1, 0.3};
  const auto result = pld_tradeoff(plds, at(alphas));
  REQUIRE(result.ok());
  const TradeoffResult& curve = result.value();
  const auto inverse_at_lower = pld_tradeoff(swapped, at(curve.beta));
  const auto inverse_at_upper = pld_tradeoff(swapped, at(curve.beta_upper));
  REQUIRE(inverse_at_lower.ok());
  REQUIRE(inverse_at_upper.ok());
  for (std::size_t i = 0; i < alphas.size(); ++i) {
    CAPTURE(alphas[i]);
    // f^-1 is decreasing: f^-1(beta) >= alpha for beta <= f(alpha), <= alpha for beta >= f(alpha).
    CHECK(inverse_at_lower.value().beta_upper[i] >= alphas[i]);
    CHECK(inverse_at_upper.value().beta[i] <= alphas[i]);
    CHECK(inverse_at_lower.value().beta[i] >= alphas[i] - 0.005);
  }
  // The two tests differ: the curve is not symmetric.
  CHECK(std::fabs(curve.beta[2] - pld_tradeoff(swapped, at(alphas)).value().beta[2]) > 0.01);
}

TEST_CASE("[tradeoff] a symmetric pair's add lines, read anyway, move no beta") {
  // A symmetric pair reads its remove lines only (pld_tradeoff.cpp, evaluate). With the flag off and
  // the add direction told apart by a field the lines do not read (truncated_mass, which only the
  // optimistic PLDs' slack uses), the add lines of the same PLD are read too: beta may only rise,
  // and by no more than rounding (the remove lines' curve of a symmetric pair is symmetric).
  for (const pld::DominatingPair& pair :
       {pld::DominatingPair{pld::LaplacePair{10, 1}}, pld::DominatingPair{pld::LaplacePair{0.5, 1}},
        pld::DominatingPair{pld::ApproxDpPair{0.3, 1e-6}}}) {
    for (double count : {1.0, 30.0, 1000.0}) {
      const pld::ComposedPlds plds = composed(pair, count);
      REQUIRE(plds.symmetric);
      pld::ComposedPlds both_read = plds;
      both_read.symmetric = false;
      both_read.upper_add.truncated_mass = std::nextafter(plds.upper_add.truncated_mass, 1.0);
      std::vector<double> alphas = {0, 1e-9, 1e-6, 1e-3};
      for (int i = 1; i < 100; ++i) alphas.push_back(i / 100.0);
      const auto one = pld_tradeoff(plds, at(alphas));
      const auto two = pld_tradeoff(both_read, at(alphas));
      REQUIRE(one.ok());
      REQUIRE(two.ok());
      for (std::size_t i = 0; i < alphas.size(); ++i) {
        CAPTURE(count);
        CAPTURE(alphas[i]);
        CHECK(two.value().beta[i] >= one.value().beta[i]);
        CHECK(two.value().beta[i] <= one.value().beta[i] + 1e-10);
      }
    }
  }
}

TEST_CASE("[tradeoff] extreme PLDs give finite, ordered bounds") {
  struct Case {
    const char* name;
    pld::DominatingPair pair;
    double count;
  };
  const Case cases[] = {
      {"losses up to 1200 (e^loss overflows)", {pld::ApproxDpPair{40, 0}}, 30},
      {"delta = 0.3 per item", {pld::ApproxDpPair{1, 0.3}}, 3},
      {"mu = 20", {pld::GaussianPair{0.05, 1}}, 1},
      {"almost no privacy loss", {pld::GaussianPair{1000, 1}, 1e-3}, 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    const auto result = pld_tradeoff(composed(c.pair, c.count), {});
    REQUIRE(result.ok());
    const TradeoffCurve& curve = result.value().curve;
    for (std::size_t i = 0; i < curve.alpha.size(); ++i) {
      CAPTURE(curve.alpha[i]);
      CHECK(curve.beta[i] >= 0);
      CHECK(curve.beta[i] <= curve.beta_upper[i]);
      CHECK(curve.beta_upper[i] <= 1 - curve.alpha[i] + 1e-15);
      CHECK(curve.tpr[i] <= 1);
      if (i > 0) CHECK(curve.beta[i] <= curve.beta[i - 1]);
    }
    CHECK(result.value().advantage >= 0);
    CHECK(result.value().advantage <= 1);
  }
}
