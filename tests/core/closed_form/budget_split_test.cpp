#include "dpcalc/closed_form/budget_split.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "approx.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

using dpcalc::ApproxDp;
using dpcalc::SplitMethod;

namespace {

// Composes `per_item` `count` times with the method's own forward function, as a user would.
ApproxDp compose_back(SplitMethod method, const dpcalc::SplitResult& split, double count, double target_delta) {
  switch (method) {
    case SplitMethod::kBasic:
      return dpcalc::compose_basic({{split.per_item, count}});
    case SplitMethod::kAdvancedDworkRothblumVadhan:
      return dpcalc::compose_advanced(dpcalc::AdvancedVariant::kDworkRothblumVadhan, {{split.per_item, count}},
                                      split.delta_slack)
          .guarantee;
    case SplitMethod::kAdvancedKairouzOhViswanath:
      return dpcalc::compose_advanced(dpcalc::AdvancedVariant::kKairouzOhViswanath, {{split.per_item, count}},
                                      split.delta_slack)
          .guarantee;
    case SplitMethod::kOptimal: {
      const auto epsilon = dpcalc::optimal_composition_epsilon(split.per_item, count, target_delta);
      REQUIRE(epsilon.ok());
      return ApproxDp{epsilon.value(), target_delta};
    }
    case SplitMethod::kZcdp:
      return dpcalc::zcdp_to_approx_canonne_kamath_steinke(
          dpcalc::compose_zcdp({{dpcalc::Zcdp{split.per_item.epsilon * split.per_item.epsilon / 2}, count}}),
          target_delta);
  }
  return ApproxDp{};
}

constexpr SplitMethod kAllMethods[] = {SplitMethod::kBasic, SplitMethod::kAdvancedDworkRothblumVadhan,
                                       SplitMethod::kAdvancedKairouzOhViswanath, SplitMethod::kOptimal,
                                       SplitMethod::kZcdp};

}  // namespace

TEST_CASE("[budget_split] basic divides evenly") {
  // By hand: (1, 1e-5) over 10 items is (0.1, 1e-6).
  const auto split = dpcalc::split_budget(SplitMethod::kBasic, ApproxDp{1, 1e-5}, 10);
  REQUIRE(split.ok());
  CHECK_REL(split.value().per_item.epsilon, 0.1, 1e-15);
  CHECK_REL(split.value().per_item.delta, 1e-6, 1e-15);
  CHECK(split.value().achieved.epsilon <= 1);
  CHECK(split.value().achieved.delta <= 1e-5);
  CHECK(std::isnan(split.value().delta_slack));
  CHECK(std::isnan(split.value().rho_per_item));
}

TEST_CASE("[budget_split] round trips: never above the target, within 1% of it") {
  const ApproxDp targets[] = {{1, 1e-5}, {0.1, 1e-8}, {10, 1e-3}};
  for (SplitMethod method : kAllMethods) {
    for (const ApproxDp& target : targets) {
      for (double count : {1.0, 10.0, 1000.0, 1e6}) {
        CAPTURE(static_cast<int>(method));
        CAPTURE(target.epsilon);
        CAPTURE(count);
        const auto split = dpcalc::split_budget(method, target, count);
        REQUIRE(split.ok());
        const dpcalc::SplitResult& result = split.value();
        CHECK(result.achieved.epsilon <= target.epsilon);
        CHECK(result.achieved.epsilon >= 0.99 * target.epsilon);
        CHECK(result.achieved.delta <= target.delta);
        const ApproxDp back = compose_back(method, result, count, target.delta);
        CHECK(back.epsilon <= target.epsilon * (1 + 1e-12));
        CHECK(back.epsilon >= 0.99 * target.epsilon);
        CHECK(back.delta <= target.delta);
        // The (eps, delta) methods are never above basic, so they afford at least its share, and
        // k = 1 is the identity; the zCDP route pays for its conversion when counts are small.
        if (method != SplitMethod::kZcdp) {
          CHECK(result.per_item.epsilon >= target.epsilon / count * (1 - 1e-12));
          if (count == 1) CHECK_REL(result.per_item.epsilon, target.epsilon, 1e-12);
        }
      }
    }
  }
}

TEST_CASE("[budget_split] tighter composition affords more per item") {
  for (double count : {10.0, 100.0, 1e4}) {
    CAPTURE(count);
    const ApproxDp target{1, 1e-6};
    const double basic = dpcalc::split_budget(SplitMethod::kBasic, target, count).value().per_item.epsilon;
    const double drv =
        dpcalc::split_budget(SplitMethod::kAdvancedDworkRothblumVadhan, target, count).value().per_item.epsilon;
    const double kov =
        dpcalc::split_budget(SplitMethod::kAdvancedKairouzOhViswanath, target, count).value().per_item.epsilon;
    const double optimal = dpcalc::split_budget(SplitMethod::kOptimal, target, count).value().per_item.epsilon;
    CHECK(drv >= basic);
    CHECK(kov >= drv * (1 - 1e-12));
    CHECK(optimal >= kov * (1 - 1e-12));
  }
  SUBCASE("and the per-item budget shrinks as the count grows") {
    for (SplitMethod method : kAllMethods) {
      double previous = INFINITY;
      for (double count : {1.0, 10.0, 100.0, 1e4, 1e6}) {
        const double epsilon = dpcalc::split_budget(method, ApproxDp{1, 1e-6}, count).value().per_item.epsilon;
        CHECK(epsilon < previous);
        previous = epsilon;
      }
    }
  }
}

TEST_CASE("[budget_split] zCDP split against the reference conversion") {
  // /work/shared/references/public_values.json, "zcdp_to_approx": rho = 0.5, delta = 1e-6 converts
  // (Canonne–Kamath–Steinke) to eps = 5.221534 (7 digits), so that target splits into rho = 0.5.
  const auto split = dpcalc::split_budget(SplitMethod::kZcdp, ApproxDp{5.221534, 1e-6}, 100);
  REQUIRE(split.ok());
  CHECK_REL(split.value().rho_per_item * 100, 0.5, 1e-5);
  CHECK(split.value().per_item.delta == 0);
  CHECK_REL(split.value().per_item.epsilon, std::sqrt(2 * split.value().rho_per_item), 1e-15);
}

TEST_CASE("[budget_split] edge cases and errors") {
  SUBCASE("delta = 0 works for basic only") {
    const auto basic = dpcalc::split_budget(SplitMethod::kBasic, ApproxDp{2, 0}, 4);
    REQUIRE(basic.ok());
    CHECK_REL(basic.value().per_item.epsilon, 0.5, 1e-15);
    CHECK(basic.value().per_item.delta == 0);
    for (SplitMethod method : kAllMethods) {
      if (method == SplitMethod::kBasic) continue;
      const auto split = dpcalc::split_budget(method, ApproxDp{2, 0}, 4);
      REQUIRE(!split.ok());
      CHECK(split.error().code == dpcalc::kInvalidArgument);
      CHECK(split.error().field == "target_delta");
    }
  }
  SUBCASE("epsilon = 0 is met exactly") {
    for (SplitMethod method : kAllMethods) {
      const auto split = dpcalc::split_budget(method, ApproxDp{0, 1e-6}, 10);
      REQUIRE(split.ok());
      // Every method but zCDP must give 0; a tiny rho still converts to (0, delta) under
      // Canonne–Kamath–Steinke (at a large order the bound goes below 0), so zCDP may give more.
      if (method != SplitMethod::kZcdp) CHECK(split.value().per_item.epsilon == 0);
      CHECK(split.value().achieved.epsilon == 0);
      CHECK(split.value().achieved.delta <= 1e-6);
    }
  }
  SUBCASE("invalid inputs are errors on their fields") {
    CHECK(dpcalc::split_budget(SplitMethod::kBasic, ApproxDp{NAN, 0}, 4).error().field == "target_epsilon");
    CHECK(dpcalc::split_budget(SplitMethod::kBasic, ApproxDp{1, 1}, 4).error().field == "target_delta");
    CHECK(dpcalc::split_budget(SplitMethod::kOptimal, ApproxDp{1, 1e-6}, 2.5).error().field == "count");
    CHECK(!dpcalc::split_budget(SplitMethod::kBasic, ApproxDp{1, 1e-6}, 0).ok());
  }
}
