#include "dpcalc/dpsgd/group_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>

#include "dpcalc/calibration/noise_search.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

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
// Evaluations of the tight bound per search, bracketing included: about 12 are used.
constexpr int kMaxCalibrationEvaluations = 60;
// The generic group bound's k = 1 guarantee is computed on this coarser grid.
constexpr double kGenericRelativeAccuracy = 2e-3;
// Progress of group_guarantee: the tight bound's share; the k = 1 bound for the generic group
// bound takes the rest.
constexpr double kTightShareOfProgress = 0.8;
// Progress of calibrate: one tick per evaluation of the tight bound, out of about this many for the
// two searches; the ticks never report more than kProgressBeforeRuleOfThumb, as the rule of
// thumb's bound is still to come.
constexpr double kExpectedCalibrationTicks = 30;
constexpr double kProgressBeforeRuleOfThumb = 0.95;

Error cancelled() { return Error{pld::kCancelled, "", "The computation was cancelled."}; }

RdpOverapprox rdp_overapprox(const GroupSetting& setting, double noise_multiplier, double steps, double delta) {
  const std::vector<double> orders = rdp::default_orders();
  // The group as one example of sensitivity k, sampled with probability 1 − Pr[J = 0].
  mechanisms::Arguments gaussian;
  gaussian.numbers = {{"sigma", noise_multiplier}, {"sensitivity", setting.group_size}};
  const auto step = mechanisms::create(mechanisms::gaussian_type(), gaussian);
  mechanisms::Arguments subsampled;
  subsampled.numbers = {{"rate", group_sampling_probability(setting)}};
  if (step.ok()) subsampled.mechanisms = {{"mechanism", step.value()}};
  const auto sampled = step.ok() ? mechanisms::create(mechanisms::poisson_subsampled_type(), subsampled) : step;
  const auto converted = sampled.ok() ? rdp::to_approx(orders, rdp::compose({{sampled.value(), steps}}, orders), delta)
                                      : Result<rdp::RdpToApprox>(sampled.error());
  if (!converted.ok()) return RdpOverapprox{kInfinity, 0};
  return RdpOverapprox{converted.value().guarantee.epsilon, converted.value().order};
}

struct CalibratedNoise {
  double noise_multiplier = 0;
  pld::EpsilonBracket tight;  // at that noise multiplier
};

// The smallest noise multiplier whose tight upper bound meets the target ε, within the calibration
// band: the one search for the smallest noise meeting a target (calibration/noise_search.hpp), on ε
// decreasing in the noise multiplier (more noise is post-processing). Errors: the engine's, when
// they are not numeric (a numeric error, far too little noise for the engine, only means that noise
// is not certified); numeric on "target_epsilon" when kMaxNoiseMultiplier does not reach the target.
Result<CalibratedNoise> smallest_noise_multiplier(const GroupSetting& setting, double steps, double delta,
                                                  double target, const pld::AccountingOptions& options,
                                                  const pld::ProgressCallback& within,
                                                  const std::function<bool()>& tick) {
  std::map<double, pld::EpsilonBracket> certified;  // every bracket the search evaluated, by noise multiplier
  std::optional<Error> stopped;                     // an error that ends the search
  const calibration::ForwardBound forward = [&](double sigma) -> Result<ApproxDp> {
    Result<pld::EpsilonBracket> bracket = tight_epsilon(setting, sigma, steps, delta, within, options);
    if (!bracket.ok() && bracket.error().code != kNumeric) stopped = bracket.error();
    if (!stopped && !tick()) stopped = cancelled();
    // The search stops on a cancellation; `stopped` says which error it was.
    if (stopped) return cancelled();
    if (!bracket.ok()) return bracket.error();
    certified[sigma] = bracket.value();
    return ApproxDp{bracket.value().epsilon_upper, delta};
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
  const double noise_multiplier = found.value().noise;
  return CalibratedNoise{noise_multiplier, certified.at(noise_multiplier)};
}

// The tight method's composition: the worst-case pair, `steps` times (fields as tight_epsilon).
Result<pld::CompositionItem> tight_item(const GroupSetting& setting, double noise_multiplier, double steps) {
  DPCALC_TRY(const GroupSetting checked, check_setting(setting));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double count, check_count(steps, "steps"));
  return pld::CompositionItem{worst_case_pair(checked, sigma), count};
}

// The engine's errors about the one item it composes, in this setting's terms: its count is the
// number of steps, its noise the noise multiplier; its options keep their names.
Error in_training_terms(Error error) {
  if (error.item == Error::kNoItem) return error;
  error.field = error.field == "count" ? "steps" : "noise_multiplier";
  error.item = Error::kNoItem;
  return error;
}

}  // namespace

Result<pld::EpsilonBracket> tight_epsilon(const GroupSetting& setting, double noise_multiplier, double steps,
                                          double delta, const pld::ProgressCallback& progress,
                                          const pld::AccountingOptions& options) {
  DPCALC_TRY(const pld::CompositionItem item, tight_item(setting, noise_multiplier, steps));
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  Result<pld::EpsilonBracket> bracket = pld::epsilon_for_delta({item}, target, options, progress);
  if (!bracket.ok()) return in_training_terms(std::move(bracket).error());
  return bracket;
}

Result<pld::AnsweredEpsilon> tight_plds(const GroupSetting& setting, double noise_multiplier, double steps,
                                        double delta, const pld::ProgressCallback& progress,
                                        const pld::AccountingOptions& options) {
  DPCALC_TRY(const pld::CompositionItem item, tight_item(setting, noise_multiplier, steps));
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  Result<pld::AnsweredEpsilon> answered = pld::epsilon_for_delta_with_plds({item}, target, options, progress);
  if (!answered.ok()) return in_training_terms(std::move(answered).error());
  return answered;
}

Result<GroupGuarantee> group_guarantee(const GroupSetting& setting, double noise_multiplier, double steps, double delta,
                                       const pld::ProgressCallback& progress, const pld::AccountingOptions& options) {
  GroupGuarantee result;
  const bool single = setting.group_size == 1;
  pld::ProgressCallback main_part, single_part;
  if (progress) {
    main_part = [&](double f) { return progress(single ? f : kTightShareOfProgress * f); };
    single_part = [&](double f) { return progress(kTightShareOfProgress + (1 - kTightShareOfProgress) * f); };
  }
  DPCALC_TRY(pld::AnsweredEpsilon tight, tight_plds(setting, noise_multiplier, steps, delta, main_part, options));
  result.tight = tight.bracket;
  result.tight_plds = std::move(tight.plds);
  pld::EpsilonBracket one = result.tight;
  if (!single) {
    GroupSetting one_example = setting;
    one_example.group_size = 1;
    // Any sound k = 1 bound gives a sound group bound; a coarser grid (no refinement passes) keeps
    // this comparison cheap and moves it by well under 1%.
    pld::AccountingOptions coarse;
    coarse.relative_accuracy = kGenericRelativeAccuracy;
    DPCALC_TRY(one, tight_epsilon(one_example, noise_multiplier, steps, delta, single_part, coarse));
  }
  result.generic_group = group_privacy(ApproxDp{one.epsilon_upper, delta}, setting.group_size);
  if (setting.relation == Relation::kAddRemove) {
    result.rdp_overapprox = rdp_overapprox(setting, noise_multiplier, steps, delta);
  }
  return result;
}

Result<Calibration> calibrate(const GroupSetting& setting, double steps, double delta, double target_epsilon,
                              const pld::ProgressCallback& progress, const pld::AccountingOptions& options) {
  DPCALC_TRY(const double target, check_target_epsilon(target_epsilon, "target_epsilon"));
  DPCALC_TRY(const GroupSetting checked, check_setting(setting));
  DPCALC_TRY(const double count, check_count(steps, "steps"));
  DPCALC_TRY(const double target_delta, check_positive_delta(delta, "delta"));
  // Progress: each forward evaluation is one tick. Inside an evaluation its own progress moves the
  // fraction within the tick and keeps the cancel alive.
  int ticks = 0;
  const pld::ProgressCallback within = [&](double fraction) {
    const double done = (ticks + std::clamp(fraction, 0.0, 1.0)) / kExpectedCalibrationTicks;
    return !progress || progress(std::min(kProgressBeforeRuleOfThumb, done));
  };
  const std::function<bool()> tick = [&]() {
    ++ticks;
    return within(0);
  };
  DPCALC_TRY(const CalibratedNoise group,
             smallest_noise_multiplier(checked, count, target_delta, target, options, within, tick));
  CalibratedNoise single = group;
  if (checked.group_size != 1) {
    GroupSetting one_example = checked;
    one_example.group_size = 1;
    DPCALC_TRY(single, smallest_noise_multiplier(one_example, count, target_delta, target, options, within, tick));
  }
  Calibration result;
  result.noise_multiplier = group.noise_multiplier;
  result.tight = group.tight;
  result.rule_of_thumb_noise_multiplier = checked.group_size * single.noise_multiplier;
  const Result<pld::EpsilonBracket> rule =
      tight_epsilon(checked, result.rule_of_thumb_noise_multiplier, count, target_delta, within, options);
  // Too little noise for the engine to represent (a numeric error, as in the search; it named
  // noise_multiplier, a field this request does not have: fuzz seed 20261123) makes only the rule of
  // thumb unavailable, not the calibration.
  if (rule.ok()) {
    result.rule_of_thumb = rule.value();
  } else if (rule.error().code != kNumeric) {
    return rule.error();
  }
  if (progress && !progress(1.0)) return cancelled();
  return result;
}

}  // namespace dpcalc::dpsgd
