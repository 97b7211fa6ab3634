#include "dpcalc/dpsgd/training_calibration.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <string>

#include "dpcalc/calibration/noise_search.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::dpsgd {
namespace {

// Calibration stops once the answer's ε lies in [(1 − kCalibrationTolerance) target, target] (and
// aims at the middle of that band), the accuracy the calibration promises.
constexpr double kCalibrationTolerance = 0.01;
// ... or once its bracket on the noise multiplier is this narrow (relative), where a target sits on
// a flat stretch of ε(σ) that the band cannot resolve.
constexpr double kNoiseMultiplierTolerance = 1e-9;
// The search's first noise multiplier: the order of magnitude of DP-SGD's (Abadi et al. 2016, §5,
// train with σ = 2, 4 and 8).
constexpr double kFirstNoiseMultiplier = 1;
// Below this noise multiplier a target is met by every noise the search tries (ε in the hundreds
// is not a training setting): the smallest noise searched.
constexpr double kMinNoiseMultiplier = 1e-3;
// Evaluations of the upper bound per search, bracketing included: about 12 are used.
constexpr int kMaxCalibrationEvaluations = 60;
// Progress: one tick per evaluation of the upper bound, out of about this many for the two
// searches; the ticks never report more than kProgressBeforeBounds, as the answer's bounds (both
// ends) and the rule of thumb's are still to come.
constexpr double kExpectedCalibrationTicks = 30;
constexpr double kProgressBeforeBounds = 0.9;

Error cancelled() { return Error{pld::kCancelled, "", "The computation was cancelled."}; }

Training with_noise(Training training, double noise_multiplier) {
  training.phases.front().noise_multiplier = noise_multiplier;
  return training;
}

// The smallest noise multiplier whose upper bound meets the target ε, within the calibration band.
// Errors: the sampler's, when they are not numeric (a numeric error, far too little noise for the
// engine, only means that noise is not certified); numeric on "target_epsilon" when
// kMaxNoiseMultiplier does not reach the target.
Result<double> smallest_noise_multiplier(const Sampler& sampler, const Training& training, double delta, double target,
                                         const pld::AccountingOptions& options, const pld::ProgressCallback& within,
                                         const std::function<bool()>& tick) {
  std::optional<Error> stopped;  // an error that ends the search
  const calibration::ForwardBound forward = [&](double sigma) -> Result<ApproxDp> {
    Result<SamplerBounds> bounds =
        sampler.bounds(with_noise(training, sigma), delta, options, within, BoundsWanted::kUpperOnly);
    if (!bounds.ok() && bounds.error().code != kNumeric) stopped = bounds.error();
    if (!stopped && !tick()) stopped = cancelled();
    // The search stops on a cancellation; `stopped` says which error it was.
    if (stopped) return cancelled();
    if (!bounds.ok()) return bounds.error();
    if (!bounds.value().epsilon_upper) return Error{kNumeric, "noise_multiplier", "No upper bound is known."};
    return ApproxDp{*bounds.value().epsilon_upper, delta};
  };
  calibration::SearchOptions search;
  search.lowest_noise = kMinNoiseMultiplier;
  search.highest_noise = kMaxNoiseMultiplier;
  search.initial_noise = kFirstNoiseMultiplier;
  search.epsilon_tolerance = kCalibrationTolerance;
  search.noise_tolerance = kNoiseMultiplierTolerance;
  search.max_evaluations = kMaxCalibrationEvaluations;
  const Result<calibration::SearchResult> found = calibration::smallest_noise_meeting(forward, {target, delta}, search);
  if (stopped) return *stopped;
  if (!found.ok()) return found.error();
  if (found.value().outcome == calibration::SearchOutcome::kNotMetAtHighest) {
    return Error{kNumeric, "target_epsilon",
                 "No noise multiplier up to " + format_number(kMaxNoiseMultiplier) +
                     " reaches ε = " + format_number(target) +
                     " at this δ, group size and number of steps; raise the target ε or δ, "
                     "or train for fewer steps."};
  }
  // kFound, or kMetAtLowest: the smallest noise searched meets the target.
  return found.value().noise;
}

}  // namespace

Result<Calibration> calibrate(const Sampler& sampler, const Training& training, double delta, double target_epsilon,
                              const pld::ProgressCallback& progress, const pld::AccountingOptions& options) {
  DPCALC_TRY(const double target, check_target_epsilon(target_epsilon, "target_epsilon"));
  DPCALC_TRY(const double target_delta, check_positive_delta(delta, "delta"));
  // Progress: each forward evaluation is one tick. Inside an evaluation its own progress moves the
  // fraction within the tick and keeps the cancel alive.
  int ticks = 0;
  const pld::ProgressCallback within = [&](double fraction) {
    const double done = (ticks + std::clamp(fraction, 0.0, 1.0)) / kExpectedCalibrationTicks;
    return !progress || progress(std::min(kProgressBeforeBounds, done));
  };
  const std::function<bool()> tick = [&]() {
    ++ticks;
    return within(0);
  };
  DPCALC_TRY(const double group,
             smallest_noise_multiplier(sampler, training, target_delta, target, options, within, tick));
  double single = group;
  if (training.group_size != 1) {
    Training one_example = training;
    one_example.group_size = 1;
    DPCALC_TRY(single, smallest_noise_multiplier(sampler, one_example, target_delta, target, options, within, tick));
  }
  Calibration result;
  result.noise_multiplier = group;
  DPCALC_TRY(result.bounds,
             sampler.bounds(with_noise(training, group), target_delta, options, within, BoundsWanted::kBoth));
  result.rule_of_thumb_noise_multiplier = training.group_size * single;
  // For one example the rule of thumb is the calibration itself.
  Result<SamplerBounds> rule = result.bounds;
  if (training.group_size != 1) {
    rule = sampler.bounds(with_noise(training, result.rule_of_thumb_noise_multiplier), target_delta, options, within,
                          BoundsWanted::kBoth);
  }
  // Too little noise for the engine to represent (a numeric error, as in the search; it named
  // noise_multiplier, a field this request does not have: fuzz seed 20261123) makes only the rule of
  // thumb unavailable, not the calibration.
  if (rule.ok()) {
    result.rule_of_thumb = std::move(rule).value();
  } else if (rule.error().code != kNumeric) {
    return rule.error();
  }
  if (progress && !progress(1.0)) return cancelled();
  return result;
}

}  // namespace dpcalc::dpsgd
