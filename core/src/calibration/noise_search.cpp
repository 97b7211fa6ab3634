#include "dpcalc/calibration/noise_search.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <optional>

#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc::calibration {
namespace {

// ε = Δ/b for the Laplace mechanism: the slope of ln ε against ln b until two trials measure one.
constexpr double kDefaultSlope = -1;
// Measured slopes are clamped to this range, so that one flat or steep pair of trials cannot send
// the next trial absurdly far.
constexpr double kFlattestSlope = -0.01;
constexpr double kSteepestSlope = -100;
// Largest move of one extrapolated bracketing step, in ln x (a factor of e^23 ≈ 1e10).
constexpr double kLargestLogStep = 23;
// After this many bracketing steps without a bracket, steps double in ln x instead of following
// the slope, which reaches either end of [1e-100, 1e100] within about ten more evaluations.
constexpr int kExtrapolatedSteps = 10;
// The smallest move of an extrapolated bracketing step, in ln x, when noise_tolerance asks for less:
// below it a step could round to no move at all.
constexpr double kSmallestLogStep = 1e-15;
// Doubling bracketing steps start at a factor of 10 in the noise.
constexpr double kFirstDoublingStep = 2.302585092994046;  // ln 10

struct Trial {
  double noise = 0;
  bool meets = false;
  double epsilon = kInfinity;  // +inf when the forward function could not certify this noise
  Result<ApproxDp> bound = Error{};
};

// ln ε − ln aim, or NaN when either is 0 or infinite.
double log_gap(const Trial& trial, double aim) {
  if (!(trial.epsilon > 0 && aim > 0) || std::isinf(trial.epsilon)) return std::nan("");
  return std::log(trial.epsilon) - std::log(aim);
}

// What TOMS 748 solves inside the bracket: ln ε − ln aim, whose sign is made the trial's verdict
// (negative: meets; a meeting ε inside the window [aim, ε_t] ends the search anyway), and ±1 (an
// e-fold) where the gap is not finite: an ε of 0 or one that could not be certified, or a target
// ε of 0, where the search is then a bisection.
double excess(const Trial& trial, double aim) {
  const double gap = log_gap(trial, aim);
  if (trial.meets) return std::isnan(gap) ? -1 : std::min(gap, -DBL_MIN);
  return std::isnan(gap) ? 1 : std::max(gap, DBL_MIN);
}

// d ln ε / d ln x between two trials, clamped; the previous estimate when it cannot be measured
// or comes out non-negative (rounding in a flat region).
double updated_slope(double previous, const Trial& a, const Trial& b) {
  const double rise = log_gap(a, 1) - log_gap(b, 1);
  const double run = std::log(a.noise) - std::log(b.noise);
  const double slope = rise / run;
  if (!(slope < 0) || !std::isfinite(slope)) return previous;
  return std::clamp(slope, kSteepestSlope, kFlattestSlope);
}

class Search {
 public:
  Search(const ForwardBound& forward, const ApproxDp& target, const SearchOptions& options)
      : forward_(forward), target_(target), options_(options) {}

  Result<SearchResult> run() {
    DPCALC_TRY(Trial first, evaluate(options_.initial_noise));
    keep(first);
    DPCALC_TRY(bool bracketed, bracket());
    if (!bracketed) return result_;
    if (std::optional<Error> cancelled = refine()) return *cancelled;
    result_.outcome = SearchOutcome::kFound;
    result_.noise = high_.noise;
    result_.guarantee = high_.bound.value();
    result_.bracket_low = low_.noise;
    result_.failing_bound = low_.bound;
    return result_;
  }

 private:
  Result<Trial> evaluate(double noise) {
    Trial trial;
    trial.noise = std::clamp(noise, options_.lowest_noise, options_.highest_noise);
    trial.bound = forward_(trial.noise);
    ++result_.evaluations;
    if (!trial.bound.ok()) {
      if (trial.bound.error().code == pld::kCancelled) return trial.bound.error();
      if (!result_.first_error) result_.first_error = trial.bound.error();
      return trial;
    }
    const ApproxDp& guarantee = trial.bound.value();
    trial.epsilon = guarantee.epsilon;
    trial.meets = guarantee.epsilon <= target_.epsilon && guarantee.delta <= target_.delta;
    if (has_last_) slope_ = updated_slope(slope_, trial, last_);
    last_ = trial;
    has_last_ = true;
    return trial;
  }

  // A meeting trial becomes the high end of the bracket, a failing one the low end.
  void keep(const Trial& trial) {
    (trial.meets ? high_ : low_) = trial;
    (trial.meets ? has_high_ : has_low_) = true;
  }

  // Walks from the first trial towards the target until one trial meets it and one does not.
  // Returns false (with the outcome set) when a limit of the noise range is reached first.
  Result<bool> bracket() {
    double doubling_step = kFirstDoublingStep;
    for (int step = 0; !(has_low_ && has_high_); ++step) {
      const bool downwards = has_high_;
      const Trial& from = downwards ? high_ : low_;
      if (downwards && from.noise <= options_.lowest_noise) {
        result_.outcome = SearchOutcome::kMetAtLowest;
        result_.noise = from.noise;
        result_.guarantee = from.bound.value();
        return false;
      }
      if (!downwards && from.noise >= options_.highest_noise) {
        result_.outcome = SearchOutcome::kNotMetAtHighest;
        result_.failing_bound = from.bound;
        return false;
      }
      // Going down, aim just above the target so that the trial likely fails close to it; going up,
      // aim inside the accepted window [ε_t (1 − tol), ε_t].
      const double tolerance = options_.epsilon_tolerance;
      const double aim = target_.epsilon * (downwards ? 1 + tolerance / 2 : 1 - tolerance / 2);
      const double gap = log_gap(from, aim);
      double move;
      if (std::isfinite(gap) && step < kExtrapolatedSteps) {
        move = std::clamp(-gap / slope_, -kLargestLogStep, kLargestLogStep);
        const double smallest = std::max(options_.noise_tolerance, kSmallestLogStep);
        if (std::fabs(move) < smallest) move = downwards ? -smallest : smallest;
      } else {
        move = downwards ? -doubling_step : doubling_step;
        doubling_step *= 2;
      }
      DPCALC_TRY(Trial trial, evaluate(from.noise * std::exp(move)));
      keep(trial);
    }
    return true;
  }

  bool converged() const {
    const bool in_window = target_.epsilon > 0 && high_.epsilon >= target_.epsilon * (1 - options_.epsilon_tolerance);
    return in_window || high_.noise / low_.noise - 1 <= options_.noise_tolerance;
  }

  // TOMS 748 on the excess against ln x inside the bracket [low, high] (sound_search.hpp), which
  // stops once converged() or after max_evaluations in all. Every trial it asks for is evaluated
  // here and kept by its verdict, so the bracket's ends are always trials. Returns the cancellation
  // error, if the forward function was cancelled.
  std::optional<Error> refine() {
    const double aim = target_.epsilon * (1 - options_.epsilon_tolerance / 2);
    const Trial low_end = low_, high_end = high_;
    const double log_low = std::log(low_end.noise), log_high = std::log(high_end.noise);
    std::optional<Error> cancelled;
    const Excess excess_at = [&](double log_noise) {
      // The ends were evaluated while bracketing.
      if (log_noise == log_low) return excess(low_end, aim);
      if (log_noise == log_high) return excess(high_end, aim);
      Result<Trial> trial = evaluate(std::exp(log_noise));
      if (!trial.ok()) {
        cancelled = trial.error();
        return 1.0;  // any sign: the stop below ends the solver before it uses it
      }
      keep(trial.value());
      return excess(trial.value(), aim);
    };
    SolveOptions solve;
    solve.stop = [&] { return cancelled || converged(); };
    // The solver counts its two evaluations of the ends, which cost nothing here.
    solve.max_evaluations = 2 + std::max(0, options_.max_evaluations - result_.evaluations);
    solve_boundary(excess_at, Boundary{log_high, log_low}, solve);
    return cancelled;
  }

  const ForwardBound& forward_;
  ApproxDp target_;
  SearchOptions options_;
  SearchResult result_;
  Trial low_, high_, last_;
  bool has_low_ = false, has_high_ = false, has_last_ = false;
  double slope_ = kDefaultSlope;
};

}  // namespace

Result<SearchResult> smallest_noise_meeting(const ForwardBound& forward, const ApproxDp& target,
                                            const SearchOptions& options) {
  return Search(forward, target, options).run();
}

}  // namespace dpcalc::calibration
