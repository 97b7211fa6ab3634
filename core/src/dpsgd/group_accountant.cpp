#include "dpcalc/dpsgd/group_accountant.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::dpsgd {
namespace {

// Calibration stops once the answer's eps lies in [kCalibrationBand * target, target] and aims at
// the middle of that band.
constexpr double kCalibrationBand = 0.99;
constexpr double kCalibrationAim = 0.995;
constexpr double kMinNoiseMultiplier = 1e-3;
constexpr int kMaxCalibrationSteps = 60;
constexpr double kGenericRelativeAccuracy = 2e-3;

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
  const auto converted = sampled.ok()
                             ? rdp::to_approx(orders, rdp::compose({{sampled.value(), steps}}, orders), delta, "")
                             : Result<rdp::RdpToApprox>(sampled.error());
  if (!converted.ok()) return RdpOverapprox{std::numeric_limits<double>::infinity(), 0};
  return RdpOverapprox{converted.value().guarantee.epsilon, converted.value().order};
}

// One evaluation of the forward function during calibration: +infinity when the PLD engine cannot
// represent the composition (far too little noise).
struct Probe {
  double noise_multiplier;
  Result<pld::EpsilonBracket> bracket;
  double epsilon() const {
    return bracket.ok() ? bracket.value().epsilon_upper : std::numeric_limits<double>::infinity();
  }
};

Result<Probe> probe(const GroupSetting& setting, double noise_multiplier, double steps, double delta,
                    const pld::ProgressCallback& progress, const pld::AccountingOptions& options) {
  Probe result{noise_multiplier, tight_epsilon(setting, noise_multiplier, steps, delta, progress, options)};
  if (!result.bracket.ok() && result.bracket.error().code != kNumeric) return result.bracket.error();
  return result;
}

// Smallest noise multiplier (to the calibration band) whose tight upper bound is <= target.
Result<Probe> search(const GroupSetting& setting, double steps, double delta, double target,
                     const std::string& target_field, const pld::AccountingOptions& options,
                     const std::function<bool()>& tick) {
  const pld::ProgressCallback none;
  DPCALC_TRY(Probe high, probe(setting, 1.0, steps, delta, none, options));
  Probe low = high;
  if (!tick()) return cancelled();
  if (high.epsilon() > target) {
    // Check the far end first, so that an unreachable target fails after two evaluations.
    low = high;
    DPCALC_TRY(high, probe(setting, kMaxNoiseMultiplier, steps, delta, none, options));
    if (!tick()) return cancelled();
    if (high.epsilon() > target) {
      return Error{kNumeric, target_field,
                   "No noise multiplier up to " + format_number(kMaxNoiseMultiplier) +
                       " reaches ε = " + format_number(target) +
                       " at this δ, group size and number of steps; raise the target ε or δ, "
                       "or train for fewer steps."};
    }
  }
  if (low.noise_multiplier == high.noise_multiplier) {
    while (low.epsilon() <= target) {
      high = low;
      if (low.noise_multiplier / 2 < kMinNoiseMultiplier) return high;
      DPCALC_TRY(low, probe(setting, low.noise_multiplier / 2, steps, delta, none, options));
      if (!tick()) return cancelled();
    }
  }
  // eps(low) > target >= eps(high). Secant steps in (log sigma, log eps), kept inside the middle
  // 80% of the bracket so that it shrinks geometrically even where the secant is poor.
  for (int i = 0; i < kMaxCalibrationSteps && high.epsilon() < kCalibrationBand * target &&
                  high.noise_multiplier > low.noise_multiplier * (1 + 1e-9);
       ++i) {
    const double x_low = std::log(low.noise_multiplier), x_high = std::log(high.noise_multiplier);
    double x = 0.5 * (x_low + x_high);
    if (std::isfinite(low.epsilon())) {
      const double aim = std::log(kCalibrationAim * target);
      const double y_low = std::log(low.epsilon()) - aim, y_high = std::log(high.epsilon()) - aim;
      x = x_low - y_low * (x_high - x_low) / (y_high - y_low);
    }
    const double width = x_high - x_low;
    x = std::clamp(x, x_low + 0.1 * width, x_high - 0.1 * width);
    DPCALC_TRY(Probe middle, probe(setting, std::exp(x), steps, delta, none, options));
    if (!tick()) return cancelled();
    (middle.epsilon() > target ? low : high) = std::move(middle);
  }
  return high;
}

}  // namespace

Result<pld::EpsilonBracket> tight_epsilon(const GroupSetting& setting, double noise_multiplier, double steps,
                                          double delta, const pld::ProgressCallback& progress,
                                          const pld::AccountingOptions& options) {
  DPCALC_TRY(const GroupSetting checked, check_setting(setting));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(const double count, check_count(steps, "steps"));
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  const pld::CompositionItem item{worst_case_pair(checked, sigma), count};
  return pld::epsilon_for_delta({item}, target, options, progress, "items");
}

Result<GroupGuarantee> group_guarantee(const GroupSetting& setting, double noise_multiplier, double steps, double delta,
                                       const pld::ProgressCallback& progress, const pld::AccountingOptions& options) {
  GroupGuarantee result;
  const bool single = setting.group_size == 1;
  pld::ProgressCallback main_part, single_part;
  if (progress) {
    main_part = [&](double f) { return progress(single ? f : 0.8 * f); };
    single_part = [&](double f) { return progress(0.8 + 0.2 * f); };
  }
  DPCALC_TRY(result.tight, tight_epsilon(setting, noise_multiplier, steps, delta, main_part, options));
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
                              const std::string& target_field, const pld::ProgressCallback& progress,
                              const pld::AccountingOptions& options) {
  if (!(target_epsilon > 0 && std::isfinite(target_epsilon))) {
    return invalid_argument(target_field,
                            target_field + " must be a positive finite number " + got(target_epsilon) + ".");
  }
  DPCALC_TRY(const GroupSetting checked, check_setting(setting));
  DPCALC_TRY(const double count, check_count(steps, "steps"));
  DPCALC_TRY(const double target_delta, check_positive_delta(delta, "delta"));
  // Progress: each forward evaluation is one tick; about 12 per search, two searches.
  int ticks = 0;
  const std::function<bool()> tick = [&]() {
    ++ticks;
    return !progress || progress(std::min(0.95, ticks / 30.0));
  };
  DPCALC_TRY(const Probe found, search(checked, count, target_delta, target_epsilon, target_field, options, tick));
  Calibration result;
  result.noise_multiplier = found.noise_multiplier;
  result.tight = found.bracket.value();
  GroupSetting one_example = checked;
  one_example.group_size = 1;
  const Result<Probe> single =
      checked.group_size == 1 ? Result<Probe>(found)
                              : search(one_example, count, target_delta, target_epsilon, target_field, options, tick);
  if (!single.ok()) return single.error();
  result.rule_of_thumb_noise_multiplier = checked.group_size * single.value().noise_multiplier;
  const Result<pld::EpsilonBracket> rule =
      tight_epsilon(checked, result.rule_of_thumb_noise_multiplier, count, target_delta, {}, options);
  // Too little noise for the engine to represent (a numeric error, as in `probe`; it named
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
