// The largest value x in [lowest, highest] that meets a target, for a predicate `meets` that is
// monotone (true up to some x*, false beyond: more steps, a higher sampling rate, a larger group or
// more releases never lower a privacy loss) and sound (it says true only for a value whose upper
// bound was computed and meets the target):
//   x* = max { x in [lowest, highest] : meets(x) }.
// Built on the sound searches of sound_search.hpp: galloping from `initial` by step_until_met until
// the answer is bracketed (integers upwards by doubling the distance, so that no evaluation lies
// beyond twice the answer; reals, and integers downwards, on ln x: ×2, ×4, ×16, ×256, ...), then
// bisect_boundary: for integers until the bracket is two neighbours, for reals (in log space, on
// short decimals) until it is relatively narrower than `relative_tolerance`. The answer and the
// value beyond it were both evaluated, so the answer meets the target however rough the predicate
// is; monotonicity only makes it the largest. What this adds to those searches: a predicate that may
// fail (an error or a cancellation ends the search and is passed on), each value evaluated once,
// and progress.
#pragma once

#include <functional>

#include "dpcalc/result.hpp"

namespace dpcalc {

// true: the value meets the target; false: it does not, or cannot be certified. An error stops the
// search and is passed on (a cancellation, or an input the predicate refuses at every value).
using MeetsTarget = std::function<Result<bool>(double value)>;

struct LargestSearchOptions {
  double lowest = 1;   // > 0; integers: a whole number
  double highest = 1;  // >= lowest
  double initial = 1;  // first trial, clamped into [lowest, highest] (an estimate saves evaluations)
  bool integer = true;
  // Reals only: a real search stops once highest evaluated failing / answer − 1 <= this. Each
  // trial is the shortest decimal near the bracket's middle, so answers print short.
  double relative_tolerance = 1e-4;
  // Integers: the first step of the galloping upwards from `initial` when it meets the target (then
  // doubled); 0: `initial` itself, which keeps the bracket within twice the answer. A step of 1 suits
  // an `initial` that is already close below the answer (a count a cheaper sound bound allows).
  double initial_step = 0;
};

enum class LargestOutcome {
  kFound,      // `value` meets the target and `beyond` (value + 1 for integers) does not
  kNoneMeets,  // even `lowest` does not meet the target
  kAllMeet,    // `highest` meets the target: the answer is at the limit, or beyond it
};

struct LargestResult {
  LargestOutcome outcome = LargestOutcome::kFound;
  double value = 0;   // kFound, kAllMeet: the largest evaluated value that meets the target
  double beyond = 0;  // kFound, kNoneMeets: the smallest evaluated value that does not
  int evaluations = 0;
};

// `progress(fraction)` after each evaluation (an estimate of the share done); false cancels, and the
// search returns Error{pld::kCancelled, …}.
Result<LargestResult> largest_meeting(const MeetsTarget& meets, const LargestSearchOptions& options,
                                      const std::function<bool(double)>& progress = {});

}  // namespace dpcalc
