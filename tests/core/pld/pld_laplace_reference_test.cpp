// Laplace and Poisson-subsampled Laplace through the PLD accountant, over a sweep of scales and
// counts, against dp_accounting (the default grid once used to cut the top atom of
// the Laplace loss off as infinite loss, so that e.g. b = 10, T in [759, 2787] was refused).
//
// Reference values: dp_accounting, google/differential-privacy commit b5b0286 (python/dp_accounting,
// run from source with Debian's /usr/bin/python3), computed by
//   p = privacy_loss_distribution.from_laplace_mechanism(parameter=b, sensitivity=1, sampling_prob=q,
//         value_discretization_interval=1e-4, pessimistic_estimate=True)
//   p.self_compose(T).get_epsilon_for_delta(1e-5)
// That is a pessimistic (upper) estimate on a grid of step 1e-4, so it is >= the exact eps.
#include <cmath>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc::pld;

TEST_CASE("[pld] Laplace and subsampled Laplace sweep against dp_accounting") {
  struct Row {
    double scale, rate, count, dp_accounting;
  };
  const Row rows[] = {
      {5, 1, 130, 11.07993877592761},     {5, 1, 500, 26.927434786511366},     {10, 1, 759, 14.577645594607725},
      {10, 1, 1000, 17.423652078499213},  {10, 1, 2787, 34.846283399605156},   {20, 1, 3700, 16.77902424093125},
      {1, 1, 10, 9.989962316985142},      {2, 1, 50, 17.473913386069473},      {3, 0.5, 1, 0.1804745963859981},
      {3, 0.5, 100, 7.468668408796859},   {1, 0.01, 1000, 1.1237829013646938}, {2, 0.1, 300, 3.4981782340532988},
      {10, 0.5, 2000, 11.245643881952441}};
  for (const Row& row : rows) {
    CAPTURE(row.scale);
    CAPTURE(row.rate);
    CAPTURE(row.count);
    const auto result =
        epsilon_for_delta({CompositionItem{DominatingPair{LaplacePair{row.scale, 1}, row.rate}, row.count}}, 1e-5);
    REQUIRE(result.ok());
    const EpsilonBracket& bracket = result.value();
    CAPTURE(bracket.epsilon_upper);
    CAPTURE(bracket.epsilon_lower);
    // dp_accounting's value is >= the exact eps, which is >= our lower bound.
    CHECK(bracket.epsilon_lower <= row.dp_accounting);
    // Our upper bound is within the default accuracy (0.05%) of it; dp_accounting's own step (1e-4)
    // can put it up to ~1e-5 above the exact value, hence the absolute allowance.
    CHECK(std::fabs(bracket.epsilon_upper - row.dp_accounting) <= 5e-4 * row.dp_accounting + 1e-5);
  }
}

TEST_CASE("[pld] the top atom of a Laplace loss is never cut off the grid") {
  // b = 10, count 1000 used to report "delta must be larger than 1". The top
  // loss 1/b = 0.1 on the default step 0.1/19: 19 * h rounds one ulp below 0.1.
  for (double count : {759.0, 1000.0, 2787.0}) {
    CAPTURE(count);
    const auto composed = compose_items({CompositionItem{DominatingPair{LaplacePair{10, 1}}, count}}, {});
    REQUIRE(composed.ok());
    // Only the truncated tail (<= 1e-14) and the rounding bound may count as infinite loss.
    CHECK(composed.value().upper_remove.infinite_mass <= 1e-13);
    CHECK(smallest_certifiable_delta(composed.value()) < 1e-9);
  }
  // A single subsampled Laplace (rate 0.5, scale 3), the second reproducer.
  const auto single = epsilon_for_delta({CompositionItem{DominatingPair{LaplacePair{3, 1}, 0.5}, 1}}, 1e-5);
  REQUIRE(single.ok());
  CHECK(single.value().epsilon_upper <= 0.1805);
}

TEST_CASE("[pld] a top atom beside a grid point costs the lower bound at most one step in all") {
  // b = 10, 1000 releases, delta = 1e-5. The top loss 0.1 on the step h = 0.1/n: for n = 235 the
  // atom sits on the grid point 235 h (0.1 / h rounds below 235, which once shifted the lower grid
  // by almost a step and lost that step in the composition: a width of 1.0 h); for n = 269 and 300,
  // n h rounds above 0.1, so the atom sits a hair below a grid point (which once rounded it down a
  // step in every copy: widths of 564 h). dp_accounting's pessimistic value (above) is an
  // upper bound on the exact eps, so it bounds every lower bound.
  const double dp_accounting = 17.423652078499213;
  for (const double n : {235.0, 269.0, 300.0}) {
    CAPTURE(n);
    AccountingOptions options;
    options.discretization_interval = 0.1 / n;
    const auto result = epsilon_for_delta({CompositionItem{DominatingPair{LaplacePair{10, 1}}, 1000}}, 1e-5, options);
    REQUIRE(result.ok());
    const EpsilonBracket& bracket = result.value();
    CHECK(bracket.epsilon_lower <= dp_accounting);
    const double width_in_steps = (bracket.epsilon_upper - bracket.epsilon_lower) / options.discretization_interval;
    CAPTURE(width_in_steps);
    // On the grid: only the discretisation's own width (about 0.01 step). Beside it: the lower grid
    // shifted by almost a step, given back in whole steps, so one step lost in all, plus that width.
    CHECK(width_in_steps <= (n == 235 ? 0.1 : 1.1));
  }
}
