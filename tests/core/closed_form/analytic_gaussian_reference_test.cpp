// The analytic Gaussian mechanism (Balle & Wang 2018, Thm 8) against mpmath. Expected values:
//   delta(eps) = ncdf(mu/2 − eps/mu) − exp(eps)·ncdf(−mu/2 − eps/mu) at 60 significant digits
//   (spot-checked at 120 digits), on the exact double inputs;
//   eps(delta) = its root in eps, by 400 bisection steps at 60 digits (upper end of the bracket).
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"

using dpcalc::gaussian_delta_for_epsilon;
using dpcalc::gaussian_epsilon_for_delta;

namespace {

struct DeltaReference {
  double mu;
  double epsilon;
  double expected_delta;
};

struct EpsilonReference {
  double mu;
  double delta;
  double expected_epsilon;
};

}  // namespace

TEST_CASE("[analytic_gaussian][reference] delta(eps) against mpmath") {
  const std::vector<DeltaReference> references = {
      {1, 1, 0.1269367375066439458},
      {0.5, 0.1, 0.15926050741399166315},
      {2, 0, 0.68268949213708589717},  // 2Φ(1) − 1
      // tiny mu: the two Φ terms cancel to a relative 1e-3 and beyond
      {1e-3, 1e-3, 8.3357132125208493548e-5},
      {1e-3, 0.01, 7.5120257223582011565e-28},
      // huge mu: e^eps overflows a double (eps = 5e5)
      {1e3, 5e5, 0.4996010581185396509},
      {1e3, 5.2e5, 2.6994972259041566746e-89},
      {10, 300, 8.7164045784107030287e-139},
      // delta around 1e-250
      {1, 34, 6.9731783475877776032e-248},
      {0.1, 3.4, 1.7880378491907498031e-255},
      {10, 385, 5.533152369881565384e-247},
  };
  for (const DeltaReference& reference : references) {
    CAPTURE(reference.mu);
    CAPTURE(reference.epsilon);
    const double delta = gaussian_delta_for_epsilon(reference.mu, reference.epsilon);
    // An upper bound: the implementation adds its own rounding-error bound, which grows with z²
    // (z ≈ 24 at delta ≈ 1e-250: up to 2e-11 relative) and, for tiny mu, is divided by the
    // relative gap 1 − M(z + mu)/M(z) ≈ mu/z (about 1e-4 at mu = 1e-3, eps = 0.01, z ≈ 10, where
    // the excess measured 2e-9 relative): sound, so only the tolerance is looser there.
    CHECK(delta >= reference.expected_delta * (1 - 1e-15));
    CHECK_REL(delta, reference.expected_delta, reference.mu < 0.01 ? 1e-8 : 1e-10);
  }
}

TEST_CASE("[analytic_gaussian][reference] eps(delta) against mpmath: an upper bound within 1e-9") {
  const std::vector<EpsilonReference> references = {
      {0.1, 1e-5, 0.34066936468432642922},  {0.1, 1e-10, 0.57464030752631768323}, {0.1, 1e-100, 2.1070681312909920169},
      {0.1, 1e-300, 3.6937216583195967884}, {1, 1e-5, 4.3771780956812246086},     {1, 1e-10, 6.5479240668649510001},
      {1, 1e-100, 21.62750809364838221},    {1, 1e-300, 37.44884791213910494},    {10, 1e-5, 91.817289624663744502},
      {10, 1e-10, 112.84032670423223117},   {10, 1e-100, 262.19869684179679311},  {10, 1e-300, 420.05299591238118866},
      {300, 1e-5, 46278.474283239387612},   {300, 1e-10, 46907.412728928221732},  {300, 1e-100, 51381.069935358014204},
      {300, 1e-300, 56113.185983024678407},
  };
  for (const EpsilonReference& reference : references) {
    CAPTURE(reference.mu);
    CAPTURE(reference.delta);
    const double epsilon = gaussian_epsilon_for_delta(reference.mu, reference.delta);
    CHECK(epsilon >= reference.expected_epsilon * (1 - 1e-15));
    CHECK_REL(epsilon, reference.expected_epsilon, 1e-9);
    // Sound: the (pessimistic) forward profile at the returned eps meets the target.
    CHECK(gaussian_delta_for_epsilon(reference.mu, epsilon) <= reference.delta);
  }
}

TEST_CASE("[analytic_gaussian][reference] eps = 0 when delta >= delta(0)") {
  // mpmath: delta(0) at mu = 0.1 is 2Φ(0.05) − 1 = 0.039877611676744925404.
  CHECK(gaussian_epsilon_for_delta(0.1, 0.04) == 0);
  CHECK(gaussian_epsilon_for_delta(0.1, 0.5) == 0);
  CHECK(gaussian_epsilon_for_delta(0.1, 0.0398) > 0);
  // mu = 2: delta(0) = 0.68268949213708589717.
  CHECK(gaussian_epsilon_for_delta(2, 0.69) == 0);
  CHECK(gaussian_epsilon_for_delta(2, 0.68) > 0);
}

TEST_CASE("[analytic_gaussian][reference] monotonicity") {
  SUBCASE("delta decreases in eps") {
    double previous = 1;
    for (double epsilon = 0; epsilon <= 40; epsilon += 0.25) {
      const double delta = gaussian_delta_for_epsilon(1, epsilon);
      CHECK(delta <= previous);
      previous = delta;
    }
  }
  SUBCASE("eps decreases in delta and increases in mu") {
    for (double mu : {0.1, 1.0, 10.0, 300.0}) {
      double previous = INFINITY;
      for (double log10_delta = -300; log10_delta <= -1; log10_delta += 7) {
        const double epsilon = gaussian_epsilon_for_delta(mu, std::pow(10.0, log10_delta));
        CHECK(epsilon <= previous);
        previous = epsilon;
      }
    }
    double previous = 0;
    for (double mu = 0.05; mu <= 50; mu *= 1.5) {
      const double epsilon = gaussian_epsilon_for_delta(mu, 1e-8);
      CHECK(epsilon > previous);
      previous = epsilon;
    }
  }
}

TEST_CASE("[analytic_gaussian][reference] eps(delta) for huge mu: accurate, finite or +inf, never hanging") {
  // eps = mu²/2 + mu·z with z the root of Φ(−z) − e^eps Φ(−z − mu) = delta (mpmath, 300 digits,
  // bisection on z). Before the rtsafe-style safeguard Newton crawled here: mu = 1e12 returned
  // 5.074e23 (1.5% high) and mu = 1e50 5.093e99.
  const std::vector<EpsilonReference> references = {
      {1e12, 1e-5, 5.0000000000426489079e+23},
      {1e50, 1e-5, 5.000000000000000763e+99},
      {1e100, 1e-5, 5.000000000000000159e+199},
  };
  for (const EpsilonReference& reference : references) {
    CAPTURE(reference.mu);
    const double epsilon = gaussian_epsilon_for_delta(reference.mu, reference.delta);
    CHECK(epsilon >= reference.expected_epsilon * (1 - 1e-15));
    CHECK_REL(epsilon, reference.expected_epsilon, 1e-9);
  }
  // mu²/2 = 1.62e308 still fits a double; mu = 1.9e154 gives mu²/2 = 1.805e308 > DBL_MAX, where
  // the bracket used to double forever: no finite eps exists, and +inf says so.
  CHECK_REL(gaussian_epsilon_for_delta(1.8e154, 1e-5), 1.62e308, 1e-9);
  CHECK(std::isinf(gaussian_epsilon_for_delta(1.9e154, 1e-5)));
  CHECK(std::isinf(gaussian_epsilon_for_delta(1e300, 1e-10)));
}

TEST_CASE("[analytic_gaussian][reference] tiny mu: the lower ends are below the exact value") {
  // tests/reference/analytic_gaussian_small_mu_reference.py (mpmath, 80 digits). The bound mu I(z)
  // on M(z) − M(z + mu) is one-sided: taken for the lower ends too, they lay above the exact value
  // by up to 3.4e-9 relatively at mu ≈ 1e-5.
  const std::vector<DeltaReference> deltas = {
      {1e-5, 4e-5, 7.1454013389220996663e-11},
      {1e-5, 5e-5, 5.3462991895792809338e-13},
      {3e-6, 1.5e-5, 1.6038616890657145185e-13},
      {1e-7, 5e-7, 5.3461668703743589805e-15},
  };
  for (const DeltaReference& reference : deltas) {
    CAPTURE(reference.mu);
    CAPTURE(reference.epsilon);
    const double lower = dpcalc::gaussian_delta_lower_for_epsilon(reference.mu, reference.epsilon);
    const double upper = gaussian_delta_for_epsilon(reference.mu, reference.epsilon);
    CHECK(lower <= reference.expected_delta);
    CHECK(upper >= reference.expected_delta);
    CHECK_REL(lower, reference.expected_delta, 1e-6);
  }
  const std::vector<EpsilonReference> epsilons = {
      {1e-5, 1e-6, 9.023488070724965793e-6},
      {1e-5, 1e-10, 0.000039235658972147713005},
      {3e-6, 1e-8, 6.9957698967669203585e-6},
      {1e-7, 1e-9, 1.9383563441551629983e-7},
  };
  for (const EpsilonReference& reference : epsilons) {
    CAPTURE(reference.mu);
    CAPTURE(reference.delta);
    const double lower = dpcalc::gaussian_epsilon_lower_for_delta(reference.mu, reference.delta);
    const double upper = gaussian_epsilon_for_delta(reference.mu, reference.delta);
    CHECK(lower <= reference.expected_epsilon);
    CHECK(upper >= reference.expected_epsilon);
    CHECK_REL(lower, reference.expected_epsilon, 1e-6);
  }
}
