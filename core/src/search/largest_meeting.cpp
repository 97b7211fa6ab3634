#include "dpcalc/search/largest_meeting.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>

#include "dpcalc/pld/pld.hpp"
#include "dpcalc/search/sound_search.hpp"

namespace dpcalc {
namespace {

// The share of the progress bar for galloping; bisection, whose length is known, fills the rest.
constexpr double kGallopShare = 0.4;

// The fallible predicate as the sound searches ask it: each value evaluated once, progress reported
// after each evaluation, and the first error (or cancellation) kept. Once an error is kept every value
// counts as failing without an evaluation, so the search winds down at once and the error is returned.
class Probe {
 public:
  Probe(const MeetsTarget& meets, const std::function<bool(double)>& progress) : meets_(meets), progress_(progress) {}

  bool operator()(double value) {
    if (error_) return false;
    const auto known = verdicts_.find(value);
    if (known != verdicts_.end()) return known->second;
    Result<bool> verdict = meets_(value);
    if (!verdict.ok()) {
      error_ = verdict.error();
      return false;
    }
    ++evaluations_;
    fraction_ = std::max(fraction_, std::min(0.99, next_fraction()));
    if (progress_ && !progress_(fraction_)) {
      error_ = Error{pld::kCancelled, "", "The computation was cancelled."};
      return false;
    }
    verdicts_.emplace(value, verdict.value());
    return verdict.value();
  }

  // From now on progress counts bisections, of which `expected` are needed.
  void start_bisection(double expected) {
    gallop_evaluations_ = evaluations_;
    expected_bisections_ = std::max(1.0, expected);
  }

  const std::optional<Error>& error() const { return error_; }
  int evaluations() const { return evaluations_; }

 private:
  // Galloping approaches kGallopShare of the bar (its length is unknown in advance); bisection fills
  // the rest in proportion to the halvings done.
  double next_fraction() const {
    if (expected_bisections_ == 0) return kGallopShare * evaluations_ / (evaluations_ + 4.0);
    return kGallopShare + (1 - kGallopShare) * (evaluations_ - gallop_evaluations_) / expected_bisections_;
  }

  const MeetsTarget& meets_;
  const std::function<bool(double)>& progress_;
  std::map<double, bool> verdicts_;
  std::optional<Error> error_;
  int evaluations_ = 0;
  int gallop_evaluations_ = 0;
  double expected_bisections_ = 0;
  double fraction_ = 0;
};

}  // namespace

Result<LargestResult> largest_meeting(const MeetsTarget& meets, const LargestSearchOptions& options,
                                      const std::function<bool(double)>& progress) {
  Probe probe(meets, progress);
  const auto finish = [&](LargestOutcome outcome, double value, double beyond) -> Result<LargestResult> {
    if (probe.error()) return *probe.error();
    return LargestResult{outcome, value, beyond, probe.evaluations()};
  };
  const auto whole = [&](double x) { return options.integer ? std::round(x) : x; };
  const double first = std::clamp(whole(options.initial), options.lowest, options.highest);
  // Galloping runs on u = ln x; the limits of the range map back to themselves exactly.
  const double u_first = std::log(first), u_lowest = std::log(options.lowest), u_highest = std::log(options.highest);
  const auto to_x = [&](double u) {
    if (u == u_first) return first;
    if (u == u_lowest) return options.lowest;
    if (u == u_highest) return options.highest;
    return std::clamp(whole(std::exp(u)), options.lowest, options.highest);
  };
  const SoundPredicate meets_at_u = [&](double u) { return probe(to_x(u)); };
  const SoundPredicate fails_at_u = [&](double u) { return !probe(to_x(u)); };

  // The bracket: the largest value seen to meet and the smallest seen to fail.
  Boundary bracket;
  if (probe(first)) {
    // Integers gallop by doubling the distance from `first`, so the bracket is at most twice the
    // answer: the evaluations above the answer are the costly ones (a longer composition), and
    // squaring steps would probe far beyond it.
    const std::optional<Boundary> failing =
        options.integer ? step_until_met([&](double x) { return !probe(x); }, first, options.highest,
                                         options.initial_step > 0 ? options.initial_step : std::max(1.0, first))
                        : step_until_met(fails_at_u, u_first, u_highest, std::log(2.0));
    if (!failing) return finish(LargestOutcome::kAllMeet, options.highest, options.highest);
    bracket = options.integer ? Boundary{failing->failing, failing->meeting}
                              : Boundary{to_x(failing->failing), to_x(failing->meeting)};
  } else {
    if (probe.error()) return finish(LargestOutcome::kNoneMeets, first, first);
    const std::optional<Boundary> meeting = step_until_met(meets_at_u, u_first, u_lowest, std::log(2.0));
    if (!meeting) return finish(LargestOutcome::kNoneMeets, options.lowest, options.lowest);
    bracket = Boundary{to_x(meeting->meeting), to_x(meeting->failing)};
  }
  if (probe.error()) return finish(LargestOutcome::kFound, bracket.meeting, bracket.failing);

  const double low = bracket.meeting, high = bracket.failing;
  probe.start_bisection(options.integer ? std::log2(high - low)
                                        : std::log2(std::log(high / low) / std::log1p(options.relative_tolerance / 2)));
  const SoundPredicate meets_at = [&](double x) { return probe(x); };
  const Boundary found = bisect_boundary(meets_at, bracket, options.relative_tolerance,
                                         options.integer ? Midpoint::kWhole : Midpoint::kShortDecimal);
  return finish(LargestOutcome::kFound, found.meeting, found.failing);
}

}  // namespace dpcalc
