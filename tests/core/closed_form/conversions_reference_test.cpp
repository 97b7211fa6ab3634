// Conversions against independent references. Expected values: mpmath at 50 significant digits on
// the exact double inputs, or /work/shared/references/public_values.json where stated. The
// Canonne–Kamath–Steinke references minimise Cor 13 over alpha with mpmath: a grid of step 1/4 in
// ln(alpha − 1) over [−40, 60], then 300 golden-section steps (value accurate far beyond 1e-20).
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/conversions.hpp"

using dpcalc::ApproxDp;
using dpcalc::RdpCurve;
using dpcalc::Zcdp;

namespace {

struct ZcdpReference {
  double rho;
  double delta;
  double bun_steinke;             // mpmath: rho + 2 sqrt(rho ln(1/delta)) (Bun & Steinke 2016, Prop 1.3)
  double canonne_kamath_steinke;  // mpmath: min over alpha of Cor 13 (Canonne, Kamath, Steinke 2020)
};

// Orders 1.5 .. 256 as a caller would list them.
const std::vector<double> kOrders = {1.5, 1.75, 2,  2.5, 3,  4,  5,  6,   8,   10, 12,
                                     16,  20,   24, 32,  48, 64, 96, 128, 192, 256};

// Rényi curve of the Gaussian mechanism: eps(alpha) = alpha/(2 sigma²) (Mironov 2017, Prop 7).
RdpCurve gaussian_curve(double sigma) {
  RdpCurve curve;
  curve.orders = kOrders;
  for (double order : kOrders) curve.epsilons.push_back(order / (2 * sigma * sigma));
  return curve;
}

}  // namespace

TEST_CASE("[conversions][reference] to zCDP") {
  // mpmath: double(0.3)²/2 = 0.044999999999999996669.
  check_upper_bound(dpcalc::pure_to_zcdp(dpcalc::PureDp{0.3}).rho, 0.044999999999999996669, 1e-15);
  CHECK(dpcalc::pure_to_zcdp(dpcalc::PureDp{0}).rho == 0);
  // mpmath: Δ²/(2σ²) with Δ = 2, σ = 3: 2/9 = 0.22222222222222222222; Δ = 1, σ = 0.7:
  // 1.0204081632653062519.
  check_upper_bound(dpcalc::gaussian_to_zcdp(3, 2).rho, 0.22222222222222222222, 1e-15);
  check_upper_bound(dpcalc::gaussian_to_zcdp(0.7, 1).rho, 1.0204081632653062519, 1e-15);
}

TEST_CASE("[conversions][reference] zCDP to (eps, delta): Bun–Steinke and Canonne–Kamath–Steinke") {
  SUBCASE("published reference rho = 0.5, delta = 1e-6") {
    // /work/shared/references/public_values.json (zcdp_to_approx): 5.756522 and 5.221534, given to
    // 7 digits; mpmath gives 5.7565217697569319872 and 5.2215344445301690534.
    const ApproxDp bun_steinke = dpcalc::zcdp_to_approx_bun_steinke(Zcdp{0.5}, 1e-6);
    const ApproxDp cks = dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{0.5}, 1e-6);
    CHECK_REL(bun_steinke.epsilon, 5.756522, 1e-6);
    CHECK_REL(cks.epsilon, 5.221534, 1e-6);
    check_upper_bound(bun_steinke.epsilon, 5.7565217697569319872, 1e-13);
    check_upper_bound(cks.epsilon, 5.2215344445301690534, 1e-9);
    CHECK(bun_steinke.delta == 1e-6);
    CHECK(cks.delta == 1e-6);
  }
  SUBCASE("mpmath grid") {
    // Optimal orders (mpmath) range from alpha ≈ 2.04 (rho = 10) to alpha ≈ 413 (rho = 1e-4).
    const std::vector<ZcdpReference> references = {
        {1e-4, 1e-5, 0.067961404244151119369, 0.045047462087777228832},
        {1e-4, 1e-10, 0.09607051824376162638, 0.080143698441725965286},
        {0.01, 1e-5, 0.68861404244151118465, 0.54572554827400240256},
        {0.01, 1e-10, 0.96970518243761625095, 0.86432118572417292425},
        {1, 1e-5, 7.7861404244151117738, 7.0771966958063397329},
        {1, 1e-10, 10.597051824376162408, 10.03434358134762988},
        {10, 1e-5, 31.45966026289347232, 30.110857303795729445},
        {10, 1e-10, 40.348542587702926993, 39.227757247809969352},
    };
    for (const ZcdpReference& reference : references) {
      CAPTURE(reference.rho);
      CAPTURE(reference.delta);
      const ApproxDp bun_steinke = dpcalc::zcdp_to_approx_bun_steinke(Zcdp{reference.rho}, reference.delta);
      const ApproxDp cks = dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{reference.rho}, reference.delta);
      check_upper_bound(bun_steinke.epsilon, reference.bun_steinke, 1e-13);
      check_upper_bound(cks.epsilon, reference.canonne_kamath_steinke, 1e-9);
    }
  }
  SUBCASE("extreme rho: finite, and Canonne–Kamath–Steinke still no worse") {
    // mpmath: rho + 2 sqrt(rho ln(1/delta)) = 9.9999999999999998603e306 at rho = 1e307,
    // delta = 1e-300 (the product rho·ln(1/delta) alone exceeds the double range), and
    // 9.5970518243761622657e-30 at rho = 1e-60, delta = 1e-10 (the CKS order, alpha ≈ 5e30, lies
    // beyond the minimiser's grid).
    check_upper_bound(dpcalc::zcdp_to_approx_bun_steinke(Zcdp{1e307}, 1e-300).epsilon, 9.9999999999999998603e306,
                      1e-14);
    const double tiny_bun_steinke = dpcalc::zcdp_to_approx_bun_steinke(Zcdp{1e-60}, 1e-10).epsilon;
    check_upper_bound(tiny_bun_steinke, 9.5970518243761622657e-30, 1e-13);
    CHECK(dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{1e-60}, 1e-10).epsilon <= tiny_bun_steinke);
  }
  SUBCASE("Canonne–Kamath–Steinke never exceeds Bun–Steinke") {
    for (double rho = 1e-300; rho <= 1e300; rho *= 3.7e3) {
      for (double delta : {1e-2, 1e-5, 1e-10, 1e-50, 1e-300}) {
        CAPTURE(rho);
        CAPTURE(delta);
        CHECK(dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, delta).epsilon <=
              dpcalc::zcdp_to_approx_bun_steinke(Zcdp{rho}, delta).epsilon);
      }
    }
  }
  SUBCASE("rho = 0 gives eps = 0") {
    CHECK(dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{0}, 1e-6).epsilon == 0);
    CHECK(dpcalc::zcdp_to_approx_bun_steinke(Zcdp{0}, 1e-6).epsilon == 0);
  }
  SUBCASE("monotone in rho") {
    double previous = 0;
    for (double rho = 1e-6; rho <= 100; rho *= 2) {
      const double epsilon = dpcalc::zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, 1e-7).epsilon;
      CHECK(epsilon > previous);
      previous = epsilon;
    }
  }
}

TEST_CASE("[conversions][reference] RDP to (eps, delta): Balle et al. 2020, Thm 21") {
  // mpmath: eps(alpha) + ln((alpha − 1)/alpha) − (ln delta + ln alpha)/(alpha − 1) over kOrders on
  // the Gaussian curve alpha/(2 sigma²); argmin and minimum (runner-up noted to show the margin).
  struct RdpReference {
    double sigma;
    double delta;
    double order;
    std::size_t order_index;
    bool at_boundary;
    double epsilon;
  };
  const std::vector<RdpReference> references = {
      {2, 1e-5, 10, 9, false, 2.1680106367839717715},        // runner-up alpha 8: 2.2141
      {5, 1e-6, 24, 13, false, 0.89993850417321835506},      // runner-up alpha 20: 0.9182
      {100, 1e-10, 256, 20, true, 0.077437761406161295725},  // last order: extend the curve
      {0.1, 1e-5, 1.5, 0, true, 96.116308425056009895},      // first order
  };
  for (const RdpReference& reference : references) {
    CAPTURE(reference.sigma);
    CAPTURE(reference.delta);
    const dpcalc::RdpConversion conversion = dpcalc::rdp_to_approx(gaussian_curve(reference.sigma), reference.delta);
    CHECK(conversion.order == reference.order);
    CHECK(conversion.order_index == reference.order_index);
    CHECK(conversion.at_boundary == reference.at_boundary);
    CHECK(conversion.guarantee.delta == reference.delta);
    check_upper_bound(conversion.guarantee.epsilon, reference.epsilon, 1e-12);
  }
  SUBCASE("a single-order curve is at its boundary") {
    RdpCurve curve;
    curve.orders = {8};
    curve.epsilons = {1};
    const dpcalc::RdpConversion conversion = dpcalc::rdp_to_approx(curve, 1e-5);
    CHECK(conversion.order == 8);
    CHECK(conversion.at_boundary);
  }
}
