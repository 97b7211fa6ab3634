// The smallest noise x whose sound upper bound meets a privacy target (ε_t, δ_t):
//   x* = min { x in [lowest, highest] : forward(x).epsilon <= ε_t and forward(x).delta <= δ_t },
// where forward(x) is an upper bound on the privacy loss at noise x that does not grow with x
// (adding noise is post-processing, Dwork & Roth 2014, Prop 2.1). Found by bracketing along the
// measured slope of ln ε against ln x, then TOMS 748 (Alefeld, Potra, Shi 1995; sound_search.hpp)
// on ln ε − ln aim against ln x, which converges in a few evaluations for the near-power laws
// ε ∝ x^(−s) of noise mechanisms and is never much slower than bisection in log space.
// Every returned noise was evaluated and met the target, so the answer is sound however rough
// the forward function is; monotonicity only makes it the smallest.
#pragma once

#include <functional>
#include <optional>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::calibration {

// The sound forward function: an (ε, δ) upper bound at noise x (ε at the target δ, or a pure
// ε with δ = 0). An error means "cannot certify x" and counts as not meeting the target, except
// code pld::kCancelled, which stops the search.
using ForwardBound = std::function<Result<ApproxDp>(double noise)>;

struct SearchOptions {
  double lowest_noise = 1e-100;  // > 0; the search never evaluates outside [lowest, highest]
  double highest_noise = 1e100;
  double initial_noise = 1;  // first trial (a closed-form estimate saves evaluations)
  // Stop once ε_t (1 − epsilon_tolerance) <= forward(x).epsilon <= ε_t (needs ε_t > 0) ...
  double epsilon_tolerance = 1e-9;
  // ... or once the bracket [low, high] is this narrow: high / low − 1 <= noise_tolerance.
  double noise_tolerance = 1e-12;
  // Evaluations after which the refinement stops (bracketing always finishes: its steps double).
  int max_evaluations = 200;
};

enum class SearchOutcome {
  kFound,            // noise meets the target and bracket_low does not
  kMetAtLowest,      // even lowest_noise meets the target: the smallest noise is below the range
  kNotMetAtHighest,  // highest_noise does not meet the target (or could not be certified)
};

struct SearchResult {
  SearchOutcome outcome = SearchOutcome::kFound;
  double noise = 0;        // kFound: the answer (the high end of the bracket); kMetAtLowest: the lowest noise
  ApproxDp guarantee;      // kFound, kMetAtLowest: forward(noise)
  double bracket_low = 0;  // kFound: the largest evaluated noise that does not meet the target
  int evaluations = 0;
  // The forward bound at the largest noise that does not meet the target: at bracket_low (kFound)
  // or at highest_noise (kNotMetAtHighest). An error there means that noise could not be certified,
  // so the search cannot tell whether a smaller noise than `noise` would do.
  Result<ApproxDp> failing_bound = Error{};
  // The first error of the forward function, if any (at the trial closest to the initial noise).
  std::optional<Error> first_error;
};

// Errors only when the forward function is cancelled (its error is passed on). When the evaluation
// budget runs out the result is still kFound with the smallest meeting noise seen and its bracket.
Result<SearchResult> smallest_noise_meeting(const ForwardBound& forward, const ApproxDp& target,
                                            const SearchOptions& options);

}  // namespace dpcalc::calibration
