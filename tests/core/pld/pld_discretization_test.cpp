// Properties of the discretisation of one dominating pair (dpcalc/pld/discretization.hpp): mass
// conservation, and the pessimistic / optimistic delta(eps) curves bracketing the exact curve of the
// continuous pair, in both neighbouring directions.
#include <algorithm>
#include <cmath>
#include <variant>
#include <vector>

#include "approx.hpp"
#include "dpcalc/pld/discretization.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/pld/privacy_loss.hpp"

using namespace dpcalc::pld;

namespace {

struct ExactCurve {
  DominatingPair pair;
  Direction direction;
  std::vector<double> delta;  // exact delta(eps) at kEpsilons
};

const std::vector<double> kEpsilons = {0, 0.02, 0.05, 0.1, 0.17, 0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4};

// Exact hockey-stick curves delta(eps) = int (dP - e^eps dQ)_+ of the dominating pairs of
// privacy_loss.hpp, at kEpsilons, mpmath 40 digits (printed to 17), script /tmp/xcheck/exact_curves.py:
//   Gaussian (Balle & Wang 2018, Thm 8): Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu), mu = 1/sigma;
//   Laplace (a = 1/b): 1 - e^{(eps - a)/2} on [0, a], 0 above;
//   (eps0, delta0) randomized response (Kairouz, Oh, Viswanath 2015): sum_i (p_i - e^eps q_i)_+;
//   Poisson subsampling at rate q of a symmetric pair: remove, c = (e^eps - 1 + q)/q:
//   q delta(log c); add, A = 1 - e^eps (1 - q): A delta(log(e^eps q / A)) if A > 0, else 0.
const std::vector<ExactCurve>& exact_curves() {
  static const std::vector<ExactCurve> curves = {
      {DominatingPair{GaussianPair{1, 1}},
       Direction::kRemove,
       {3.8292492254802621e-1, 3.7676316976769946e-1, 3.6755701656159532e-1, 3.5232517168136666e-1,
        3.3128012982206319e-1, 3.0771104511437591e-1, 2.3842170813487663e-1, 1.7763310170921838e-1,
        1.2693673750664395e-1, 5.6696236230553473e-2, 2.0923635821113731e-2, 1.5371853694009548e-3,
        4.7122412007931199e-5}},
      {DominatingPair{GaussianPair{0.5, 1}},
       Direction::kRemove,
       {6.826894921370859e-1, 6.7950888366246029e-1, 6.7471012347431691e-1, 6.6663951552884598e-1,
        6.5519324179855522e-1, 6.4191157548877031e-1, 5.9918561853393326e-1, 5.5498883532865892e-1,
        5.0986166005467015e-1, 4.191736401993966e-1, 3.3189799877682939e-1, 1.8381307654447216e-1,
        8.4953318671071063e-2}},
      {DominatingPair{LaplacePair{1, 1}},
       Direction::kRemove,
       {3.9346934028736658e-1, 3.8737360581558393e-1, 3.7811494353497993e-1, 3.6237184837822671e-1,
        3.3965971929501711e-1, 3.127107212090278e-1, 2.2119921692859513e-1, 1.175030974154046e-1, 0.0, 0.0, 0.0, 0.0,
        0.0}},
      {DominatingPair{LaplacePair{0.5, 1}},
       Direction::kRemove,
       {6.3212055882855768e-1, 6.2842330897795431e-1, 6.2280764643684309e-1, 6.1325897654549879e-1,
        5.9948337390918119e-1, 5.831379803214916e-1, 5.2763344725898529e-1, 4.6473857148100976e-1,
        3.9346934028736658e-1, 2.2119921692859513e-1, 0.0, 0.0, 0.0}},
      {DominatingPair{ApproxDpPair{1, 1e-3}},
       Direction::kRemove,
       {4.6265504010274975e-1, 4.5722749597947584e-1, 4.488799074897184e-1, 4.3439850872489182e-1,
        4.1286872615199589e-1, 3.8634522703281263e-1, 2.8836148750832296e-1, 1.6254787553676698e-1, 1.0e-3, 1.0e-3,
        1.0e-3, 1.0e-3, 1.0e-3}},
      {DominatingPair{GaussianPair{1, 1}, 0.1},
       Direction::kRemove,
       {3.8292492254802621e-2, 3.2711636159122993e-2, 2.614366295894726e-2, 1.8471930688062075e-2,
        1.1834882115433759e-2, 7.4175120678271211e-3, 2.0325369203403577e-3, 6.3219011106058923e-4,
        2.0712148602139211e-4, 2.2848793316892048e-5, 2.355186318853964e-6, 1.6110484362664169e-8,
        5.0881104780380156e-11}},
      {DominatingPair{GaussianPair{1, 1}, 0.1},
       Direction::kAdd,
       {3.8292492254802621e-2, 2.5878324573610115e-2, 1.0572581353831128e-2, 7.5267450100566018e-6, 0.0, 0.0, 0.0, 0.0,
        0.0, 0.0, 0.0, 0.0, 0.0}},
      {DominatingPair{GaussianPair{0.5, 1}, 0.5},
       Direction::kRemove,
       {3.4134474606854295e-1, 3.3818809625796317e-1, 3.3351296371248434e-1, 3.2587152319821054e-1,
        3.1546447012620627e-1, 3.0394679654502807e-1, 2.7014924538007675e-1, 2.3913187604718047e-1,
        2.1049559428487343e-1, 1.5970252921326206e-1, 1.1719085794100251e-1, 5.605354363642569e-2,
        2.2400373419976355e-2}},
      {DominatingPair{GaussianPair{0.5, 1}, 0.5},
       Direction::kAdd,
       {3.4134474606854295e-1, 3.3129345283106267e-1, 3.1602737463934021e-1, 2.9009997371809397e-1,
        2.528707820841377e-1, 2.0922724310694122e-1, 7.2170040151230301e-2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
      {DominatingPair{LaplacePair{0.5, 1}, 0.5},
       Direction::kRemove,
       {3.1606027941427884e-1, 3.1238124335159549e-1, 3.0685959774272082e-1, 2.9763772880755575e-1,
        2.8465617473808726e-1, 2.6966730384925941e-1, 2.211967373486068e-1, 1.6921520950784046e-1,
        1.1256497347739971e-1, 0.0, 0.0, 0.0, 0.0}},
      {DominatingPair{LaplacePair{0.5, 1}, 0.5},
       Direction::kAdd,
       {3.1606027941427884e-1, 3.0599714559180541e-1, 2.9066665381865867e-1, 2.6449492048388826e-1,
        2.265934903964489e-1, 1.8162280631932709e-1, 3.5656437900441458e-2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
      {DominatingPair{ApproxDpPair{2, 0}, 0.5},
       Direction::kRemove,
       {3.8079707797788244e-1, 3.7838901921793079e-1, 3.7468541347458278e-1, 3.6826039723151651e-1,
        3.5870819823562083e-1, 3.4694041838015415e-1, 3.0346760693252605e-1, 2.4764741209889777e-1,
        1.759728631680573e-1, 0.0, 0.0, 0.0, 0.0}},
      {DominatingPair{ApproxDpPair{2, 0}, 0.5},
       Direction::kAdd,
       {3.8079707797788244e-1, 3.7069640796450454e-1, 3.5516152978987042e-1, 3.2821161894005863e-1,
        2.8814465231769969e-1, 2.387843696340117e-1, 5.6436442627818371e-2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
      {DominatingPair{ApproxDpPair{2, 1e-3}, 0.5},
       Direction::kRemove,
       {3.8091628089990456e-1, 3.7851063019871286e-1, 3.7481072806110819e-1, 3.6839213683428499e-1,
        3.5884949003738521e-1, 3.47093477961774e-1, 3.0366413932559353e-1, 2.4789976468679887e-1, 1.7629689030488924e-1,
        5.0e-4, 5.0e-4, 5.0e-4, 5.0e-4}},
      {DominatingPair{ApproxDpPair{2, 1e-3}, 0.5},
       Direction::kAdd,
       {3.8091628089990456e-1, 3.7081561088652666e-1, 3.5528073271189254e-1, 3.2833082186208075e-1,
        2.882638552397218e-1, 2.3890357255603382e-1, 5.6555645549840488e-2, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}},
  };
  return curves;
}

DiscretizedPair discretized(const DominatingPair& mechanism, Direction direction, double interval, double tail_mass) {
  const auto pair = PrivacyLossPair::create(mechanism, direction);
  REQUIRE(pair.ok());
  const auto result = discretize(pair.value(), interval, tail_mass);
  REQUIRE(result.ok());
  return result.value();
}

double total_mass(const DiscretePld& pld) {
  double sum = pld.infinite_mass;
  for (double m : pld.masses) sum += m;
  return sum;
}

// Q-mass of the finite losses, E_P[e^{-L}; L finite]. The pessimistic PLD is the PLD of a pair of
// probability measures (connect the dots keeps each cell's Q-mass), so it is at most 1. The
// optimistic one may exceed 1: its last remainder is rounded down, which keeps P-mass and raises
// e^{-L} (sound for a lower bound: every loss only decreases, also after composition).
double finite_q_mass(const DiscretePld& pld) {
  double sum = 0;
  for (std::size_t i = 0; i < pld.masses.size(); ++i) {
    sum += pld.masses[i] * std::exp(-static_cast<double>(pld.lowest_index + static_cast<std::int64_t>(i)) *
                                    pld.discretization_interval);
  }
  return sum;
}

// Rounding allowance for comparing a delta summed in double over up to ~10^5 grid points with an
// exact value: far below any discretisation effect at the steps used here.
double rounding_slack(double exact) { return 1e-12 * exact + 1e-15; }

constexpr double kTailMass = 1e-14;

}  // namespace

TEST_CASE("[pld] discretize: masses are non-negative and sum to one, in both directions") {
  for (const ExactCurve& curve : exact_curves()) {
    for (double interval : {0.1, 0.01, 1e-3}) {
      CAPTURE(curve.pair.sampling_rate);
      CAPTURE(static_cast<int>(curve.direction));
      CAPTURE(curve.delta[0]);
      CAPTURE(interval);
      const DiscretizedPair pair = discretized(curve.pair, curve.direction, interval, kTailMass);
      for (const DiscretePld* pld : {&pair.pessimistic, &pair.optimistic}) {
        CHECK(pld->discretization_interval == interval);
        CHECK(!pld->masses.empty());
        CHECK(std::all_of(pld->masses.begin(), pld->masses.end(), [](double m) { return m >= 0 && std::isfinite(m); }));
        CHECK(pld->infinite_mass >= 0);
        CHECK(std::fabs(total_mass(*pld) - 1) <= 1e-12);
      }
      CHECK(finite_q_mass(pair.pessimistic) <= 1 + 1e-12);
      // Only the pessimistic PLD moves cut mass to +infinity, and reports it.
      CHECK(pair.pessimistic.truncated_mass >= 0);
      CHECK(pair.pessimistic.truncated_mass <= kTailMass);
      CHECK(pair.pessimistic.infinite_mass >= pair.optimistic.infinite_mass);
      CHECK(pair.pessimistic.rounding_error == 0);
      CHECK(pair.optimistic.rounding_error == 0);
    }
  }
}

TEST_CASE("[pld] discretize: infinite loss mass of (eps, delta) items") {
  // Randomized response (eps0, delta0): P[L = inf] = delta0; Poisson subsampling at rate q keeps
  // q delta0 of it in the remove direction and none in the add direction (Zhu, Dong, Wang 2022, Thm 11).
  const DiscretizedPair plain = discretized(DominatingPair{ApproxDpPair{1, 1e-3}}, Direction::kRemove, 0.01, kTailMass);
  CHECK_REL(plain.optimistic.infinite_mass, 1e-3, 1e-12);
  CHECK_REL(plain.pessimistic.infinite_mass, 1e-3, 1e-12);
  const DominatingPair subsampled{ApproxDpPair{2, 1e-3}, 0.5};
  CHECK_REL(discretized(subsampled, Direction::kRemove, 0.01, kTailMass).optimistic.infinite_mass, 5e-4, 1e-12);
  CHECK(discretized(subsampled, Direction::kAdd, 0.01, kTailMass).optimistic.infinite_mass == 0);
}

TEST_CASE("[pld] discretize: pessimistic curve above the exact one, optimistic below") {
  for (const ExactCurve& curve : exact_curves()) {
    for (double interval : {0.3, 0.1, 0.03, 0.007, 1e-3}) {
      const DiscretizedPair pair = discretized(curve.pair, curve.direction, interval, kTailMass);
      for (std::size_t i = 0; i < kEpsilons.size(); ++i) {
        CAPTURE(curve.pair.sampling_rate);
        CAPTURE(static_cast<int>(curve.direction));
        CAPTURE(curve.delta[0]);
        CAPTURE(interval);
        CAPTURE(kEpsilons[i]);
        const double exact = curve.delta[i];
        const double upper = hockey_stick_divergence(pair.pessimistic, kEpsilons[i]).value;
        const double lower = hockey_stick_divergence(pair.optimistic, kEpsilons[i]).value;
        CHECK(upper >= exact - rounding_slack(exact));
        CHECK(lower <= exact + rounding_slack(exact));
        CHECK(lower >= 0);
        CHECK(upper <= 1 + 1e-15);
      }
    }
  }
}

TEST_CASE("[pld] discretize: connect the dots is exact at grid points") {
  // Doroshenko et al. 2022, Alg. 1: the pessimistic delta(e^eps) interpolates the exact convex curve
  // at the grid points, up to the truncated tail mass. Every eps of kEpsilons is a multiple of 0.01.
  for (const ExactCurve& curve : exact_curves()) {
    for (double interval : {0.01, 1e-3}) {
      const DiscretizedPair pair = discretized(curve.pair, curve.direction, interval, kTailMass);
      for (std::size_t i = 0; i < kEpsilons.size(); ++i) {
        CAPTURE(curve.pair.sampling_rate);
        CAPTURE(static_cast<int>(curve.direction));
        CAPTURE(curve.delta[0]);
        CAPTURE(interval);
        CAPTURE(kEpsilons[i]);
        const double upper = hockey_stick_divergence(pair.pessimistic, kEpsilons[i]).value;
        CHECK(std::fabs(upper - curve.delta[i]) <= 1e-9 * curve.delta[i] + pair.pessimistic.truncated_mass + 1e-15);
      }
    }
  }
}

TEST_CASE("[pld] discretize: the bracket narrows as the interval shrinks") {
  for (const ExactCurve& curve : exact_curves()) {
    // Plain (eps, delta > 0) items have a bracket that does not narrow: see the skipped test below.
    const auto* approx = std::get_if<ApproxDpPair>(&curve.pair.base);
    if (approx != nullptr && approx->delta > 0 && curve.pair.sampling_rate == 1) continue;
    CAPTURE(curve.pair.sampling_rate);
    CAPTURE(static_cast<int>(curve.direction));
    CAPTURE(curve.delta[0]);
    double previous_width = 2;
    // Nested grids (each step divides the previous one), so each grid refines the last; on
    // unrelated grids the distance from an atom to its grid point varies and the width need not fall.
    for (double interval : {0.1, 0.01, 1e-3}) {
      CAPTURE(interval);
      const DiscretizedPair pair = discretized(curve.pair, curve.direction, interval, kTailMass);
      double width = 0;
      for (double epsilon : kEpsilons) {
        width = std::max(width, hockey_stick_divergence(pair.pessimistic, epsilon).value -
                                    hockey_stick_divergence(pair.optimistic, epsilon).value);
      }
      CHECK(width >= 0);
      CHECK(width < previous_width);
      previous_width = width;
    }
    // At step 1e-3 the bracket on delta is a few 1e-3 wide at most (the losses move by <= h).
    CHECK(previous_width <= 5e-3);
  }
}

TEST_CASE("[pld] discretize: a grid beyond kMaxGridPoints is an error before allocating") {
  // Gaussian sigma = 1: losses over about [-8, 8] at tail mass 1e-14; step 1e-6 needs ~1.6e7 points.
  const auto pair = PrivacyLossPair::create(DominatingPair{GaussianPair{1, 1}}, Direction::kRemove);
  REQUIRE(pair.ok());
  const auto result = discretize(pair.value(), 1e-6, kTailMass);
  REQUIRE(!result.ok());
  CHECK(result.error().code == "numeric");
  CHECK(result.error().field == kGridTooLarge);  // the accountant rewrites it for the request
}

TEST_CASE("[pld] discretize: reports progress every kProgressPoints grid points and stops when cancelled") {
  // Gaussian sigma = 1 at step 1e-5: about 1.6e6 grid points, the slow part of a fine grid.
  const auto pair = PrivacyLossPair::create(DominatingPair{GaussianPair{1, 1}}, Direction::kRemove);
  REQUIRE(pair.ok());
  std::vector<double> fractions;
  const auto cancelled = discretize(pair.value(), 1e-5, kTailMass, [&](double fraction) {
    fractions.push_back(fraction);
    return fractions.size() < 3;
  });
  REQUIRE(!cancelled.ok());
  CHECK(cancelled.error().code == kCancelled);
  CHECK(fractions.size() == 3);
  CHECK(fractions[0] > 0);
  CHECK(fractions[2] > fractions[1]);
  CHECK(fractions[1] > fractions[0]);
  std::size_t reports = 0;
  double last = 0;
  const auto completed = discretize(pair.value(), 1e-5, kTailMass, [&](double fraction) {
    ++reports;
    last = fraction;
    return true;
  });
  REQUIRE(completed.ok());
  const std::size_t points = completed.value().pessimistic.masses.size();
  CHECK(reports >= points / kProgressPoints - 1);
  CHECK(last <= 1);
}

// Pairs with Q-mass where P = 0 (loss -infinity: the (eps, delta) pair, and its add direction when
// subsampled): that Q-only outcome carries no P-mass and must not be merged into the lowest
// outcome (it used to be, which left the optimistic delta(0) of (1, 1e-3) at 0.4623861 against the
// exact 0.4626550 at every step).
TEST_CASE("[pld] discretize: optimistic bound converges for (eps, delta) items") {
  for (const ExactCurve& curve : exact_curves()) {
    const auto* approx = std::get_if<ApproxDpPair>(&curve.pair.base);
    if (approx == nullptr || approx->delta == 0) continue;
    CAPTURE(curve.pair.sampling_rate);
    CAPTURE(static_cast<int>(curve.direction));
    const DiscretizedPair pair = discretized(curve.pair, curve.direction, 1e-4, kTailMass);
    for (std::size_t i = 0; i < kEpsilons.size(); ++i) {
      CAPTURE(kEpsilons[i]);
      // Step 1e-4 moves each outcome by at most 1e-4 in loss: about 1e-4 in delta.
      CHECK(hockey_stick_divergence(pair.optimistic, kEpsilons[i]).value >= curve.delta[i] - 1e-4);
    }
  }
}

TEST_CASE("[pld] discretize: an atom on a grid point stays there in the optimistic PLD") {
  // Laplace b = 1: P[L = 1] = P[X >= 1] = 1/2 for X ~ Lap(1, 1), and 1 = 10 * 0.1 is a grid point.
  // The continuous part of the top cell must not drag it down to 0.9.
  const DiscretizedPair pair = discretized(DominatingPair{LaplacePair{1, 1}}, Direction::kRemove, 0.1, kTailMass);
  const DiscretePld& lower = pair.optimistic;
  const std::int64_t top = 10 - lower.lowest_index;
  REQUIRE(top >= 0);
  REQUIRE(top < static_cast<std::int64_t>(lower.masses.size()));
  CHECK(lower.masses[static_cast<std::size_t>(top)] >= 0.5 * (1 - 1e-12));
  // Above the top atom's neighbourhood the optimistic curve is then exact: delta(0.95) comes from
  // the atom alone, (1/2)(1 - e^{-0.05}), which the exact curve 1 - e^{(0.95 - 1)/2} exceeds.
  CHECK(hockey_stick_divergence(lower, 0.95).value >= -0.5 * std::expm1(-0.05) * (1 - 1e-12));
  CHECK(hockey_stick_divergence(lower, 0.95).value <= -std::expm1(-0.025));
}

TEST_CASE("[pld] privacy loss: atoms and continuous part partition P, Q-only mass is left out") {
  for (const ExactCurve& curve : exact_curves()) {
    CAPTURE(curve.pair.sampling_rate);
    CAPTURE(static_cast<int>(curve.direction));
    CAPTURE(curve.delta[0]);
    const auto pair = PrivacyLossPair::create(curve.pair, curve.direction);
    REQUIRE(pair.ok());
    double atom_p = 0;
    for (const LossAtom& atom : pair.value().atoms()) {
      atom_p += atom.p;
      CHECK_REL(atom.q, atom.p * std::exp(-atom.loss), 1e-12);
    }
    for (double threshold : {-2.0, -0.3, 0.0, 0.4, 2.0}) {
      const LossMasses continuous = pair.value().continuous_masses(threshold);
      const double total = continuous.p_above + continuous.p_at_most + atom_p + pair.value().infinite_loss_mass();
      CHECK(std::fabs(total - 1) <= 1e-12);
    }
  }
  // (1, 1e-3) randomized response: Q-mass 1e-3 sits where P = 0 and belongs to neither event.
  const auto rr = PrivacyLossPair::create(DominatingPair{ApproxDpPair{1, 1e-3}}, Direction::kRemove);
  REQUIRE(rr.ok());
  const LossMasses masses = rr.value().masses(-5);
  CHECK_REL(masses.q_above + masses.q_at_most, 1 - 1e-3, 1e-12);
}
