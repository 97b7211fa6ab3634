// The searches on sound predicates (search/sound_search.hpp), on predicates whose boundary is known
// exactly: every answer is a point the predicate was asked about and accepted, the ends a caller
// passes are never asked about again, and the boundary is found to the requested width.
#include "dpcalc/search/sound_search.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "approx.hpp"

using dpcalc::bisect_boundary;
using dpcalc::Boundary;
using dpcalc::Midpoint;
using dpcalc::SoundPredicate;
using dpcalc::step_until_met;

namespace {

// A predicate that records every point it is asked about.
struct Recorded {
  std::vector<double> asked;
  SoundPredicate of(const std::function<bool(double)>& rule) {
    return [this, rule](double x) {
      asked.push_back(x);
      return rule(x);
    };
  }
  bool was_asked(double x) const {
    for (double a : asked) {
      if (a == x) return true;
    }
    return false;
  }
};

}  // namespace

TEST_CASE("[search] step_until_met: steps of 1, 2, 4, ... units until the predicate holds") {
  Recorded recorded;
  SUBCASE("upwards: x >= 10 from 0 is first met at 0 + 16, after 0 + 8") {
    const auto found = step_until_met(recorded.of([](double x) { return x >= 10; }), 0, 100, 1);
    REQUIRE(found);
    CHECK(found->meeting == 16);
    CHECK(found->failing == 8);
    CHECK(recorded.asked == std::vector<double>{0, 1, 2, 4, 8, 16});
  }
  SUBCASE("downwards: x <= 3 from 5 by steps of 0.5, 1, 2") {
    const auto found = step_until_met(recorded.of([](double x) { return x <= 3; }), 5, 0, 0.5);
    REQUIRE(found);
    CHECK(found->meeting == 3);
    CHECK(found->failing == 4);
  }
  SUBCASE("a start that meets is the answer, with no failing point") {
    const auto found = step_until_met(recorded.of([](double x) { return x <= 3; }), 2, 0, 1);
    REQUIRE(found);
    CHECK(found->meeting == 2);
    CHECK(found->failing == 2);
    CHECK(recorded.asked.size() == 1);
  }
  SUBCASE("the last step is clamped to the limit, which is asked about") {
    const auto found = step_until_met(recorded.of([](double x) { return x >= 99.5; }), 0, 100, 1);
    REQUIRE(found);
    CHECK(found->meeting == 100);
    CHECK(found->failing == 64);
  }
  SUBCASE("nothing when even the limit fails") {
    CHECK_FALSE(step_until_met(recorded.of([](double x) { return x > 100; }), 0, 100, 1));
    CHECK(recorded.asked.back() == 100);
  }
  SUBCASE("steps below an ulp of the start are skipped, not asked about twice") {
    // 1 − 1e-15 is reached after about 950 doublings of 1e-300 (the first ~900 move nothing).
    const auto found = step_until_met(recorded.of([](double x) { return x <= 1 - 1e-15; }), 1, 0, 1e-300);
    REQUIRE(found);
    CHECK(found->meeting <= 1 - 1e-15);
    CHECK(found->meeting > 1 - 4e-15);
    for (std::size_t i = 1; i < recorded.asked.size(); ++i) CHECK(recorded.asked[i] < recorded.asked[i - 1]);
  }
}

TEST_CASE("[search] bisect_boundary: the nearest meeting point to the requested width") {
  Recorded recorded;
  const double pi = std::acos(-1.0);
  SUBCASE("geometric midpoints between 1 and 1e6 (meeting above π)") {
    const Boundary found = bisect_boundary(recorded.of([pi](double x) { return x >= pi; }), {1e6, 1}, 1e-12);
    CHECK(found.meeting >= pi);
    CHECK(found.failing < pi);
    CHECK(found.meeting / found.failing - 1 <= 1e-12);
    CHECK_FALSE(recorded.was_asked(1e6));
    CHECK_FALSE(recorded.was_asked(1));
    CHECK(recorded.was_asked(found.meeting));
    // ln(1e6)/ln(1 + 1e-12) = 2^43.6: 44 halvings.
    CHECK(recorded.asked.size() <= 46);
  }
  SUBCASE("arithmetic midpoints from 0 (meeting below 0.3)") {
    const Boundary found =
        bisect_boundary(recorded.of([](double x) { return x <= 0.3; }), {0, 1}, 1e-12, Midpoint::kArithmetic);
    CHECK(found.meeting <= 0.3);
    CHECK(found.failing > 0.3);
    CHECK(found.failing - found.meeting <= 1e-12 * found.failing);
  }
  SUBCASE("geometric midpoints fall back to arithmetic when an end is 0") {
    const Boundary found = bisect_boundary(recorded.of([](double x) { return x <= 0.3; }), {0, 1}, 1e-12);
    CHECK(found.meeting <= 0.3);
    CHECK(found.failing - found.meeting <= 1e-12 * found.failing);
  }
  SUBCASE("whole numbers: the exact integer boundary, asked about integers only") {
    const Boundary found =
        bisect_boundary(recorded.of([](double l) { return l <= 37; }), {0, 1000}, 0, Midpoint::kWhole);
    CHECK(found.meeting == 37);
    CHECK(found.failing == 38);
    for (double l : recorded.asked) CHECK(l == std::floor(l));
  }
  SUBCASE("an empty boundary is returned as it is") {
    const Boundary found = bisect_boundary(recorded.of([](double) { return true; }), {2, 2}, 1e-12);
    CHECK(found.meeting == 2);
    CHECK(recorded.asked.empty());
  }
}

TEST_CASE("[search] farthest_meeting: the end itself when it meets, else the bisected boundary") {
  Recorded recorded;
  SUBCASE("largest x in [1, 100] with x² <= 2 is √2, from below") {
    const double found = dpcalc::farthest_meeting(recorded.of([](double x) { return x * x <= 2; }), 1, 100, 1e-12);
    CHECK(found * found <= 2);
    CHECK(found >= std::sqrt(2.0) * (1 - 2e-12));
    CHECK(recorded.asked.front() == 100);
  }
  SUBCASE("smallest x in [0.1, 10] with x³ >= 2 is ∛2, from above") {
    const double found = dpcalc::farthest_meeting(recorded.of([](double x) { return x * x * x >= 2; }), 10, 0.1, 1e-12);
    CHECK(found * found * found >= 2);
    CHECK(found <= std::cbrt(2.0) * (1 + 2e-12));
  }
  SUBCASE("an end that meets is the answer") {
    CHECK(dpcalc::farthest_meeting(recorded.of([](double x) { return x <= 5; }), 1, 4, 1e-12) == 4);
    CHECK(recorded.asked.size() == 1);
  }
}

TEST_CASE("[search] solve_boundary: TOMS 748 keeps the meeting end on the meeting side") {
  std::vector<double> asked;
  // x meets where x³ <= 2: the boundary is ∛2.
  const dpcalc::Excess excess = [&asked](double x) {
    asked.push_back(x);
    return x * x * x - 2;
  };
  dpcalc::SolveOptions options;
  options.relative_width = 1e-14;
  SUBCASE("meeting end below") {
    const Boundary found = dpcalc::solve_boundary(excess, {0, 10}, options);
    CHECK(excess(found.meeting) <= 0);
    CHECK(excess(found.failing) > 0);
    CHECK(found.failing - found.meeting <= 1e-14 * found.failing);
    CHECK_REL(found.meeting, std::cbrt(2.0), 1e-14);
    // Superlinear on a smooth function: far fewer evaluations than the ~50 of bisection.
    CHECK(asked.size() <= 20);
  }
  SUBCASE("meeting end above, for an excess that decreases") {
    const dpcalc::Excess decreasing = [](double x) { return 2 - x * x * x; };
    const Boundary found = dpcalc::solve_boundary(decreasing, {10, 0}, options);
    CHECK(decreasing(found.meeting) <= 0);
    CHECK(decreasing(found.failing) > 0);
    CHECK_REL(found.meeting, std::cbrt(2.0), 1e-14);
    CHECK(found.meeting - found.failing <= 1e-14 * found.meeting);
  }
  SUBCASE("ends whose excess contradicts the caller are returned as given") {
    const Boundary found = dpcalc::solve_boundary(excess, {10, 0}, options);
    CHECK(found.meeting == 10);
    CHECK(found.failing == 0);
  }
  SUBCASE("stop ends the search after the evaluation it follows") {
    options.stop = [&asked] { return asked.size() >= 4; };
    const Boundary found = dpcalc::solve_boundary(excess, {0, 10}, options);
    CHECK(excess(found.meeting) <= 0);
    CHECK(found.meeting < found.failing);
  }
}
