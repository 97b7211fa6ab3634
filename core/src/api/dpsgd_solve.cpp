// {op:'dpsgd', unknown, noise_multiplier, target:{epsilon}, ...}: the most steps or epochs, the
// largest sampling rate or batch size, or the largest group a DP-SGD setting keeps within a target
// ε at its δ, by largest_meeting on the tight upper bound of the forward answer (the same
// dpsgd::tight_epsilon, so the answer composes back to the same ε). ε grows with each of these
// quantities: more steps compose more losses; a higher sampling rate or larger batch samples the
// group more often; a larger group's pair dominates a smaller one's (Schuchardt et al. 2024).
#include <algorithm>
#include <cmath>
#include <string>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/dpsgd_request.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/solve.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/group_accountant.hpp"

namespace dpcalc::api {
namespace {

// The smallest sampling rate the search tries: below it, a target is out of reach of DP-SGD anyway.
constexpr double kLowestSamplingRate = 1e-12;

// The request with the unknown's field set to a valid stand-in, so the readers can check the rest.
Value with_stand_in(const Value& request, const std::string& unknown) {
  Value filled = without_fields(request, {"unknown", "target"});
  filled.set(unknown == "epochs" ? "steps" : unknown, 1.0);
  return filled;
}

// Steps and epochs are one question (the length of training): neither may be given.
Result<bool> check_fields_for(const Value& request, const std::string& unknown) {
  if (has_field(request, unknown.c_str())) return given_unknown(unknown, unknown);
  if (unknown == "steps" && has_field(request, "epochs")) return given_unknown("epochs", unknown);
  if (unknown == "epochs" && has_field(request, "steps")) return given_unknown("steps", unknown);
  DPCALC_TRY(std::string sampling, string_field(request, "", "sampling"));
  if (unknown == "sampling_rate" && sampling != "poisson") {
    return invalid_argument("unknown",
                            "unknown 'sampling_rate' needs sampling 'poisson'; with fixed batches solve for "
                            "'batch_size'.");
  }
  if (unknown == "batch_size" && sampling != "fixed_batch") {
    return invalid_argument("unknown",
                            "unknown 'batch_size' needs sampling 'fixed_batch'; with Poisson sampling solve for "
                            "'sampling_rate'.");
  }
  if (has_field(request, "epochs") && (unknown == "sampling_rate" || unknown == "batch_size")) {
    return invalid_argument("epochs", "Give steps: the steps of an epoch change with the " +
                                          std::string(unknown == "batch_size" ? "batch size" : "sampling rate") +
                                          " being solved for.");
  }
  return true;
}

struct Question {
  std::string what;
  LargestSearchOptions search;
};

Question question_for(const std::string& unknown, const dpsgd::GroupSetting& setting) {
  const bool fixed = setting.sampling == dpsgd::Sampling::kFixedBatch;
  if (unknown == "steps") return {"number of steps", {1, kMaxCount, 1, true}};
  if (unknown == "epochs") {
    const double steps_per_epoch = fixed ? setting.dataset_size / setting.batch_size : 1 / setting.sampling_rate;
    return {"number of epochs", {1, std::max(1.0, std::floor(kMaxCount / steps_per_epoch)), 1, true}};
  }
  if (unknown == "sampling_rate") return {"sampling rate", {kLowestSamplingRate, 1, 0.01, false}};
  if (unknown == "batch_size") return {"batch size", {1, setting.dataset_size, 1, true}};
  return {"group size",
          {1, fixed ? std::min(dpsgd::kMaxGroupSize, setting.dataset_size) : dpsgd::kMaxGroupSize, 1, true}};
}

// The setting and steps with the unknown at `value`.
Result<Steps> apply(const std::string& unknown, double value, dpsgd::GroupSetting& setting, const Steps& given) {
  if (unknown == "sampling_rate") setting.sampling_rate = value;
  if (unknown == "batch_size") setting.batch_size = value;
  if (unknown == "group_size") setting.group_size = value;
  if (unknown == "steps") return Steps{value, ""};
  if (unknown == "epochs") return steps_for_epochs(setting, value);
  return given;
}

}  // namespace

Result<Value> dpsgd_solve(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(auto unknown_name,
             read_unknown(request, {"steps", "epochs", "sampling_rate", "batch_size", "group_size"}));
  const std::string unknown = *unknown_name;
  DPCALC_TRY(bool fields_ok, check_fields_for(request, unknown));
  (void)fields_ok;
  const Value filled = with_stand_in(request, unknown);
  DPCALC_TRY(const dpsgd::GroupSetting setting, read_setting(filled));
  DPCALC_TRY(const Steps given_steps, read_steps(filled, setting));
  DPCALC_TRY(double noise_multiplier, number_field(request, "", "noise_multiplier"));
  DPCALC_TRY(double checked_noise, check_positive(noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double checked_delta, check_positive_delta(delta, "delta"));
  DPCALC_TRY(const Value* target, member(request, "", "target"));
  DPCALC_TRY(const Value* target_object, require_object(*target, "target"));
  DPCALC_TRY(double given_epsilon, number_field(*target_object, "target", "epsilon"));
  const Question question = question_for(unknown, setting);
  DPCALC_TRY(double epsilon, check_engine_target(given_epsilon, "target.epsilon", question.what));
  DPCALC_TRY(pld::AccountingOptions options, read_discretization(request));

  const BoundAt bound = [&](double value, const pld::ProgressCallback& inner) -> Result<ApproxDp> {
    dpsgd::GroupSetting at = setting;
    DPCALC_TRY(Steps steps, apply(unknown, value, at, given_steps));
    Result<pld::EpsilonBracket> tight =
        dpsgd::tight_epsilon(at, checked_noise, steps.steps, checked_delta, inner, options);
    if (!tight.ok()) return in_request_terms(tight.error(), request);
    return ApproxDp{tight.value().epsilon_upper, checked_delta};
  };
  SolveQuestion solve{unknown,          unknown,        question.what, ApproxDp{epsilon, checked_delta},
                      "target.epsilon", question.search};
  DPCALC_TRY(Value result, solve_largest(bound, solve, progress));
  dpsgd::GroupSetting answered = setting;
  DPCALC_TRY(Steps steps, apply(unknown, result.find(unknown)->as_number(), answered, given_steps));
  result.set("noise_multiplier", checked_noise);
  if (unknown != "steps") result.set("steps", steps.steps);
  if (!steps.note.empty()) result.set("steps_note", steps.note);
  set_method(result, dpsgd::kTightMethod);
  return result;
}

}  // namespace dpcalc::api
