#include "dpcalc/calibration/largest_meeting.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "dpcalc/pld/pld.hpp"

namespace dpcalc::calibration {
namespace {

// The share of the progress bar for galloping; bisection, whose length is known, fills the rest.
constexpr double kGallopShare = 0.4;

// `value` rounded to `digits` significant decimal digits.
double round_significant(double value, int digits) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*e", digits - 1, value);
  return std::strtod(text, nullptr);
}

// The shortest decimal strictly inside (low, high) within a quarter of the bracket's log width of
// its geometric middle, or that middle itself.
double short_middle(double low, double high) {
  const double middle = std::sqrt(low) * std::sqrt(high);
  const double reach = 0.25 * std::log(high / low);
  for (int digits = 1; digits <= 17; ++digits) {
    const double candidate = round_significant(middle, digits);
    if (candidate > low && candidate < high && std::fabs(std::log(candidate / middle)) <= reach) return candidate;
  }
  return middle;
}

class Search {
 public:
  Search(const MeetsTarget& meets, const LargestSearchOptions& options, const std::function<bool(double)>& progress)
      : meets_(meets), options_(options), progress_(progress) {}

  Result<LargestResult> run() {
    const double first = std::clamp(options_.integer ? std::round(options_.initial) : options_.initial, options_.lowest,
                                    options_.highest);
    DPCALC_TRY(bool first_meets, evaluate(first, 0));
    if (first_meets) {
      low_ = first;
      DPCALC_TRY(bool bracketed, gallop_up());
      if (!bracketed) return finish(LargestOutcome::kAllMeet);
    } else {
      high_ = first;
      DPCALC_TRY(bool bracketed, gallop_down());
      if (!bracketed) return finish(LargestOutcome::kNoneMeets);
    }
    const double initial_width = width();
    while (!narrow()) {
      const double trial = options_.integer ? low_ + std::floor((high_ - low_) / 2) : short_middle(low_, high_);
      const double done = initial_width > 0 ? 1 - width() / initial_width : 1;
      DPCALC_TRY(bool trial_meets, evaluate(trial, kGallopShare + (1 - kGallopShare) * done));
      (trial_meets ? low_ : high_) = trial;
    }
    return finish(LargestOutcome::kFound);
  }

 private:
  // The bracket's width in the units bisection halves: values for integers, ln for reals.
  double width() const { return options_.integer ? high_ - low_ : std::log(high_ / low_); }
  bool narrow() const { return options_.integer ? high_ - low_ <= 1 : high_ / low_ - 1 <= options_.relative_tolerance; }

  // Galloping approaches kGallopShare of the progress bar (its length is unknown in advance).
  double gallop_fraction() const { return kGallopShare * result_.evaluations / (result_.evaluations + 4.0); }

  Result<bool> evaluate(double value, double fraction) {
    DPCALC_TRY(bool result, meets_(value));
    ++result_.evaluations;
    fraction_ = std::max(fraction_, std::min(0.99, fraction));
    if (progress_ && !progress_(fraction_)) {
      return Error{pld::kCancelled, "", "The computation was cancelled."};
    }
    return result;
  }

  // From a meeting low_, doubling until a value fails (true) or highest meets (false).
  Result<bool> gallop_up() {
    double factor = 2;
    while (low_ < options_.highest) {
      double next = options_.integer ? std::max(low_ + 1, low_ * factor) : low_ * factor;
      next = std::min(next, options_.highest);
      DPCALC_TRY(bool next_meets, evaluate(next, gallop_fraction()));
      if (!next_meets) {
        high_ = next;
        return true;
      }
      low_ = next;
      if (!options_.integer) factor *= factor;
    }
    return false;
  }

  // From a failing high_, halving until a value meets (true) or lowest fails (false).
  Result<bool> gallop_down() {
    double factor = 2;
    while (high_ > options_.lowest) {
      double next = options_.integer ? std::min(high_ - 1, std::floor(high_ / factor)) : high_ / factor;
      next = std::max(next, options_.lowest);
      DPCALC_TRY(bool next_meets, evaluate(next, gallop_fraction()));
      if (next_meets) {
        low_ = next;
        return true;
      }
      high_ = next;
      if (!options_.integer) factor *= factor;
    }
    return false;
  }

  LargestResult finish(LargestOutcome outcome) {
    result_.outcome = outcome;
    result_.value = low_;
    result_.beyond = high_;
    return result_;
  }

  const MeetsTarget& meets_;
  LargestSearchOptions options_;
  const std::function<bool(double)>& progress_;
  LargestResult result_;
  double low_ = 0, high_ = 0;
  double fraction_ = 0;
};

}  // namespace

Result<LargestResult> largest_meeting(const MeetsTarget& meets, const LargestSearchOptions& options,
                                      const std::function<bool(double)>& progress) {
  return Search(meets, options, progress).run();
}

}  // namespace dpcalc::calibration
