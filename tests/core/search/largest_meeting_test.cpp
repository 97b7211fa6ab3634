// The generic search for the largest value meeting a monotone predicate
// (search/largest_meeting.hpp), on thresholds known exactly: the answer meets the predicate, the
// value beyond it does not, and the limits of the range are reported as such.
#include "dpcalc/search/largest_meeting.hpp"

#include <cmath>
#include <cstdio>
#include <string>
#include <utility>

#include "approx.hpp"
#include "dpcalc/pld/pld.hpp"

using dpcalc::largest_meeting;
using dpcalc::LargestOutcome;
using dpcalc::LargestResult;
using dpcalc::LargestSearchOptions;
using dpcalc::MeetsTarget;
using dpcalc::Result;

namespace {

MeetsTarget at_most(double threshold) {
  return [threshold](double value) { return Result<bool>(value <= threshold); };
}

LargestResult search(const MeetsTarget& meets, const LargestSearchOptions& options) {
  const auto result = largest_meeting(meets, options);
  REQUIRE(result.ok());
  return result.value();
}

LargestSearchOptions integers(double lowest, double highest, double initial) {
  LargestSearchOptions options;
  options.lowest = lowest;
  options.highest = highest;
  options.initial = initial;
  return options;
}

}  // namespace

TEST_CASE("[search] the largest integer at or below a threshold, from any start") {
  for (double threshold : {1.0, 2.0, 7.0, 1000.0, 123456789.0, 9007199254740991.0}) {
    for (double initial : {1.0, 5.0, 1e6, 9007199254740992.0}) {
      CAPTURE(threshold);
      CAPTURE(initial);
      const LargestResult result = search(at_most(threshold), integers(1, 9007199254740992.0, initial));
      REQUIRE(result.outcome == LargestOutcome::kFound);
      CHECK(result.value == threshold);
      CHECK(result.beyond == threshold + 1);
      // Galloping and bisection: about 2 log2 of the range at most.
      CHECK(result.evaluations <= 110);
    }
  }
}

TEST_CASE("[search] from a start just below the answer, a first step of 1 takes few evaluations") {
  // The answer 244452761581 from 244452761581 (the start is the answer): the start and one above it;
  // from 20 below: the start, then +1, +2, +4, +8, +16, +32 (beyond), and 4 halvings of [+16, +32].
  // The default first step (the start itself) leaves a bracket of 2.4e11 to bisect: 38 halvings.
  for (const auto& [below, most] : {std::pair{0.0, 2}, std::pair{20.0, 11}}) {
    const double answer = 244452761581.0;
    LargestSearchOptions options = integers(1, 9007199254740992.0, answer - below);
    options.initial_step = 1;
    const LargestResult result = search(at_most(answer), options);
    REQUIRE(result.outcome == LargestOutcome::kFound);
    CHECK(result.value == answer);
    CHECK(result.beyond == answer + 1);
    CHECK(result.evaluations == most);
    options.initial_step = 0;
    CHECK(search(at_most(answer), options).evaluations >= 38);
  }
}

TEST_CASE("[search] no value meets, or every value does: the limit is reported") {
  const LargestResult none = search(at_most(0.5), integers(1, 100, 10));
  CHECK(none.outcome == LargestOutcome::kNoneMeets);
  CHECK(none.beyond == 1);
  const LargestResult all = search(at_most(1e300), integers(1, 100, 10));
  CHECK(all.outcome == LargestOutcome::kAllMeet);
  CHECK(all.value == 100);
  const LargestResult just = search(at_most(99), integers(1, 100, 1));
  CHECK(just.outcome == LargestOutcome::kFound);
  CHECK(just.value == 99);
  CHECK(just.beyond == 100);
}

TEST_CASE("[search] the largest real: a short decimal within the tolerance, its bracket evaluated") {
  for (double threshold : {1e-9, 0.0123456789, 0.5, 0.999999}) {
    CAPTURE(threshold);
    LargestSearchOptions options;
    options.lowest = 1e-12;
    options.highest = 1;
    options.initial = 0.01;
    options.integer = false;
    const LargestResult result = search(at_most(threshold), options);
    REQUIRE(result.outcome == LargestOutcome::kFound);
    CHECK(result.value <= threshold);
    CHECK(result.beyond > threshold);
    CHECK(result.beyond / result.value - 1 <= options.relative_tolerance);
    // At most 8 significant digits: the trials are the shortest decimals near the middle.
    char text[40];
    std::snprintf(text, sizeof text, "%.7e", result.value);
    CHECK(std::strtod(text, nullptr) == result.value);
  }
}

TEST_CASE("[search] an error stops the largest-value search and is passed on") {
  int calls = 0;
  const MeetsTarget cancelled = [&calls](double value) -> Result<bool> {
    if (++calls == 3) return dpcalc::Error{dpcalc::pld::kCancelled, "", "cancelled"};
    return value <= 1000;
  };
  const auto result = largest_meeting(cancelled, integers(1, 1e6, 1));
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == dpcalc::pld::kCancelled);
  const auto stopped = largest_meeting(at_most(1000), integers(1, 1e6, 1), [](double) { return false; });
  REQUIRE_FALSE(stopped.ok());
  CHECK(stopped.error().code == dpcalc::pld::kCancelled);
}
