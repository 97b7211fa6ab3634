#include "dpcalc/closed_form/composition.hpp"

#include <doctest/doctest.h>

#include "approx.hpp"

using dpcalc::ApproxDp;
using dpcalc::ComposedItem;

TEST_CASE("[composition] basic composition sums epsilon and delta") {
  SUBCASE("heterogeneous items") {
    // Dwork & Roth 2014 Thm 3.16, by hand: 3·1 + 2·0.5 = 4, 3·1e-6 + 2·0 = 3e-6.
    const ApproxDp total = dpcalc::compose_basic({{ApproxDp{1, 1e-6}, 3}, {ApproxDp{0.5, 0}, 2}});
    CHECK_REL(total.epsilon, 4.0, 1e-15);
    CHECK_REL(total.delta, 3e-6, 1e-15);
    CHECK(!dpcalc::is_vacuous(total));
  }
  SUBCASE("count 1 is the identity") {
    const ApproxDp total = dpcalc::compose_basic({{ApproxDp{0.7, 2e-7}, 1}});
    CHECK(total.epsilon == 0.7);
    CHECK(total.delta == 2e-7);
  }
  SUBCASE("no items compose to (0, 0)") {
    const ApproxDp total = dpcalc::compose_basic({});
    CHECK(total.epsilon == 0);
    CHECK(total.delta == 0);
  }
  SUBCASE("a total delta of 1 or more is clamped to 1 and vacuous") {
    const ApproxDp total = dpcalc::compose_basic({{ApproxDp{1, 0.3}, 4}});
    CHECK(total.delta == 1);
    CHECK(dpcalc::is_vacuous(total));
  }
  SUBCASE("huge counts") {
    // 1e9 · 1e-3 = 1e6 and 1e9 · 1e-12 = 1e-3, by hand.
    const ApproxDp total = dpcalc::compose_basic({{ApproxDp{1e-3, 1e-12}, 1e9}});
    CHECK_REL(total.epsilon, 1e6, 1e-15);
    CHECK_REL(total.delta, 1e-3, 1e-15);
  }
  SUBCASE("monotone in count") {
    double previous = 0;
    for (double count : {1.0, 2.0, 10.0, 1000.0}) {
      const ApproxDp total = dpcalc::compose_basic({{ApproxDp{0.3, 1e-8}, count}});
      CHECK(total.epsilon > previous);
      previous = total.epsilon;
    }
  }
}

TEST_CASE("[composition] parallel composition takes the maximum") {
  // McSherry 2009 Thm 4: max eps = 2, max delta = 1e-5 (from different items).
  const ApproxDp total =
      dpcalc::compose_parallel({{ApproxDp{2, 1e-7}, 5}, {ApproxDp{0.5, 1e-5}, 1}, {ApproxDp{1, 0}, 3}});
  CHECK(total.epsilon == 2);
  CHECK(total.delta == 1e-5);
  const ApproxDp single = dpcalc::compose_parallel({{ApproxDp{0.4, 3e-9}, 1}});
  CHECK(single.epsilon == 0.4);
  CHECK(single.delta == 3e-9);
}

TEST_CASE("[composition] zCDP composition sums rho") {
  // Bun & Steinke 2016 Lemma 2.3, by hand: 10·0.01 + 2·0.5 = 1.1.
  const dpcalc::Zcdp total = dpcalc::compose_zcdp({{dpcalc::Zcdp{0.01}, 10}, {dpcalc::Zcdp{0.5}, 2}});
  CHECK_REL(total.rho, 1.1, 1e-15);
  CHECK(dpcalc::compose_zcdp({{dpcalc::Zcdp{0.25}, 1}}).rho == 0.25);
}
