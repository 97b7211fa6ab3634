// The generic search for the smallest noise meeting a target (calibration/noise_search.hpp), on
// forward functions whose answer is known exactly: power laws, a step, a function that cannot be
// certified below some noise, and a cancelled one.
#include <cmath>

#include "approx.hpp"
#include "dpcalc/calibration/noise_search.hpp"
#include "dpcalc/pld/pld.hpp"

using dpcalc::ApproxDp;
using dpcalc::Error;
using dpcalc::Result;
using dpcalc::calibration::ForwardBound;
using dpcalc::calibration::SearchOptions;
using dpcalc::calibration::SearchOutcome;
using dpcalc::calibration::SearchResult;
using dpcalc::calibration::smallest_noise_meeting;

namespace {

SearchResult search(const ForwardBound& forward, ApproxDp target, SearchOptions options = {}) {
  auto result = smallest_noise_meeting(forward, target, options);
  REQUIRE(result.ok());
  return result.value();
}

// The answer meets the target within the tolerance and the bracket's low end does not meet it.
void check_found(const SearchResult& result, const ForwardBound& forward, const ApproxDp& target, double tolerance) {
  REQUIRE(result.outcome == SearchOutcome::kFound);
  CHECK(result.guarantee.epsilon <= target.epsilon);
  CHECK(result.guarantee.epsilon >= target.epsilon * (1 - tolerance));
  CHECK(forward(result.noise).value().epsilon == result.guarantee.epsilon);
  CHECK(result.bracket_low < result.noise);
  CHECK(forward(result.bracket_low).value().epsilon > target.epsilon);
}

}  // namespace

TEST_CASE("[calibration] power laws ε = c x^(−s) are solved to the tolerance in few evaluations") {
  // Exact answer x* = (c/ε_t)^(1/s).
  for (double slope : {0.5, 1.0, 2.0, 7.0}) {
    for (double initial : {1e-6, 1.0, 1e6}) {
      CAPTURE(slope);
      CAPTURE(initial);
      const ForwardBound forward = [slope](double x) {
        return Result<ApproxDp>(ApproxDp{3 * std::pow(x, -slope), 1e-6});
      };
      SearchOptions options;
      options.initial_noise = initial;
      const ApproxDp target{0.25, 1e-6};
      const SearchResult result = search(forward, target, options);
      check_found(result, forward, target, options.epsilon_tolerance);
      CHECK_REL(result.noise, std::pow(3 / 0.25, 1 / slope), 2e-9);
      CHECK(result.evaluations <= 25);
    }
  }
}

TEST_CASE("[calibration] a step function: the bracket closes on the jump") {
  // ε = 2 below x = 5 and 0.5 from 5 on; the target 1 is met exactly from x = 5.
  const ForwardBound forward = [](double x) { return Result<ApproxDp>(ApproxDp{x < 5 ? 2.0 : 0.5, 0}); };
  const SearchResult result = search(forward, ApproxDp{1, 0});
  REQUIRE(result.outcome == SearchOutcome::kFound);
  CHECK(result.noise >= 5);
  CHECK(result.noise / result.bracket_low - 1 <= 1e-12);
  CHECK(result.guarantee.epsilon == 0.5);
}

TEST_CASE("[calibration] an ε = 0 target is bisected on the noise") {
  // ε = max(0, 1 − x/7): zero from x = 7 on.
  const ForwardBound forward = [](double x) { return Result<ApproxDp>(ApproxDp{std::fmax(0.0, 1 - x / 7), 1e-5}); };
  const SearchResult result = search(forward, ApproxDp{0, 1e-5});
  REQUIRE(result.outcome == SearchOutcome::kFound);
  CHECK(result.guarantee.epsilon == 0);
  CHECK_REL(result.noise, 7.0, 1e-11);
  CHECK(result.bracket_low < 7);
}

TEST_CASE("[calibration] noise that cannot be certified counts as not meeting the target") {
  // The forward function fails below x = 2 (as the PLD engine does when a grid would be too large).
  const ForwardBound forward = [](double x) -> Result<ApproxDp> {
    if (x < 2) return Error{dpcalc::kNumeric, "discretization_interval", "too many grid points"};
    return ApproxDp{10 / x, 1e-5};
  };
  SearchOptions options;
  options.initial_noise = 1e-3;
  const ApproxDp target{1, 1e-5};
  const SearchResult result = search(forward, target, options);
  REQUIRE(result.outcome == SearchOutcome::kFound);
  CHECK_REL(result.noise, 10.0, 2e-9);
  CHECK(result.noise >= 10);
}

TEST_CASE("[calibration] the limits of the range") {
  const ForwardBound forward = [](double x) { return Result<ApproxDp>(ApproxDp{1 / x, 1e-5}); };
  SearchOptions options;
  options.lowest_noise = 1e-3;
  options.highest_noise = 1e3;
  SUBCASE("a target met below the range") {
    const SearchResult result = search(forward, ApproxDp{1e4, 1e-5}, options);
    CHECK(result.outcome == SearchOutcome::kMetAtLowest);
  }
  SUBCASE("a target not met within the range, with the forward function's error at the top") {
    const SearchResult result = search(forward, ApproxDp{1e-4, 1e-5}, options);
    CHECK(result.outcome == SearchOutcome::kNotMetAtHighest);
    CHECK(result.failing_bound.ok());
    CHECK(result.failing_bound.value().epsilon == 1e-3);
    CHECK(result.evaluations <= 25);
  }
  SUBCASE("a forward function that fails everywhere reports its error from the top of the range") {
    const ForwardBound failing = [](double) -> Result<ApproxDp> {
      return dpcalc::invalid_argument("delta", "delta is below the smallest reachable delta");
    };
    const SearchResult result = search(failing, ApproxDp{1, 1e-5}, options);
    CHECK(result.outcome == SearchOutcome::kNotMetAtHighest);
    REQUIRE_FALSE(result.failing_bound.ok());
    CHECK(result.failing_bound.error().field == "delta");
  }
}

TEST_CASE("[calibration] cancelling stops the search with the forward function's error") {
  int calls = 0;
  const ForwardBound forward = [&calls](double x) -> Result<ApproxDp> {
    if (++calls == 2) return Error{dpcalc::pld::kCancelled, "", "The computation was cancelled."};
    return ApproxDp{1 / x, 1e-5};
  };
  auto result = smallest_noise_meeting(forward, ApproxDp{1e-3, 1e-5}, SearchOptions{});
  REQUIRE_FALSE(result.ok());
  CHECK(result.error().code == dpcalc::pld::kCancelled);
  CHECK(calls == 2);
}

TEST_CASE("[calibration] the evaluation budget bounds a slowly converging search") {
  // A jittery, barely decreasing function: the search stops at its budget with a sound answer.
  const ForwardBound forward = [](double x) {
    return Result<ApproxDp>(ApproxDp{1 + 1e-3 * std::sin(1e3 * std::log(x)) - 1e-4 * std::log(x), 1e-5});
  };
  SearchOptions options;
  options.max_evaluations = 30;
  const SearchResult result = search(forward, ApproxDp{1, 1e-5}, options);
  REQUIRE(result.outcome == SearchOutcome::kFound);
  CHECK(result.guarantee.epsilon <= 1);
  CHECK(result.evaluations <= 30);
}
