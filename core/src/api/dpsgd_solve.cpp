// {op:'dpsgd', unknown, noise_multiplier, target:{epsilon}, ...}: the most steps or epochs, the
// largest sampling rate or batch size, or the largest group a DP-SGD setting keeps within a target
// ε at its δ, by largest_meeting on the tight upper bound of the forward answer (the same
// dpsgd::tight_epsilon, so the answer composes back to the same ε). ε grows with each of these
// quantities: more steps compose more losses; a higher sampling rate or larger batch samples the
// group more often; a larger group's pair dominates a smaller one's (Schuchardt et al. 2024).
#include <algorithm>
#include <cmath>
#include <string>

#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The smallest sampling rate the search tries: below it, a target is out of reach of DP-SGD anyway.
constexpr double kLowestSamplingRate = 1e-12;

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
Result<Steps> apply(const std::string& unknown, double value, dpsgd::GroupSetting& setting, const Steps& given,
                    const std::string& at) {
  if (unknown == "sampling_rate") setting.sampling_rate = value;
  if (unknown == "batch_size") setting.batch_size = value;
  if (unknown == "group_size") setting.group_size = value;
  if (unknown == "steps") return Steps{value, ""};
  if (unknown == "epochs") return steps_for_epochs(setting, value, at);
  return given;
}

}  // namespace

Result<SolvedAnswer> dpsgd_solve(const DpsgdRequest& request, Steps& steps, const Progress& progress) {
  const std::string& unknown = request.unknown;
  const Question question = question_for(unknown, request.setting);
  const std::string target_path = field_path(request.at, "target.epsilon");
  DPCALC_TRY(double epsilon, check_engine_target(*request.target_epsilon, target_path, question.what));
  const BoundAt bound = [&](double value, const Progress& inner) -> Result<Bound> {
    dpsgd::GroupSetting at = request.setting;
    DPCALC_TRY(Steps at_steps, apply(unknown, value, at, request.steps, request.at));
    Result<pld::EpsilonBracket> tight = dpsgd::tight_epsilon(at, *request.noise_multiplier, at_steps.steps,
                                                             request.delta, inner, request.discretization.options);
    if (!tight.ok()) return in_request(std::move(tight).error(), request);
    return Bound{ApproxDp{tight.value().epsilon_upper, request.delta}, MethodInfo{"", "", ""}};
  };
  SolveQuestion solve{unknown, unknown, question.what, ApproxDp{epsilon, request.delta}, target_path, question.search};
  DPCALC_TRY(SolvedAnswer solved, solve_largest(bound, solve, progress));
  dpsgd::GroupSetting answered = request.setting;
  DPCALC_TRY(steps, apply(unknown, solved.value, answered, request.steps, request.at));
  return solved;
}

}  // namespace dpcalc::api
