#include "dpcalc/closed_form/optimal_composition.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "approx.hpp"
#include "dpcalc/closed_form/advanced_composition.hpp"

using dpcalc::ApproxDp;

namespace {

struct InverseCase {
  double epsilon0, delta0, count, target_delta, expected_epsilon;
};

// The reported delta is rounded up by a relative 1e-10 (see optimal_composition.cpp).
constexpr double kDeltaTolerance = 3e-10;

}  // namespace

TEST_CASE("[optimal_composition] smallest epsilon for a target delta, reference values") {
  const InverseCase cases[] = {
      // /work/shared/references/public_values.json, "optimal_homogeneous_composition" (mpmath, 30 digits).
      {0.1, 0.0, 10, 1e-5, 0.9936911767593359},
      {0.1, 0.0, 10, 1e-6, 0.9993709057217588},
      {0.1, 0.0, 100, 1e-5, 4.306791372516507},
      {0.1, 0.0, 100, 1e-6, 4.7745675881079865},
      {0.1, 0.0, 1000, 1e-5, 17.787128449700923},
      {0.1, 0.0, 1000, 1e-6, 19.344671447993044},
      // KOV 2015 Thm 3.3 (the header's delta_k(eps)) summed and bisected with mpmath at 40 digits.
      {1.0, 1e-6, 5, 1e-3, 4.995223595065855404},
      {0.5, 1e-8, 20, 1e-4, 8.9443287402616686422},
      // k = 1e5, k·eps0 = 1e3: mpmath, prefix sums of the exact binomial terms, solved per segment.
      {0.01, 0.0, 1e5, 1e-6, 19.422821957816954195},
      {0.01, 1e-12, 1e5, 1e-5, 17.863122621880046978},
  };
  for (const InverseCase& c : cases) {
    CAPTURE(c.count);
    CAPTURE(c.target_delta);
    const ApproxDp per_step{c.epsilon0, c.delta0};
    const auto epsilon = dpcalc::optimal_composition_epsilon(per_step, c.count, c.target_delta);
    REQUIRE(epsilon.ok());
    // Between breakpoints the answer is solved in closed form, so it is exact up to rounding.
    CHECK_REL(epsilon.value(), c.expected_epsilon, 1e-10);
    CHECK(dpcalc::optimal_composition_delta(per_step, c.count, epsilon.value()) <= c.target_delta);
  }
}

TEST_CASE("[optimal_composition] tiny and huge eps0 keep full accuracy") {
  SUBCASE("eps0 down to 1e-12: within 1e-9 of the exact answer, never below it") {
    const InverseCase cases[] = {
        // KOV 2015 Thm 3.3 in mpmath at 700 digits: tests/reference/optimal_composition_reference.py
        // (the code before this test was 1.7e-5 and 6.5e-8 above the first two, 5% above the last).
        {2.2504330953850607e-12, 0.0, 29, 2.3972203379930218e-12, 6.059269465011148922975e-12},
        {1e-9, 0.0, 1000, 1e-8, 5.631580723425466927458e-9},
        {3e-7, 1e-14, 200, 1e-6, 1.635885421914183051982e-6},
        {1e-300, 0.0, 100, 1e-300, 9.04985875157313096752e-300},
    };
    for (const InverseCase& c : cases) {
      CAPTURE(c.epsilon0);
      const auto epsilon = dpcalc::optimal_composition_epsilon(ApproxDp{c.epsilon0, c.delta0}, c.count, c.target_delta);
      REQUIRE(epsilon.ok());
      CHECK(epsilon.value() >= c.expected_epsilon);
      CHECK_REL(epsilon.value(), c.expected_epsilon, 1e-9);
    }
  }
  SUBCASE("a subnormal eps0 answers (it gave up after 5 s of walks): delta(0) is below the target") {
    // mpmath at 700 digits: delta(0) = 1.97e-323 for eps0 = 5e-324, k = 100, so eps = 0 meets 1e-321.
    const auto epsilon = dpcalc::optimal_composition_epsilon(ApproxDp{5e-324, 0}, 100, 1e-321);
    REQUIRE(epsilon.ok());
    CHECK(epsilon.value() == 0);
    const auto larger = dpcalc::optimal_composition_epsilon(ApproxDp{5e-324, 0}, 1000798, 1e-300);
    REQUIRE(larger.ok());
    CHECK(larger.value() == 0);
  }
  SUBCASE("eps0 = 700, k = 3: only l = 0 matters, so eps = 3 eps0 + ln(1 − delta / p^3), p^3 = 1 − 3e^-700") {
    const auto epsilon = dpcalc::optimal_composition_epsilon(ApproxDp{700, 0}, 3, 1e-5);
    REQUIRE(epsilon.ok());
    CHECK_REL(epsilon.value(), 2100 + std::log1p(-1e-5), 1e-15);
  }
  SUBCASE("a positive delta below the smallest double is reported as that double, not 0") {
    // mpmath (50 digits): 1.689e-654 for eps0 = 0.00020163966245730788, k = 2746, eps = 0.5156407.
    CHECK(dpcalc::optimal_composition_delta(ApproxDp{0.00020163966245730788, 0}, 2746, 0.51564071381361809) > 0);
  }
}

TEST_CASE("[optimal_composition] delta for a given epsilon, reference values") {
  struct ForwardCase {
    double epsilon0, delta0, count, epsilon, expected_delta;
  };
  // KOV 2015 Thm 3.3 (the header's delta_k(eps)) evaluated with mpmath at 40 digits.
  const ForwardCase cases[] = {
      {0.1, 0.0, 10, 0.5, 0.0099296269173888550037},     {0.1, 0.0, 10, 0.95, 0.000077549453937369741523},
      {1.0, 1e-6, 5, 1.5, 0.50090173425804667165},       {0.5, 1e-8, 20, 3.0, 0.24974798333303975223},
      {0.1, 0.0, 100, 2.0, 0.020140178428191540507},     {2.0, 0.0, 3, 1.0, 0.85409305578117088936},
      {0.01, 0.0, 1e5, 30.0, 3.7088195839930293675e-16}, {0.01, 1e-9, 1e5, 5.0, 0.38389005642579386102},
  };
  for (const ForwardCase& c : cases) {
    CAPTURE(c.count);
    CAPTURE(c.epsilon);
    const double delta = dpcalc::optimal_composition_delta(ApproxDp{c.epsilon0, c.delta0}, c.count, c.epsilon);
    CHECK(delta >= c.expected_delta);  // an upper bound
    CHECK_REL(delta, c.expected_delta, kDeltaTolerance);
  }
}

TEST_CASE("[optimal_composition] properties") {
  SUBCASE("k = 1 is the identity") {
    const ApproxDp pure{0.8, 0};
    CHECK(dpcalc::optimal_composition_delta(pure, 1, 0.8) == 0);
    const auto epsilon = dpcalc::optimal_composition_epsilon(pure, 1, 0);
    REQUIRE(epsilon.ok());
    CHECK(epsilon.value() == 0.8);
    const ApproxDp approx{0.8, 1e-6};
    CHECK_REL(dpcalc::optimal_composition_delta(approx, 1, 0.8), 1e-6, 1e-14);
    CHECK(dpcalc::optimal_composition_delta(approx, 1, 0.8) >= 1e-6);
  }
  SUBCASE("delta is 1 − (1 − delta0)^k from k·eps0 on, and 0 needs exactly k·eps0 when delta0 = 0") {
    const ApproxDp pure{0.1, 0};
    // 50 × 0.1 in doubles is 5 + 2.8e-16 (0.1 is 0.1000000000000000055): delta is 0 from the double above 5 on.
    CHECK(dpcalc::optimal_composition_delta(pure, 50, std::nextafter(5.0, 6.0)) == 0);
    CHECK(dpcalc::optimal_composition_delta(pure, 50, 5.0) > 0);
    CHECK(dpcalc::optimal_composition_delta(pure, 50, 4.9) > 0);
    const auto epsilon = dpcalc::optimal_composition_epsilon(pure, 50, 0);
    REQUIRE(epsilon.ok());
    CHECK_REL(epsilon.value(), 5.0, 1e-15);
  }
  SUBCASE("monotone: delta decreasing in eps, epsilon increasing in k") {
    const ApproxDp per_step{0.2, 1e-9};
    double previous_delta = 1;
    for (double epsilon = 0; epsilon <= 12; epsilon += 0.37) {
      const double delta = dpcalc::optimal_composition_delta(per_step, 60, epsilon);
      CHECK(delta <= previous_delta);
      previous_delta = delta;
    }
    double previous_epsilon = 0;
    for (double count : {1.0, 2.0, 5.0, 20.0, 100.0, 1000.0, 1e4}) {
      const auto epsilon = dpcalc::optimal_composition_epsilon(per_step, count, 1e-4);
      REQUIRE(epsilon.ok());
      CHECK(epsilon.value() > previous_epsilon);
      previous_epsilon = epsilon.value();
    }
  }
  SUBCASE("never above advanced composition (KOV) at the same total delta") {
    for (double epsilon0 : {0.01, 0.1, 0.5, 1.0}) {
      for (double count : {1.0, 10.0, 100.0, 1000.0}) {
        CAPTURE(epsilon0);
        CAPTURE(count);
        const ApproxDp per_step{epsilon0, 1e-8};
        const auto kov = dpcalc::compose_advanced_for_total_delta(dpcalc::AdvancedVariant::kKairouzOhViswanath,
                                                                  {{per_step, count}}, 1e-4);
        REQUIRE(kov.ok());
        const auto optimal = dpcalc::optimal_composition_epsilon(per_step, count, 1e-4);
        REQUIRE(optimal.ok());
        CHECK(optimal.value() <= kov.value().guarantee.epsilon);
      }
    }
  }
  SUBCASE("the answer is minimal: slightly less epsilon misses the target") {
    const ApproxDp per_step{0.1, 0};
    for (double count : {10.0, 100.0, 1000.0}) {
      const auto epsilon = dpcalc::optimal_composition_epsilon(per_step, count, 1e-6);
      REQUIRE(epsilon.ok());
      CHECK(dpcalc::optimal_composition_delta(per_step, count, epsilon.value() * (1 - 1e-9)) > 1e-6);
    }
  }
  SUBCASE("eps0 = 0: delta is 1 − (1 − delta0)^k at every epsilon") {
    const ApproxDp per_step{0, 1e-6};
    // mpmath: 1 − (1 − 1e-6)^100.
    CHECK_REL(dpcalc::optimal_composition_delta(per_step, 100, 0), 0.000099995050161696074326, 1e-14);
    const auto epsilon = dpcalc::optimal_composition_epsilon(per_step, 100, 1e-4);
    REQUIRE(epsilon.ok());
    CHECK(epsilon.value() == 0);
  }
  SUBCASE("a generous target gives epsilon 0") {
    const auto epsilon = dpcalc::optimal_composition_epsilon(ApproxDp{0.1, 0}, 10, 0.5);
    REQUIRE(epsilon.ok());
    CHECK(epsilon.value() == 0);
  }
}

TEST_CASE("[optimal_composition] unreachable target delta is an error naming the smallest reachable") {
  // 1 − (1 − 1e-3)^10 = 0.00995511979025190... (mpmath).
  const auto epsilon = dpcalc::optimal_composition_epsilon(ApproxDp{1, 1e-3}, 10, 1e-3);
  REQUIRE(!epsilon.ok());
  CHECK(epsilon.error().code == dpcalc::kInvalidArgument);
  CHECK(epsilon.error().field == "total_delta");
  const std::string& message = epsilon.error().message;
  const std::string prefix = "must be at least ";
  REQUIRE(message.find(prefix) != std::string::npos);
  CHECK_REL(std::stod(message.substr(message.find(prefix) + prefix.size())), 0.0099551197902519, 1e-13);
  CHECK(!dpcalc::optimal_composition_epsilon(ApproxDp{1, 0}, 10, 1.5).ok());
}

// Its speed is measured by `npm run bench`, not here.
TEST_CASE("[optimal_composition] k = 1e5, k·eps0 = 1e3 answers in log space") {
  const auto epsilon = dpcalc::optimal_composition_epsilon(ApproxDp{0.01, 0}, 1e5, 1e-6);
  REQUIRE(epsilon.ok());
  SUBCASE("and k = 1e9 still answers") {
    // Between advanced (KOV) and the basic k·eps0 = 1e6.
    const ApproxDp per_step{1e-3, 0};
    const auto huge = dpcalc::optimal_composition_epsilon(per_step, 1e9, 1e-6);
    REQUIRE(huge.ok());
    CHECK(dpcalc::optimal_composition_delta(per_step, 1e9, huge.value()) <= 1e-6);
    const auto kov =
        dpcalc::compose_advanced_for_total_delta(dpcalc::AdvancedVariant::kKairouzOhViswanath, {{per_step, 1e9}}, 1e-6);
    REQUIRE(kov.ok());
    CHECK(huge.value() <= kov.value().guarantee.epsilon);
    CHECK(huge.value() > 0.9 * kov.value().guarantee.epsilon);
  }
}
