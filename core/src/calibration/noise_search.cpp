#include "dpcalc/calibration/noise_search.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/pld/pld.hpp"

namespace dpcalc::calibration {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
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
// A secant step that leaves the bracket wider than this share of its width three secant steps
// earlier is followed by a bisection (the forward function is rough or badly curved there).
constexpr double kSecantProgress = 0.25;

struct Trial {
  double noise = 0;
  bool meets = false;
  double epsilon = kInfinity;  // +inf when the forward function could not certify this noise
  Result<ApproxDp> bound = Error{};
};

// ln ε − ln aim, or NaN when either is 0 or infinite (such trials only support bisection).
double log_gap(const Trial& trial, double aim) {
  if (!(trial.epsilon > 0 && aim > 0) || std::isinf(trial.epsilon)) return std::nan("");
  return std::log(trial.epsilon) - std::log(aim);
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
    (first.meets ? high_ : low_) = first;
    (first.meets ? has_high_ : has_low_) = true;
    DPCALC_TRY(bool bracketed, bracket());
    if (!bracketed) return result_;
    if (auto refined = refine(); !refined.ok()) return refined.error();
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

  // Walks from the first trial towards the target until one trial meets it and one does not.
  // Returns false (with the outcome set) when a limit of the noise range is reached first.
  Result<bool> bracket() {
    double doubling_step = std::log(10.0);
    for (int step = 0; !(has_low_ && has_high_); ++step) {
      const bool downwards = has_high_;
      const Trial& from = downwards ? high_ : low_;
      if (downwards && from.noise <= options_.lowest_noise) {
        result_.outcome = SearchOutcome::kMetAtLowest;
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
        const double smallest = std::max(options_.noise_tolerance, 1e-15);
        if (std::fabs(move) < smallest) move = downwards ? -smallest : smallest;
      } else {
        move = downwards ? -doubling_step : doubling_step;
        doubling_step *= 2;
      }
      DPCALC_TRY(Trial trial, evaluate(from.noise * std::exp(move)));
      if (trial.meets) {
        high_ = trial;
        has_high_ = true;
      } else {
        low_ = trial;
        has_low_ = true;
      }
    }
    return true;
  }

  bool converged() const {
    const bool in_window = target_.epsilon > 0 && high_.epsilon >= target_.epsilon * (1 - options_.epsilon_tolerance);
    return in_window || high_.noise / low_.noise - 1 <= options_.noise_tolerance;
  }

  // Illinois iteration on ln ε − ln aim against ln x, inside the bracket [low, high].
  Result<bool> refine() {
    const double aim = target_.epsilon * (1 - options_.epsilon_tolerance / 2);
    double low_weight = 1, high_weight = 1;  // Illinois halves the gap of an end kept twice
    int last_replaced = 0;                   // -1 low, +1 high
    int secant_steps = 0;
    double width_before_secants = std::log(high_.noise / low_.noise);
    while (!converged() && result_.evaluations < options_.max_evaluations) {
      const double log_low = std::log(low_.noise), log_high = std::log(high_.noise);
      const double gap_low = log_gap(low_, aim) * low_weight;
      const double gap_high = log_gap(high_, aim) * high_weight;
      double next = (log_low + log_high) / 2;
      const bool secant = gap_low > 0 && gap_high < 0 && secant_steps < 3;
      if (secant) {
        const double candidate = log_high - gap_high * (log_high - log_low) / (gap_high - gap_low);
        if (candidate > log_low && candidate < log_high) next = candidate;
        ++secant_steps;
      } else {
        secant_steps = 0;
      }
      DPCALC_TRY(Trial trial, evaluate(std::exp(next)));
      const int replaced = trial.meets ? 1 : -1;
      (trial.meets ? high_ : low_) = trial;
      (trial.meets ? high_weight : low_weight) = 1;
      if (replaced == last_replaced) (trial.meets ? low_weight : high_weight) /= 2;
      last_replaced = replaced;
      const double width = std::log(high_.noise / low_.noise);
      if (secant_steps == 3 && width <= kSecantProgress * width_before_secants) secant_steps = 0;
      if (secant_steps == 0) width_before_secants = width;
    }
    return true;
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
