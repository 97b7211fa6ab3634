#include "dpcalc/closed_form/conversions.hpp"

#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"

using dpcalc::ApproxDp;
using dpcalc::RdpCurve;
using dpcalc::Zcdp;

namespace {

struct ZcdpCase {
  double rho;
  double delta;
  double bun_steinke;
  double canonne_kamath_steinke;
};

}  // namespace

TEST_CASE("[conversions] pure DP and the Gaussian mechanism to zCDP") {
  CHECK(dpcalc::pure_to_zcdp(dpcalc::PureDp{1}).rho == 0.5);
  CHECK(dpcalc::pure_to_zcdp(dpcalc::PureDp{0}).rho == 0);
  // 0.3² / 2, rounded up: never below the exact square of the double 0.3.
  const double rho = dpcalc::pure_to_zcdp(dpcalc::PureDp{0.3}).rho;
  CHECK_REL(rho, 0.045, 1e-15);
  CHECK(std::fma(0.3, 0.3, -2 * rho) <= 0);
  CHECK(dpcalc::gaussian_to_zcdp(2, 1).rho == 0.125);
  CHECK(dpcalc::gaussian_to_zcdp(4, 2).rho == 0.125);
  CHECK_REL(dpcalc::gaussian_to_zcdp(3, 1).rho, 1.0 / 18, 1e-15);
}

TEST_CASE("[conversions] zCDP to (eps, delta)") {
  SUBCASE("public reference values") {
    // /work/shared/references/public_values.json, "zcdp_to_approx" (6 significant digits).
    CHECK_REL(dpcalc::zcdp_to_approx_bun_steinke(Zcdp{0.5}, 1e-6).epsilon, 5.756522, 1e-6);
    CHECK_REL(dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{0.5}, 1e-6).epsilon, 5.221534, 1e-6);
  }
  SUBCASE("against mpmath") {
    // Expected: mpmath 50 digits. Bun–Steinke: rho + 2 sqrt(rho ln(1/delta)). Canonne–Kamath–
    // Steinke: the Cor 13 expression minimised over alpha (grid on ln(alpha − 1), then 300 steps of
    // golden section).
    const std::vector<ZcdpCase> cases = {
        {0.5, 1e-6, 5.7565217697569319786, 5.2215344445301690442},
        {1e-4, 1e-10, 0.096070518243761624151, 0.080143698441725963394},
        {1e4, 1e-6, 10743.384437769967689, 10739.073156563853528},
        {2, 1e-300, 76.338443776996768939, 76.125796055156050995},
    };
    for (const ZcdpCase& c : cases) {
      CAPTURE(c.rho);
      CAPTURE(c.delta);
      const ApproxDp bun_steinke = dpcalc::zcdp_to_approx_bun_steinke(Zcdp{c.rho}, c.delta);
      const ApproxDp cks = dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{c.rho}, c.delta);
      CHECK(bun_steinke.delta == c.delta);
      CHECK(cks.delta == c.delta);
      CHECK_REL(bun_steinke.epsilon, c.bun_steinke, 1e-14);
      CHECK_REL(cks.epsilon, c.canonne_kamath_steinke, 1e-12);
      // Upper bounds: never below the exact values.
      CHECK(bun_steinke.epsilon >= c.bun_steinke * (1 - 1e-16));
      CHECK(cks.epsilon >= c.canonne_kamath_steinke * (1 - 1e-16));
    }
  }
  SUBCASE("rho = 0 is (0, delta)") {
    CHECK(dpcalc::zcdp_to_approx_bun_steinke(Zcdp{0}, 1e-6).epsilon == 0);
    CHECK(dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{0}, 1e-6).epsilon == 0);
  }
  SUBCASE("CKS is never looser than Bun–Steinke, and it never decreases in rho") {
    double previous = 0;
    for (double rho = 1e-12; rho < 1e12; rho *= 7) {
      for (double delta : {1e-3, 1e-9, 1e-200}) {
        CAPTURE(rho);
        CAPTURE(delta);
        const double cks = dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, delta).epsilon;
        CHECK(cks <= dpcalc::zcdp_to_approx_bun_steinke(Zcdp{rho}, delta).epsilon);
        CHECK(cks >= 0);
      }
      const double at_rho = dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, 1e-6).epsilon;
      CHECK(at_rho >= previous);  // 0 for rho tiny enough: (0, delta) then holds
      previous = at_rho;
    }
  }
  SUBCASE("never below the exact eps of the Gaussian mechanism it describes") {
    // A Gaussian with mu is exactly (mu²/2)-zCDP; its exact eps (Balle & Wang) is a lower bound
    // for any sound conversion.
    for (double mu : {0.05, 0.5, 1.0, 3.0, 20.0}) {
      for (double delta : {1e-3, 1e-6, 1e-12}) {
        const Zcdp zcdp{mu * mu / 2};
        const double exact = dpcalc::gaussian_epsilon_for_delta(mu, delta);
        CHECK(dpcalc::zcdp_to_approx_canonne_kamath_steinke(zcdp, delta).epsilon >= exact);
      }
    }
  }
}

TEST_CASE("[conversions] RDP to (eps, delta): Balle et al. 2020, Thm 21") {
  // Gaussian with sigma = 2: eps(alpha) = alpha/8. Expected: mpmath 50 digits of
  // eps(alpha) + ln(1 − 1/alpha) − (ln delta + ln alpha)/(alpha − 1) at delta = 1e-5.
  const std::vector<double> orders = {1.5, 2, 3, 4, 6, 8, 12, 16, 32, 64};
  const std::vector<double> expected = {21.303808425056018385, 10.376631103850337801, 5.1766914800428949824,
                                        3.5878616288316650063, 2.5119116423544800576, 2.2141091678455334471,
                                        2.2337176062087546075, 2.5181505950444586405, 4.2278380617554358883,
                                        8.1009824744859966499};
  std::vector<double> epsilons;
  for (double alpha : orders) epsilons.push_back(alpha / 8);

  SUBCASE("the minimum over the orders, its order and index") {
    const RdpCurve curve = RdpCurve::create(orders, epsilons).value();
    const dpcalc::RdpConversion conversion = dpcalc::rdp_to_approx(curve, 1e-5);
    CHECK_REL(conversion.guarantee.epsilon, 2.2141091678455334471, 1e-14);
    CHECK(conversion.guarantee.epsilon >= 2.2141091678455334471 * (1 - 1e-16));
    CHECK(conversion.guarantee.delta == 1e-5);
    CHECK(conversion.order == 8);
    CHECK(conversion.order_index == 5);
    CHECK(!conversion.at_boundary);
  }
  SUBCASE("each order on its own matches the formula") {
    for (std::size_t i = 0; i < orders.size(); ++i) {
      CAPTURE(orders[i]);
      const RdpCurve single = RdpCurve::create({orders[i]}, {epsilons[i]}).value();
      const dpcalc::RdpConversion conversion = dpcalc::rdp_to_approx(single, 1e-5);
      CHECK_REL(conversion.guarantee.epsilon, expected[i], 1e-14);
      CHECK(conversion.order_index == 0);
      CHECK(conversion.at_boundary);  // a single order is both first and last
    }
  }
  SUBCASE("a minimum at the last order is flagged") {
    const RdpCurve curve = RdpCurve::create({1.5, 2, 3, 4}, {0.1875, 0.25, 0.375, 0.5}).value();
    const dpcalc::RdpConversion conversion = dpcalc::rdp_to_approx(curve, 1e-5);
    CHECK(conversion.order == 4);
    CHECK(conversion.order_index == 3);
    CHECK(conversion.at_boundary);
    CHECK_REL(conversion.guarantee.epsilon, 3.5878616288316650063, 1e-14);
  }
  SUBCASE("clamped at 0") {
    // eps(2) = 0 at delta = 0.9: ln(1/2) − ln(0.9) − ln 2 < 0.
    const RdpCurve curve = RdpCurve::create({2}, {0}).value();
    CHECK(dpcalc::rdp_to_approx(curve, 0.9).guarantee.epsilon == 0);
  }
  SUBCASE("never below the exact eps of the Gaussian it describes") {
    const RdpCurve curve = RdpCurve::create(orders, epsilons).value();
    for (double delta : {1e-3, 1e-5, 1e-10}) {
      CHECK(dpcalc::rdp_to_approx(curve, delta).guarantee.epsilon >= dpcalc::gaussian_epsilon_for_delta(0.5, delta));
    }
  }
}
