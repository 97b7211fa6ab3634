#include "dpcalc/closed_form/analytic_gaussian.hpp"

#include <cmath>
#include <vector>

#include "approx.hpp"

using dpcalc::gaussian_delta_for_epsilon;
using dpcalc::gaussian_epsilon_for_delta;

namespace {

struct DeltaCase {
  double mu;
  double epsilon;
  double delta;
};

struct EpsilonCase {
  double mu;
  double delta;
  double epsilon;
};

}  // namespace

TEST_CASE("[analytic_gaussian] delta(eps) matches the exact profile") {
  // Expected: mpmath 40 digits of Φ(mu/2 − eps/mu) − e^eps Φ(−mu/2 − eps/mu) (Balle & Wang 2018,
  // Thm 8), with mpmath.ncdf and mpmath.exp.
  const std::vector<DeltaCase> cases = {
      {1, 1, 0.1269367375066439458},
      {0.5, 2, 9.4391686349472337585e-6},  // z crosses the continued-fraction switch
      {2, 0, 0.68268949213708589717},      // delta(0) = erf(mu/(2√2))
      {1, 1e-4, 0.382894069011829142},
      {10, 60, 0.13683538039646126522},
      {40, 900, 0.0057974626830114253841},        // e^900 overflows a double
      {1, 20, 2.6647067053654976526e-86},         // far tail
      {3000, 4.6e6, 6.2824052165719068318e-244},  // huge mu (group of thousands)
  };
  for (const DeltaCase& c : cases) {
    CAPTURE(c.mu);
    CAPTURE(c.epsilon);
    CHECK_REL(gaussian_delta_for_epsilon(c.mu, c.epsilon), c.delta, 1e-9);
  }
  SUBCASE("tiny mu: the two terms nearly cancel") {
    // mpmath 40 digits, same formula. The reported value is an upper bound that includes its own
    // rounding-error bound, so it may sit slightly above; it must never sit below.
    const double delta_small = gaussian_delta_for_epsilon(1e-3, 5e-3);
    CHECK(delta_small >= 5.3595470410572126784e-11 * (1 - 1e-15));
    CHECK_REL(delta_small, 5.3595470410572126784e-11, 1e-8);
    const double delta_tiny = gaussian_delta_for_epsilon(1e-6, 3e-6);
    CHECK(delta_tiny >= 3.8215489027958773851e-10 * (1 - 1e-15));
    CHECK_REL(delta_tiny, 3.8215489027958773851e-10, 1e-5);
  }
}

TEST_CASE("[analytic_gaussian] eps(delta) matches the exact inverse and is never below it") {
  // Expected: mpmath 60 digits, bisection (300 steps) of log delta(eps) = log delta on the exact
  // profile above.
  const std::vector<EpsilonCase> cases = {
      {1, 1e-5, 4.3771780956812246277},       {0.1, 1e-6, 0.39685737764408359044},
      {1e-3, 1e-6, 0.0027182190888139951196}, {1e-6, 1e-8, 1.9383566759407212139e-6},
      {1000, 1e-6, 504752.4266783593293},     {5000, 1e-10, 12531805.705147628619},
      {2, 1e-300, 75.933749958764132303},     {1, 1e-300, 37.448847912139104941},
      {30, 1e-300, 1560.7617052318867942},
  };
  for (const EpsilonCase& c : cases) {
    CAPTURE(c.mu);
    CAPTURE(c.delta);
    const double epsilon = gaussian_epsilon_for_delta(c.mu, c.delta);
    CHECK(epsilon >= c.epsilon * (1 - 1e-15));
    // Tiny mu loses digits to cancellation; the pessimistic evaluation then costs a little eps.
    CHECK_REL(epsilon, c.epsilon, c.mu < 1e-4 ? 1e-7 : 1e-11);
    CHECK(gaussian_delta_for_epsilon(c.mu, epsilon) <= c.delta);
  }
}

TEST_CASE("[analytic_gaussian] eps(delta) properties") {
  SUBCASE("delta at or above delta(0) needs no epsilon") {
    // delta(0) = erf(mu/(2√2)) ≈ 4.0e-7 for mu = 1e-6.
    CHECK(gaussian_epsilon_for_delta(1e-6, 1e-5) == 0);
    CHECK(gaussian_epsilon_for_delta(1, 0.9) == 0);
  }
  SUBCASE("round trip: delta(eps(delta)) <= delta and close") {
    for (double mu : {1e-4, 0.01, 0.3, 1.0, 4.0, 50.0, 2000.0}) {
      for (double delta : {1e-2, 1e-6, 1e-12, 1e-100, 1e-300}) {
        CAPTURE(mu);
        CAPTURE(delta);
        const double epsilon = gaussian_epsilon_for_delta(mu, delta);
        REQUIRE(std::isfinite(epsilon));
        const double achieved = gaussian_delta_for_epsilon(mu, epsilon);
        CHECK(achieved <= delta);
        // delta(eps) is steep (d log delta / d eps >= 1 for eps > 0), so an eps accurate to 1e-13
        // relative gives delta within a small relative distance of the target.
        if (epsilon > 0) CHECK(achieved >= delta * (1 - 1e-7));
      }
    }
  }
  SUBCASE("monotone: larger mu needs larger eps, smaller delta needs larger eps") {
    double previous = 0;
    for (double mu : {0.01, 0.1, 1.0, 10.0, 100.0, 1000.0}) {
      const double epsilon = gaussian_epsilon_for_delta(mu, 1e-6);
      CHECK(epsilon > previous);
      previous = epsilon;
    }
    previous = 0;
    for (double delta : {1e-2, 1e-4, 1e-8, 1e-16, 1e-64, 1e-256}) {
      const double epsilon = gaussian_epsilon_for_delta(1.0, delta);
      CHECK(epsilon > previous);
      previous = epsilon;
    }
  }
  SUBCASE("delta(eps) is decreasing and stays in [0, 1]") {
    for (double mu : {1e-5, 0.5, 7.0, 300.0}) {
      double previous = 1;
      for (double epsilon = 0; epsilon < 1e6; epsilon = epsilon * 3 + 1e-3) {
        const double delta = gaussian_delta_for_epsilon(mu, epsilon);
        CHECK(delta >= 0);
        CHECK(delta <= previous);
        previous = delta;
      }
    }
  }
}
