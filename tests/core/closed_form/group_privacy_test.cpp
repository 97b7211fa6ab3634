#include "dpcalc/closed_form/group_privacy.hpp"

#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/conversions.hpp"

using dpcalc::ApproxDp;
using dpcalc::group_privacy;
using dpcalc::PureDp;
using dpcalc::RdpCurve;
using dpcalc::Zcdp;

namespace {

struct ApproxCase {
  double epsilon;
  double delta;
  double group_size;
  double expected_delta;
};

}  // namespace

TEST_CASE("[group] pure DP: k eps") {
  SUBCASE("k = 1 is the identity") { CHECK(group_privacy(PureDp{0.37}, 1).epsilon == 0.37); }
  SUBCASE("exact products stay exact") { CHECK(group_privacy(PureDp{0.25}, 4).epsilon == 1.0); }
  SUBCASE("inexact products round up") {
    // 3 · 0.1 (the double) is not a double: the result is the smallest double above it.
    const double epsilon = group_privacy(PureDp{0.1}, 3).epsilon;
    CHECK(epsilon >= 0.1 * 3);
    CHECK(std::fma(0.1, 3.0, -epsilon) <= 0);
    CHECK_REL(epsilon, 0.3, 1e-15);
  }
}

TEST_CASE("[group] approximate DP: (k eps, delta (e^{k eps} − 1)/(e^eps − 1))") {
  // Expected: mpmath 40 digits of delta·expm1(k eps)/expm1(eps) (Vadhan 2017, Lemma 2.2) with the
  // inputs' double values.
  const std::vector<ApproxCase> cases = {
      {1, 1e-6, 4, 3.1192874850577363204e-5},         {0.5, 1e-5, 3, 5.3670030991591733822e-5},
      {0.1, 1e-10, 50, 1.4016532497752363145e-7},     {1e-300, 1e-6, 1000, 1e-3},  // eps → 0: k delta
      {0.5, 1e-300, 100, 7.9921928920127952568e-279},                              // delta = 1e-300
      {2, 1e-305, 350, 0.015874521040827277509},                                   // k eps = 700, e^700 near overflow
      {2, 1e-308, 355, 0.34965959471472154383},  // k eps = 710: e^710 overflows a double
  };
  // Beyond e^709 the bound is computed in log space and carries a margin of a few ulps of the
  // logs (about 700 here), so up to ~2e-12 relative above the exact value.
  for (const ApproxCase& c : cases) {
    CAPTURE(c.epsilon);
    CAPTURE(c.group_size);
    const ApproxDp grouped = group_privacy(ApproxDp{c.epsilon, c.delta}, c.group_size);
    CHECK_REL(grouped.epsilon, c.group_size * c.epsilon, 1e-15);
    CHECK_REL(grouped.delta, c.expected_delta, c.epsilon * c.group_size > 709 ? 3e-12 : 1e-13);
    CHECK(grouped.delta >= c.expected_delta * (1 - 1e-15));  // an upper bound, never below
  }
  SUBCASE("k = 1 is the identity") {
    const ApproxDp grouped = group_privacy(ApproxDp{0.7, 3e-7}, 1);
    CHECK(grouped.epsilon == 0.7);
    CHECK(grouped.delta == 3e-7);
  }
  SUBCASE("eps = 0 gives exactly k delta") {
    const ApproxDp grouped = group_privacy(ApproxDp{0, 1e-6}, 8);
    CHECK(grouped.epsilon == 0);
    CHECK(grouped.delta == 8e-6);
  }
  SUBCASE("delta = 0 stays 0 (pure DP), even at k eps = 5000") {
    const ApproxDp grouped = group_privacy(ApproxDp{1, 0}, 5000);
    CHECK(grouped.epsilon == 5000);
    CHECK(grouped.delta == 0);
  }
  SUBCASE("vacuous: a delta reaching 1 is exactly 1, with no overflow at k eps = 5000") {
    const ApproxDp huge = group_privacy(ApproxDp{1, 1e-300}, 5000);
    CHECK(huge.epsilon == 5000);
    CHECK(huge.delta == 1);
    CHECK(dpcalc::is_vacuous(huge));
    const ApproxDp small_eps = group_privacy(ApproxDp{0, 0.3}, 4);  // 4 · 0.3 > 1
    CHECK(small_eps.delta == 1);
    const ApproxDp just_over = group_privacy(ApproxDp{0.1, 0.5}, 2);  // 0.5 (1 + e^0.1) > 1
    CHECK(just_over.delta == 1);
  }
  SUBCASE("monotone in k, and k = 2 matches delta (1 + e^eps)") {
    double previous_epsilon = 0;
    double previous_delta = 0;
    for (double k = 1; k <= 400; ++k) {
      const ApproxDp grouped = group_privacy(ApproxDp{0.05, 1e-9}, k);
      CHECK(grouped.epsilon > previous_epsilon);
      CHECK(grouped.delta >= previous_delta);
      previous_epsilon = grouped.epsilon;
      previous_delta = grouped.delta;
    }
    // Closed form at k = 2: delta (e^{2 eps} − 1)/(e^eps − 1) = delta (e^eps + 1).
    CHECK_REL(group_privacy(ApproxDp{0.3, 1e-8}, 2).delta, 1e-8 * (std::exp(0.3) + 1), 1e-13);
  }
}

TEST_CASE("[group] zCDP: k² rho") {
  CHECK(group_privacy(Zcdp{0.5}, 1).rho == 0.5);
  CHECK(group_privacy(Zcdp{0.5}, 3).rho == 4.5);
  CHECK_REL(group_privacy(Zcdp{0.01}, 1000).rho, 1e4, 1e-15);
  SUBCASE("k² rho for a group versus k rho for k-fold composition") {
    // A group of k is k times worse than composing k copies: k²ρ = k · (kρ).
    for (double k : {2.0, 5.0, 64.0, 1000.0}) {
      const double group_rho = group_privacy(Zcdp{0.125}, k).rho;
      const double composed_rho = k * 0.125;  // Bun & Steinke 2016, Lemma 2.3
      CHECK(group_rho > composed_rho);
      CHECK_REL(group_rho, k * composed_rho, 1e-15);
    }
  }
}

TEST_CASE("[group] Rényi DP: Mironov 2017, Prop 2") {
  const RdpCurve curve = RdpCurve::create({2, 3, 4, 8, 16, 32}, {0.1, 0.2, 0.3, 0.5, 0.9, 1.7}).value();
  SUBCASE("k = 1 is the identity") {
    const auto grouped = group_privacy(curve, 1);
    REQUIRE(grouped.ok());
    CHECK(grouped.value().curve.orders == curve.orders);
    CHECK(grouped.value().curve.epsilons == curve.epsilons);
    CHECK(grouped.value().power_of_two == 1);
    CHECK(grouped.value().dropped == 0);
  }
  SUBCASE("k = 2: orders >= 4 become alpha/2 with 3 eps") {
    const auto grouped = group_privacy(curve, 2);
    REQUIRE(grouped.ok());
    CHECK(grouped.value().curve.orders == std::vector<double>{2, 4, 8, 16});
    const std::vector<double> expected = {0.9, 1.5, 2.7, 5.1};  // 3 eps, exact arithmetic
    REQUIRE(grouped.value().curve.epsilons.size() == expected.size());
    for (std::size_t i = 0; i < expected.size(); ++i) {
      CHECK_REL(grouped.value().curve.epsilons[i], expected[i], 1e-15);
      CHECK(std::fma(curve.epsilons[i + 2], 3.0, -grouped.value().curve.epsilons[i]) <= 0);  // rounded up
    }
    CHECK(grouped.value().power_of_two == 2);
    CHECK(grouped.value().dropped == 2);
  }
  SUBCASE("k = 3 and k = 4 both use 2^2: orders >= 8 become alpha/4 with 9 eps") {
    for (double k : {3.0, 4.0}) {
      const auto grouped = group_privacy(curve, k);
      REQUIRE(grouped.ok());
      CHECK(grouped.value().curve.orders == std::vector<double>{2, 4, 8});
      CHECK_REL(grouped.value().curve.epsilons[0], 4.5, 1e-15);
      CHECK_REL(grouped.value().curve.epsilons[1], 8.1, 1e-15);
      CHECK_REL(grouped.value().curve.epsilons[2], 15.3, 1e-15);
      CHECK(grouped.value().power_of_two == 4);
      CHECK(grouped.value().dropped == 3);
    }
  }
  SUBCASE("no order is large enough: unsupported, on the curve's orders") {
    const auto grouped = group_privacy(curve, 17);  // needs orders >= 64
    REQUIRE(!grouped.ok());
    CHECK(grouped.error().code == dpcalc::kUnsupported);
    CHECK(grouped.error().field == "orders");
  }
  SUBCASE("never below the exact group RDP of a Gaussian") {
    // Gaussian with mu = 1: eps(alpha) = alpha/2, and at group size k exactly alpha k²/2.
    std::vector<double> orders;
    std::vector<double> epsilons;
    for (double alpha = 2; alpha <= 1024; alpha *= 2) {
      orders.push_back(alpha);
      epsilons.push_back(alpha / 2);
    }
    const RdpCurve gaussian = RdpCurve::create(orders, epsilons).value();
    for (double k : {2.0, 3.0, 8.0, 100.0}) {
      const auto grouped = group_privacy(gaussian, k);
      REQUIRE(grouped.ok());
      for (std::size_t i = 0; i < grouped.value().curve.orders.size(); ++i) {
        const double alpha = grouped.value().curve.orders[i];
        CHECK(grouped.value().curve.epsilons[i] >= alpha * k * k / 2);
      }
    }
  }
}

TEST_CASE("[group] mechanisms at sensitivity k Δ") {
  SUBCASE("Gaussian: exact eps at mu = k Δ / σ and rho = (k Δ)²/(2σ²)") {
    // sigma 4, k 8: mu = 2. Expected eps: mpmath 60 digits, bisection of the exact profile.
    const auto grouped = dpcalc::gaussian_group_privacy(4, 1, 8, 1e-6);
    CHECK_REL(grouped.approx.epsilon, 10.997151214220651134, 1e-11);
    CHECK(grouped.approx.epsilon >= 10.997151214220651134 * (1 - 1e-15));
    CHECK(grouped.approx.delta == 1e-6);
    CHECK(grouped.zcdp.rho == 2);
    // k = 1 is the mechanism itself: mu = 0.5 (mpmath, same method).
    CHECK_REL(dpcalc::gaussian_group_privacy(2, 1, 1, 1e-5).approx.epsilon, 1.9930914044151196213, 1e-11);
  }
  SUBCASE("the Gaussian bound is far tighter than the generic approximate-DP group bound") {
    // sigma = 8: one record gets (0.504, 1e-6). The generic bound is sound for the Gaussian, so at
    // its eps the exact delta is never above its delta; for larger groups it is far above.
    const double sigma = 8;
    const ApproxDp per_record = dpcalc::gaussian_group_privacy(sigma, 1, 1, 1e-6).approx;
    for (double k : {2.0, 4.0, 16.0, 64.0}) {
      CAPTURE(k);
      const ApproxDp generic = group_privacy(per_record, k);
      const double exact_delta = dpcalc::gaussian_delta_for_epsilon(k / sigma, generic.epsilon);
      CHECK(exact_delta <= generic.delta);
      if (k == 16) CHECK(exact_delta < generic.delta / 10);
    }
    // At k = 64 the generic bound is vacuous; the Gaussian still certifies a finite eps at 1e-6.
    CHECK(dpcalc::is_vacuous(group_privacy(per_record, 64)));
    const auto grouped = dpcalc::gaussian_group_privacy(sigma, 1, 64, 1e-6);
    CHECK(std::isfinite(grouped.approx.epsilon));
    // The exact eps never exceeds the zCDP route (k²ρ converted), which is an upper bound.
    CHECK(grouped.approx.epsilon <= dpcalc::zcdp_to_approx_canonne_kamath_steinke(grouped.zcdp, 1e-6).epsilon);
  }
}
