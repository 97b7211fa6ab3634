// Group privacy against independent high-precision references. Every expected value was computed
// with mpmath (60 significant digits) from the formula cited beside it, on the exact double inputs;
// Gaussian eps(delta) roots by 300-400 bisection steps on Balle & Wang 2018 Thm 8 at 60 digits.
#include <cmath>
#include <string>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"

using dpcalc::ApproxDp;
using dpcalc::group_privacy;
using dpcalc::PureDp;
using dpcalc::RdpCurve;
using dpcalc::Zcdp;

namespace {

struct ApproxGroupReference {
  double epsilon;
  double delta;
  double group_size;
  double expected_delta;  // mpmath: delta·expm1(k eps)/expm1(eps) (Vadhan 2017, Lemma 2.2)
};

// Rényi curve of a Gaussian with sigma = 2: eps(alpha) = alpha/(2 sigma²) = alpha/8 (Mironov 2017,
// Prop 7). Every alpha/8 below is exact in double.
RdpCurve gaussian_curve() {
  RdpCurve curve;
  curve.orders = {1.5, 2, 3, 4, 8, 16, 32, 64, 128, 256};
  for (double order : curve.orders) curve.epsilons.push_back(order / 8);
  return curve;
}

}  // namespace

TEST_CASE("[group][reference] pure DP: k eps") {
  SUBCASE("k = 1 is the identity") { CHECK(group_privacy(PureDp{0.731}, 1).epsilon == 0.731); }
  SUBCASE("k eps as an upper bound") {
    // mpmath: 7 · double(0.3) = 2.1000000000000000888.
    check_upper_bound(group_privacy(PureDp{0.3}, 7).epsilon, 2.1000000000000000888, 1e-15);
  }
  SUBCASE("monotone in k") {
    double previous = 0;
    for (double k = 1; k <= 64; ++k) {
      const double epsilon = group_privacy(PureDp{0.173}, k).epsilon;
      CHECK(epsilon > previous);
      previous = epsilon;
    }
  }
}

TEST_CASE("[group][reference] approximate DP: (k eps, delta (e^{k eps} − 1)/(e^eps − 1))") {
  // Expected deltas: mpmath 60 digits of delta·expm1(k eps)/expm1(eps) on the double inputs.
  const std::vector<ApproxGroupReference> references = {
      {1, 1e-6, 4, 3.1192874850577361792e-5},
      {0.1, 1e-5, 10, 1.633799399966362361e-4},
      {0.5, 1e-8, 3, 5.3670030991591734945e-8},
      {0.001, 1e-6, 100, 1.0511834138085282325e-4},
      // k eps = 600 with delta = 1e-300: e^{600} is still finite, the bound is 2.2e-40, not vacuous.
      {1, 1e-300, 600, 2.1958099296863214176e-40},
      // k eps = 720 > 709: e^{k eps} overflows a double, so this goes through log space; a
      // subnormal delta keeps the bound meaningful.
      {0.5, 1e-320, 1440, 7.5851469209398863524e-8},
  };
  SUBCASE("against mpmath") {
    for (const ApproxGroupReference& reference : references) {
      CAPTURE(reference.epsilon);
      CAPTURE(reference.delta);
      CAPTURE(reference.group_size);
      const ApproxDp grouped = group_privacy(ApproxDp{reference.epsilon, reference.delta}, reference.group_size);
      check_upper_bound(grouped.epsilon, reference.group_size * reference.epsilon, 1e-15);
      // The log-space branch rounds up by 4 ulps of each log's size (|log delta| ≈ 737 and
      // k eps = 720 here, about 1.3e-12 relative in total): looser there.
      const double rel = reference.delta < 1e-310 ? 1e-11 : 1e-13;
      check_upper_bound(grouped.delta, reference.expected_delta, rel);
      CHECK_FALSE(dpcalc::is_vacuous(grouped));
    }
  }
  SUBCASE("k eps = 5000: log delta_k = 4985.6 (mpmath), vacuous, delta exactly 1") {
    const ApproxDp grouped = group_privacy(ApproxDp{1, 1e-6}, 5000);
    CHECK(grouped.epsilon == 5000);
    CHECK(grouped.delta == 1);
    CHECK(dpcalc::is_vacuous(grouped));
  }
  SUBCASE("a finite bound above 1 is vacuous too") {
    // mpmath: 1e-3 · expm1(14)/expm1(2) = 188.2 > 1.
    const ApproxDp grouped = group_privacy(ApproxDp{2, 1e-3}, 7);
    CHECK(grouped.delta == 1);
    CHECK(dpcalc::is_vacuous(grouped));
  }
  SUBCASE("eps = 0: the growth factor's limit is k") {
    // mpmath: 7 · double(1e-6) = 7.0000000000000001...e-6.
    const ApproxDp grouped = group_privacy(ApproxDp{0, 1e-6}, 7);
    CHECK(grouped.epsilon == 0);
    check_upper_bound(grouped.delta, 7.0000000000000001e-6, 1e-15);
    CHECK(group_privacy(ApproxDp{0, 0.2}, 10).delta == 1);
  }
  SUBCASE("k = 1 is the identity") {
    const ApproxDp grouped = group_privacy(ApproxDp{0.37, 3e-7}, 1);
    CHECK(grouped.epsilon == 0.37);
    CHECK(grouped.delta == 3e-7);
  }
  SUBCASE("monotone in k, up to vacuous") {
    ApproxDp previous{0, 0};
    for (double k = 1; k <= 80; ++k) {
      const ApproxDp grouped = group_privacy(ApproxDp{0.3, 1e-7}, k);
      CHECK(grouped.epsilon > previous.epsilon);
      CHECK(grouped.delta >= previous.delta);
      previous = grouped;
    }
    CHECK(previous.delta == 1);  // 1e-7 · expm1(24)/expm1(0.3) ≈ 7.6e3 (mpmath): vacuous by k = 80
  }
}

TEST_CASE("[group][reference] zCDP: k² rho, against k-fold composition k rho") {
  // mpmath: 49 · double(0.3) = 14.699999999999999456.
  check_upper_bound(group_privacy(Zcdp{0.3}, 7).rho, 14.699999999999999456, 1e-15);
  CHECK(group_privacy(Zcdp{0.3}, 1).rho == 0.3);
  SUBCASE("a group of k costs k times more than k compositions") {
    for (double k = 2; k <= 20; ++k) {
      const double group = group_privacy(Zcdp{0.05}, k).rho;
      const double composed = dpcalc::compose_zcdp({{Zcdp{0.05}, k}}).rho;
      CAPTURE(k);
      CHECK_REL(group, k * composed, 1e-14);
      CHECK(group > composed);
    }
  }
  SUBCASE("monotone in k") {
    double previous = 0;
    for (double k = 1; k <= 64; ++k) {
      const double rho = group_privacy(Zcdp{0.011}, k).rho;
      CHECK(rho > previous);
      previous = rho;
    }
  }
}

TEST_CASE("[group][reference] Rényi DP: Mironov 2017, Prop 2") {
  // Expected: for k <= 2^c, orders alpha >= 2^{c+1} map to alpha/2^c with 3^c · alpha/8; all exact
  // rationals (mpmath agrees; every value is a double).
  const RdpCurve curve = gaussian_curve();
  SUBCASE("k = 1 is the identity") {
    const auto grouped = group_privacy(curve, 1);
    REQUIRE(grouped.ok());
    CHECK(grouped.value().curve.orders == curve.orders);
    CHECK(grouped.value().curve.epsilons == curve.epsilons);
    CHECK(grouped.value().power_of_two == 1);
    CHECK(grouped.value().dropped == 0);
  }
  struct Expected {
    double group_size;
    double power_of_two;
    double three_to_c;
    std::size_t dropped;
  };
  // k = 2: c = 1; k = 3 and 4: c = 2 (3 is not a power of two, so 4 is used); k = 5: c = 3;
  // k = 100: c = 7, only order 256 >= 2^8 remains.
  for (const Expected& expected :
       std::vector<Expected>{{2, 2, 3, 3}, {3, 4, 9, 4}, {4, 4, 9, 4}, {5, 8, 27, 5}, {100, 128, 2187, 9}}) {
    CAPTURE(expected.group_size);
    const auto grouped = group_privacy(curve, expected.group_size);
    REQUIRE(grouped.ok());
    const dpcalc::RdpGroupResult& result = grouped.value();
    CHECK(result.power_of_two == expected.power_of_two);
    CHECK(result.dropped == expected.dropped);
    REQUIRE(result.curve.orders.size() == curve.orders.size() - expected.dropped);
    for (std::size_t i = 0; i < result.curve.orders.size(); ++i) {
      const double source_order = curve.orders[i + expected.dropped];
      CHECK(source_order >= 2 * expected.power_of_two);
      CHECK(result.curve.orders[i] == source_order / expected.power_of_two);
      CHECK(result.curve.epsilons[i] == expected.three_to_c * source_order / 8);
    }
  }
  SUBCASE("no order qualifies: unsupported, on the curve's orders") {
    // k = 200 needs 2^8 = 256, hence orders >= 512; the curve stops at 256.
    const auto grouped = group_privacy(curve, 200);
    REQUIRE_FALSE(grouped.ok());
    CHECK(grouped.error().code == dpcalc::kUnsupported);
    CHECK(grouped.error().field == "orders");
    CHECK_FALSE(grouped.error().message.empty());
  }
}

TEST_CASE("[group][reference] mechanism-aware bounds at sensitivity k Δ") {
  SUBCASE("Gaussian: rho = (k Δ)²/(2σ²) and the exact eps at sensitivity k Δ") {
    // sigma = 2, Δ = 1, k = 3: mu = 1.5, rho = 1.125; eps at delta 1e-5 is the root of
    // Balle & Wang 2018 Thm 8 (mpmath bisection, 60 digits): 7.0514132237939578913.
    const dpcalc::GaussianGroupResult grouped = dpcalc::gaussian_group_privacy(2, 1, 3, 1e-5);
    check_upper_bound(grouped.zcdp.rho, 1.125, 1e-15);
    check_upper_bound(grouped.approx.epsilon, 7.0514132237939578913, 1e-9);
    CHECK(grouped.approx.delta == 1e-5);
  }
  SUBCASE("Gaussian: k = 1 is the mechanism itself") {
    const dpcalc::GaussianGroupResult single = dpcalc::gaussian_group_privacy(1, 1, 1, 1e-5);
    CHECK(single.approx.epsilon == dpcalc::gaussian_epsilon_for_delta(1, 1e-5));
    CHECK(single.zcdp.rho == 0.5);
  }
  SUBCASE("monotone in k") {
    double previous_epsilon = 0;
    double previous_rho = 0;
    for (double k = 1; k <= 40; ++k) {
      const dpcalc::GaussianGroupResult grouped = dpcalc::gaussian_group_privacy(3, 1, k, 1e-6);
      CHECK(grouped.approx.epsilon > previous_epsilon);
      CHECK(grouped.zcdp.rho > previous_rho);
      previous_epsilon = grouped.approx.epsilon;
      previous_rho = grouped.zcdp.rho;
    }
  }
}

TEST_CASE("[group][reference] the generic approximate-DP bound is far looser than the mechanism-aware one") {
  // One record of a Gaussian with sigma = Δ = 1 at delta = 1e-5: eps1 = 4.3771780956812246086
  // (mpmath root of Balle & Wang 2018 Thm 8). Its generic group bound at k (Vadhan 2017, Lemma 2.2)
  // against the mechanism-aware eps at sensitivity k (mu = k) at the *same* delta, all mpmath:
  //   k = 2: generic (8.7543561913624492171, 8.0613055695894913757e-4); mechanism 7.7122922500206543885
  //   k = 3: generic (13.131534287043673826, 0.064188516929335599528); mechanism 8.2634775979799147049
  //   k = 4: generic delta 5.11, vacuous; mechanism at delta 1e-5: 24.381610883113672557
  const double one_record = dpcalc::gaussian_epsilon_for_delta(1, 1e-5);
  check_upper_bound(one_record, 4.3771780956812246086, 1e-9);
  const ApproxDp single{one_record, 1e-5};
  SUBCASE("k = 2") {
    const ApproxDp generic = group_privacy(single, 2);
    CHECK_REL(generic.epsilon, 8.7543561913624492171, 1e-9);
    CHECK_REL(generic.delta, 8.0613055695894913757e-4, 1e-8);
    const double aware = dpcalc::gaussian_group_privacy(1, 1, 2, generic.delta).approx.epsilon;
    CHECK_REL(aware, 7.7122922500206543885, 1e-8);
    CHECK(aware < generic.epsilon);
  }
  SUBCASE("k = 3") {
    const ApproxDp generic = group_privacy(single, 3);
    CHECK_REL(generic.epsilon, 13.131534287043673826, 1e-9);
    CHECK_REL(generic.delta, 0.064188516929335599528, 1e-8);
    const double aware = dpcalc::gaussian_group_privacy(1, 1, 3, generic.delta).approx.epsilon;
    CHECK_REL(aware, 8.2634775979799147049, 1e-8);
    CHECK(aware < 0.65 * generic.epsilon);
  }
  SUBCASE("k = 4: the generic bound is vacuous, the mechanism-aware one is not") {
    CHECK(dpcalc::is_vacuous(group_privacy(single, 4)));
    const dpcalc::GaussianGroupResult aware = dpcalc::gaussian_group_privacy(1, 1, 4, 1e-5);
    check_upper_bound(aware.approx.epsilon, 24.381610883113672557, 1e-9);
    CHECK(aware.zcdp.rho == 8);
  }
}
