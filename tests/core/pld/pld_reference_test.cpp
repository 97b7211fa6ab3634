// Cross-checks of the PLD accountant (dpcalc/pld/accountant.hpp) against independent accountants
// and exact values, with default options: epsilon_upper within 0.5% or 5e-4 absolute (whichever is
// larger) of dp_accounting, [epsilon_lower, epsilon_upper] consistent with the PRV accountant's
// bracket, and exact values (mpmath) inside [epsilon_lower, epsilon_upper].
//
// Reference programs (run with Debian's /usr/bin/python3, numpy 1.24.2, scipy 1.10.1, mpmath 1.2.1):
//  * dp_accounting 0.6.0, google/differential-privacy commit b5b0286e313b64a692abfc8c528d54ef47d960a0,
//    python/dp_accounting, PLD with pessimistic_estimate=True, use_connect_dots=True,
//    value_discretization_interval=1e-4, self_compose(T), get_epsilon_for_delta (max over add/remove).
//  * PRV accountant 0.2.0, microsoft/prv_accountant commit a844f7200af2722d6a81e0386b2b7351688ecf35,
//    run from source: PRVAccountant(prvs=[...], eps_error=0.01, delta_error=delta/1000,
//    max_self_compositions=[T]).compute_epsilon(delta, [T]) -> (lower, estimate, upper). It models
//    the remove direction only.
//  Script: /tmp/xcheck/refs.py, e.g. `python3 refs.py dpa_sg 1 0.01 10000 1e-5`, `... prv_sg 1 0.01 10000 1e-5`.
#include <algorithm>
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc::pld;

namespace {

// |actual - expected| <= max(0.5% of expected, 5e-4): the acceptance tolerance.
bool within_tolerance(double actual, double expected) {
  return std::fabs(actual - expected) <= std::max(5e-3 * expected, 5e-4);
}

// The bracket of a successful result contains `exact`, and its upper end is within tolerance.
void check_bracket_contains(const dpcalc::Result<EpsilonBracket>& result, double exact) {
  REQUIRE(result.ok());
  const EpsilonBracket& bracket = result.value();
  CAPTURE(bracket.epsilon_upper);
  CAPTURE(bracket.epsilon_lower);
  CHECK(bracket.epsilon_upper >= exact);
  CHECK(bracket.epsilon_lower <= exact);
  CHECK(within_tolerance(bracket.epsilon_upper, exact));
}

CompositionItem item(const BasePair& base, double count, double sampling_rate = 1) {
  return CompositionItem{DominatingPair{base, sampling_rate}, count};
}

}  // namespace

TEST_CASE("[pld] Poisson-subsampled Gaussian grid against dp_accounting and the PRV accountant") {
  struct Row {
    double sigma, rate, steps;
    double dp_accounting;         // dp_accounting PLD, step 1e-4 (see the file comment)
    double prv_lower, prv_upper;  // PRV accountant bracket, eps_error 0.01 (see the file comment)
  };
  // delta = 1e-5; `python3 refs.py dpa_sg SIGMA Q T 1e-5` and `python3 refs.py prv_sg SIGMA Q T 1e-5`.
  const Row rows[] = {
      {0.8, 0.001, 1, 0.021707128175107487, 0.011246990337727256, 0.031272358439875934},
      {0.8, 0.001, 100, 0.14096873784060007, 0.13095709624824112, 0.1510366101712876},
      {0.8, 0.001, 10000, 0.7825248325367357, 0.7723286513249347, 0.7924624580062478},
      {0.8, 0.01, 1, 0.4833261440759969, 0.4732203908465504, 0.4935267837207414},
      {0.8, 0.01, 100, 1.5108380181732128, 1.5006265297102017, 1.5210535690874936},
      {0.8, 0.01, 10000, 10.053658749034906, 10.043124047416967, 10.064147420534963},
      {0.8, 0.1, 1, 2.7274336540296886, 2.717125371307925, 2.7377435541417925},
      {0.8, 0.1, 100, 10.976378173448264, 10.96568693089446, 10.987070366038893},
      {0.8, 0.1, 10000, 214.88107032414837, 214.86664125552412, 214.89538321538444},
      {1, 0.001, 1, 0.00911172311687351, -0.0011938103227303219, 0.018811424320814486},
      {1, 0.001, 100, 0.05517469135200512, 0.045238712913952366, 0.06525873627991739},
      {1, 0.001, 10000, 0.47598701492087575, 0.465735313200583, 0.48580805882647676},
      {1, 0.01, 1, 0.1994504734745966, 0.18943677452518867, 0.209556463993383},
      {1, 0.01, 100, 0.7180367096027561, 0.7079467490726041, 0.7281339329811589},
      {1, 0.01, 10000, 6.187744976039963, 6.177388141665295, 6.198043832631382},
      {1, 0.1, 1, 1.6845438210276724, 1.6743260958985122, 1.6947684471880164},
      {1, 0.1, 100, 7.046602877200788, 7.036150933067016, 7.0570564392489565},
      {1, 0.1, 10000, 127.87897776047784, 127.86592499020277, 127.89196757258058},
      {2, 0.001, 1, 0.0015074294816207646, -0.007528964181466742, 0.012472211447600473},
      {2, 0.001, 100, 0.014668462143721233, 0.0048100798635288, 0.024813888842134774},
      {2, 0.001, 10000, 0.17384697734755303, 0.1633183400522561, 0.18334769905415865},
      {2, 0.01, 1, 0.02825929231632538, 0.018270866780686255, 0.03828592834799528},
      {2, 0.01, 100, 0.18979906161561105, 0.17979897116762683, 0.19983373076193722},
      {2, 0.01, 10000, 2.162773645216934, 2.152577328303822, 2.17283780106076},
      {2, 0.1, 1, 0.36903671420950773, 0.3589966546330472, 0.3791017938078691},
      {2, 0.1, 100, 2.3374001924305694, 2.3272490675485735, 2.347555316375592},
      {2, 0.1, 10000, 36.00369782798399, 35.992458872981125, 36.01490403674242},
  };
  constexpr double kDelta = 1e-5;
  for (const Row& row : rows) {
    CAPTURE(row.sigma);
    CAPTURE(row.rate);
    CAPTURE(row.steps);
    const auto result = epsilon_for_delta({item(GaussianPair{row.sigma, 1}, row.steps, row.rate)}, kDelta);
    REQUIRE(result.ok());
    const EpsilonBracket& bracket = result.value();
    CAPTURE(bracket.epsilon_upper);
    CAPTURE(bracket.epsilon_lower);
    CHECK(within_tolerance(bracket.epsilon_upper, row.dp_accounting));
    CHECK(bracket.epsilon_lower <= bracket.epsilon_upper);
    // dp_accounting's pessimistic value is a sound upper bound on the exact eps.
    CHECK(bracket.epsilon_lower <= row.dp_accounting);
    // The PRV bracket contains the exact eps of the remove direction, which is at most the max.
    CHECK(bracket.epsilon_upper >= row.prv_lower);
    CHECK(bracket.epsilon_lower <= row.prv_upper);
  }
}

TEST_CASE("[pld] Poisson-subsampled Laplace against dp_accounting") {
  // `python3 refs.py dpa_lap 1 0.01 1000 1e-5`: from_laplace_mechanism(1, sampling_prob=0.01),
  // step 1e-4, connect the dots, self_compose(1000), get_epsilon_for_delta(1e-5).
  const double reference = 1.1237829013646938;
  const auto result = epsilon_for_delta({item(LaplacePair{1, 1}, 1000, 0.01)}, 1e-5);
  REQUIRE(result.ok());
  CHECK(within_tolerance(result.value().epsilon_upper, reference));
  CHECK(result.value().epsilon_lower <= result.value().epsilon_upper);
  CHECK(result.value().epsilon_lower <= reference);
}

TEST_CASE("[pld] heterogeneous mix: Laplace b = 2 x10 and Gaussian sigma = 3 x20") {
  // dp_accounting: from_laplace_mechanism(2).self_compose(10).compose(
  //   from_gaussian_mechanism(3).self_compose(20)), step 1e-4, connect the dots, delta 1e-5
  //   (`python3 refs.py dpa_mix 1e-5`).
  const double reference = 10.020573239666065;
  // PRV accountant: PRVAccountant([LaplacePair(mu=0.5), GaussianPair(3)], eps_error=0.01,
  //   delta_error=1e-8, max_self_compositions=[10, 20]).compute_epsilon(1e-5, [10, 20])
  //   (`python3 refs.py prv_mix 1e-5`).
  const double prv_lower = 10.008804006379671, prv_upper = 10.029634572012473;
  const std::vector<CompositionItem> items = {item(LaplacePair{2, 1}, 10), item(GaussianPair{3, 1}, 20)};
  const auto result = epsilon_for_delta(items, 1e-5);
  REQUIRE(result.ok());
  const EpsilonBracket& bracket = result.value();
  CHECK(within_tolerance(bracket.epsilon_upper, reference));
  CHECK(bracket.epsilon_lower <= bracket.epsilon_upper);
  CHECK(bracket.epsilon_lower <= reference);
  CHECK(bracket.epsilon_upper >= prv_lower);
  CHECK(bracket.epsilon_lower <= prv_upper);
  SUBCASE("the order of the items does not matter") {
    const auto swapped = epsilon_for_delta({items[1], items[0]}, 1e-5);
    REQUIRE(swapped.ok());
    CHECK_REL(swapped.value().epsilon_upper, bracket.epsilon_upper, 1e-9);
  }
}

TEST_CASE("[pld] Poisson-subsampled pure eps-DP against the exact composition") {
  struct Row {
    double rate, steps, exact;
  };
  // eps0 = 1, delta = 1e-5. Exact: T-fold composition of the subsampled randomized-response pair
  // (remove (qP + (1-q)Q, Q) and add (Q, qP + (1-q)Q), P = (e/(1+e), 1/(1+e)), Q reversed), a
  // binomial sum in mpmath 50 digits, eps by bisection, max over the directions
  // (/tmp/xcheck/subrr_exact.py; remove 4.7323546445087841817 / add 4.0293729556561170098 and
  // remove 1.278055167068817751 / add 1.220774969007796677). dp_accounting has no subsampled
  // (eps, delta) item; its from_two_probability_mass_functions on the same pairs (plain pessimistic
  // rounding, step 1e-4) gives 4.738922315191092 and 1.32651527690215, both above the exact values
  // (its rounding adds up to 1e-4 per composition), so the exact value is the reference here.
  const Row rows[] = {{0.1, 100, 4.7323546445087841817}, {0.01, 1000, 1.278055167068817751}};
  for (const Row& row : rows) {
    CAPTURE(row.rate);
    CAPTURE(row.steps);
    check_bracket_contains(epsilon_for_delta({item(ApproxDpPair{1, 0}, row.steps, row.rate)}, 1e-5), row.exact);
  }
}

TEST_CASE("[pld] Gaussian: exact composition inside the bracket, tiny and moderate eps") {
  struct Row {
    double sigma, steps, delta, exact;
  };
  // Exact: mpmath 30 digits of delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu),
  // mu = sqrt(T)/sigma (Balle & Wang 2018, Thm 8), bisection (/tmp/xcheck/gauss_exact.py).
  const Row rows[] = {{0.8, 1, 1e-5, 5.6795868550975652242},
                      {1, 100, 1e-5, 91.817289624663744685},
                      {2, 10000, 1e-5, 1462.285015964779788},
                      {50, 1, 1e-5, 0.05863225530609616366},
                      {100, 1, 1e-3, 0.0090480725930387978288}};
  for (const Row& row : rows) {
    CAPTURE(row.sigma);
    CAPTURE(row.steps);
    check_bracket_contains(epsilon_for_delta({item(GaussianPair{row.sigma, 1}, row.steps)}, row.delta), row.exact);
  }
}

TEST_CASE("[pld] one Poisson-subsampled Gaussian: exact eps inside the bracket") {
  struct Row {
    double sigma, rate, exact;
  };
  // delta = 1e-5, T = 1. Exact: mpmath 40 digits, max over remove q dG(log(1 + (e^eps - 1)/q)) and
  // add A dG(log(e^eps q / A)), A = 1 - e^eps (1 - q), dG the Gaussian curve (Balle & Wang 2018,
  // Thm 8), bisection (/tmp/xcheck/subgauss_t1.py; the remove direction is the larger in every row).
  const Row rows[] = {
      {0.8, 0.001, 0.021707088184068030863}, {0.8, 0.01, 0.48332613578436399673}, {0.8, 0.1, 2.7274336494347578162},
      {1, 0.001, 0.0091115644870636279027},  {1, 0.01, 0.19945044779591472374},   {1, 0.1, 1.684543814328464065},
      {2, 0.001, 0.0015067940232698964058},  {2, 0.01, 0.028259083957234786765},  {2, 0.1, 0.36903669028659148105}};
  for (const Row& row : rows) {
    CAPTURE(row.sigma);
    CAPTURE(row.rate);
    check_bracket_contains(epsilon_for_delta({item(GaussianPair{row.sigma, 1}, 1, row.rate)}, 1e-5), row.exact);
  }
}

// The 0.1% requirement at large eps, where the mean shift of connect-the-dots dominates
// (a step chosen from the spread alone gave 91.9234, +0.116%, and 1468.84, +0.448%).
TEST_CASE("[pld] Gaussian composed T times within 0.1% of exact for large eps") {
  struct Row {
    double sigma, steps, exact;
  };
  // delta = 1e-5; exact eps as in "[pld] Gaussian: exact composition inside the bracket" above.
  const Row rows[] = {{1, 100, 91.817289624663744685}, {2, 10000, 1462.285015964779788}};
  for (const Row& row : rows) {
    CAPTURE(row.sigma);
    CAPTURE(row.steps);
    const auto result = epsilon_for_delta({item(GaussianPair{row.sigma, 1}, row.steps)}, 1e-5);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_upper >= row.exact);
    CHECK(result.value().epsilon_upper <= row.exact * 1.001);
  }
}

// Items whose loss has a point mass at the top of its range (Laplace, (eps, delta) items): the
// optimistic discretisation used to merge that atom with the remainder of the cell below and round
// the merged outcome down a whole step (eps_lower 9.798, 1.0293 and 4.2878 here).
TEST_CASE("[pld] lower bound within 0.5% for items with point masses") {
  struct Row {
    std::vector<CompositionItem> items;
    double reference;  // sources as in the test cases above
  };
  const Row rows[] = {{{item(LaplacePair{2, 1}, 10), item(GaussianPair{3, 1}, 20)}, 10.020573239666065},
                      {{item(LaplacePair{1, 1}, 1000, 0.01)}, 1.1237829013646938},
                      {{item(ApproxDpPair{1, 0}, 100, 0.1)}, 4.7323546445087841817}};
  for (const Row& row : rows) {
    CAPTURE(row.reference);
    const auto result = epsilon_for_delta(row.items, 1e-5);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_lower >= row.reference * (1 - 5e-3));
  }
}

TEST_CASE("[pld] default step: refined until the bracket is within 4 relative_accuracy") {
  struct Row {
    std::vector<CompositionItem> items;
    double exact;
  };
  // Subsampled eps = 1, q = 0.01, T = 1000: exact as in "[pld] Poisson-subsampled pure eps-DP
  // against the exact composition". Subsampled Gaussian sigma = 4, q = 0.001, T = 1: mpmath 40
  // digits of the remove direction q dG(log(1 + (e^eps - 1)/q)), mu = 1/4 (Balle & Wang 2018,
  // Thm 8), bisection; the add direction gives 2.744e-4.
  const Row rows[] = {{{item(ApproxDpPair{1, 0}, 1000, 0.01)}, 1.278055167068817751},
                      {{item(GaussianPair{4, 1}, 1, 0.001)}, 4.330219667798581472e-4}};
  const AccountingOptions defaults;
  for (const Row& row : rows) {
    CAPTURE(row.exact);
    const auto result = epsilon_for_delta(row.items, 1e-5);
    REQUIRE(result.ok());
    const EpsilonBracket& bracket = result.value();
    CAPTURE(bracket.epsilon_upper);
    CAPTURE(bracket.epsilon_lower);
    CHECK(bracket.epsilon_upper >= row.exact);
    CHECK(bracket.epsilon_lower <= row.exact);
    CHECK(bracket.epsilon_upper - bracket.epsilon_lower <= 4 * defaults.relative_accuracy * bracket.epsilon_upper);
    // The reported step is the one of the last pass; the answer intersects the passes' brackets,
    // so it is at least as tight as that pass's.
    AccountingOptions fixed;
    fixed.discretization_interval = bracket.discretization.discretization_interval;
    const auto again = epsilon_for_delta(row.items, 1e-5, fixed);
    REQUIRE(again.ok());
    CHECK(again.value().epsilon_upper >= bracket.epsilon_upper);
    CHECK(again.value().epsilon_lower <= bracket.epsilon_lower);
    CHECK(again.value().discretization.grid_size == bracket.discretization.grid_size);
  }
}
