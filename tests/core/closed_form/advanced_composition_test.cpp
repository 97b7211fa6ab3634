#include "dpcalc/closed_form/advanced_composition.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <utility>

#include "approx.hpp"

using dpcalc::AdvancedResult;
using dpcalc::AdvancedVariant;
using dpcalc::ApproxDp;
using dpcalc::ComposedItem;

namespace {
constexpr AdvancedVariant kDrv = AdvancedVariant::kDworkRothblumVadhan;
constexpr AdvancedVariant kKov = AdvancedVariant::kKairouzOhViswanath;
}  // namespace

// Expected values: the header's formulas (Dwork, Rothblum, Vadhan 2010 Thm III.3; Kairouz, Oh,
// Viswanath 2015 Thm 3.5) evaluated with mpmath at 40 digits.
TEST_CASE("[advanced_composition] reference values with a given slack") {
  SUBCASE("homogeneous: 100 × (0.1, 1e-6), delta' = 1e-5") {
    const std::vector<ComposedItem> items{{ApproxDp{0.1, 1e-6}, 100}};
    const AdvancedResult drv = dpcalc::compose_advanced(kDrv, items, 1e-5);
    CHECK_REL(drv.guarantee.epsilon, 5.8502350929445578247, 1e-13);
    CHECK_REL(drv.guarantee.delta, 1.1e-4, 1e-14);
    CHECK(drv.delta_slack == 1e-5);
    const AdvancedResult kov = dpcalc::compose_advanced(kKov, items, 1e-5);
    CHECK_REL(kov.guarantee.epsilon, 5.2981096617668812343, 1e-13);
    CHECK_REL(kov.guarantee.delta, 0.00010999405021119445818, 1e-13);
  }
  SUBCASE("heterogeneous: 500 × (0.1, 1e-7) and 2000 × (0.05, 0), delta' = 1e-6") {
    const std::vector<ComposedItem> items{{ApproxDp{0.1, 1e-7}, 500}, {ApproxDp{0.05, 0}, 2000}};
    const AdvancedResult drv = dpcalc::compose_advanced(kDrv, items, 1e-6);
    CHECK_REL(drv.guarantee.epsilon, 27.008236904075886586, 1e-13);
    CHECK_REL(drv.guarantee.delta, 5.1e-5, 1e-14);
    const AdvancedResult kov = dpcalc::compose_advanced(kKov, items, 1e-6);
    CHECK_REL(kov.guarantee.epsilon, 21.619979407427168097, 1e-13);
    CHECK_REL(kov.guarantee.delta, 0.000050998702521955719683, 1e-13);
  }
  SUBCASE("small epsilon, many steps: 10000 × (0.01, 0), delta' = 1e-8") {
    const std::vector<ComposedItem> items{{ApproxDp{0.01, 0}, 10000}};
    CHECK_REL(dpcalc::compose_advanced(kDrv, items, 1e-8).guarantee.epsilon, 7.0747252259573913225, 1e-13);
    CHECK_REL(dpcalc::compose_advanced(kKov, items, 1e-8).guarantee.epsilon, 6.5697043509155851255, 1e-13);
  }
}

TEST_CASE("[advanced_composition] never above basic composition") {
  for (AdvancedVariant variant : {kDrv, kKov}) {
    SUBCASE("few large steps fall back to basic exactly") {
      const std::vector<ComposedItem> items{{ApproxDp{1, 1e-6}, 2}};
      CHECK(dpcalc::compose_advanced(variant, items, 1e-6).guarantee.epsilon == dpcalc::compose_basic(items).epsilon);
    }
    SUBCASE("k = 1 gives back the item's epsilon") {
      const std::vector<ComposedItem> items{{ApproxDp{0.3, 0}, 1}};
      CHECK(dpcalc::compose_advanced(variant, items, 1e-5).guarantee.epsilon == 0.3);
    }
    SUBCASE("advanced <= basic and monotone in count") {
      double previous = 0;
      for (double count : {1.0, 3.0, 10.0, 100.0, 1e4, 1e9}) {
        const std::vector<ComposedItem> items{{ApproxDp{0.05, 1e-12}, count}};
        const double epsilon = dpcalc::compose_advanced(variant, items, 1e-6).guarantee.epsilon;
        CHECK(epsilon <= dpcalc::compose_basic(items).epsilon);
        CHECK(epsilon > previous);
        previous = epsilon;
      }
    }
  }
  SUBCASE("KOV is never above DRV") {
    for (double epsilon0 : {0.01, 0.1, 0.5, 1.0}) {
      const std::vector<ComposedItem> items{{ApproxDp{epsilon0, 0}, 200}};
      CHECK(dpcalc::compose_advanced(kKov, items, 1e-6).guarantee.epsilon <=
            dpcalc::compose_advanced(kDrv, items, 1e-6).guarantee.epsilon);
    }
  }
}

TEST_CASE("[advanced_composition] total delta target") {
  const std::vector<ComposedItem> items{{ApproxDp{0.1, 1e-6}, 100}};
  SUBCASE("DRV spends all the remaining delta on the slack") {
    // mpmath: delta' = 1e-3 − 100·1e-6 = 9e-4, eps = sqrt(2 ln(1/delta') Σ eps²) + Σ eps (e^eps − 1).
    const auto result = dpcalc::compose_advanced_for_total_delta(kDrv, items, 1e-3);
    REQUIRE(result.ok());
    CHECK_REL(result.value().delta_slack, 9e-4, 1e-12);
    CHECK_REL(result.value().guarantee.epsilon, 4.7968702706536690554, 1e-12);
    CHECK(result.value().guarantee.delta <= 1e-3);
  }
  SUBCASE("KOV spends all the remaining delta on the slack") {
    // mpmath: delta' = 1 − (1 − 1e-3)/(1 − 1e-6)^100.
    const auto result = dpcalc::compose_advanced_for_total_delta(kKov, items, 1e-3);
    REQUIRE(result.ok());
    CHECK_REL(result.value().delta_slack, 0.00090009495487846730839, 1e-12);
    CHECK_REL(result.value().guarantee.epsilon, 4.2447166697258939256, 1e-12);
    CHECK(result.value().guarantee.delta <= 1e-3);
  }
  SUBCASE("the reported epsilon is exactly the one for the reported slack") {
    for (AdvancedVariant variant : {kDrv, kKov}) {
      const auto result = dpcalc::compose_advanced_for_total_delta(variant, items, 3e-4);
      REQUIRE(result.ok());
      const AdvancedResult direct = dpcalc::compose_advanced(variant, items, result.value().delta_slack);
      CHECK(direct.guarantee.epsilon == result.value().guarantee.epsilon);
      CHECK(direct.guarantee.delta == result.value().guarantee.delta);
      CHECK(result.value().guarantee.delta <= 3e-4);
      // Any smaller slack gives a larger epsilon: the chosen slack is optimal.
      CHECK(dpcalc::compose_advanced(variant, items, result.value().delta_slack / 2).guarantee.epsilon >
            result.value().guarantee.epsilon);
    }
  }
  SUBCASE("a target the items' deltas already use is an error stating the reachable delta") {
    // Smallest reachable totals (mpmath): DRV Σ delta_i = 1e-4; KOV 1 − (1 − 1e-6)^100.
    const std::pair<AdvancedVariant, double> cases[] = {{kDrv, 1e-4}, {kKov, 0.000099995050161696074326}};
    for (const auto& [variant, reachable] : cases) {
      for (double target : {9.9e-5, 5e-5}) {
        const auto result = dpcalc::compose_advanced_for_total_delta(variant, items, target);
        REQUIRE(!result.ok());
        CHECK(result.error().code == dpcalc::kInvalidArgument);
        CHECK(result.error().field == "total_delta");
        const std::string& message = result.error().message;
        const std::string prefix = "must be greater than ";
        REQUIRE(message.find(prefix) != std::string::npos);
        CHECK_REL(std::stod(message.substr(message.find(prefix) + prefix.size())), reachable, 1e-12);
      }
    }
  }
  SUBCASE("an invalid target is an error on the field") {
    const auto result = dpcalc::compose_advanced_for_total_delta(kKov, items, NAN);
    REQUIRE(!result.ok());
    CHECK(result.error().field == "total_delta");
  }
}
