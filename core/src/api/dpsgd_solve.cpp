// {op:'dpsgd', unknown, noise_multiplier, target:{epsilon}, ...}: the most steps or epochs, the
// largest sampling rate or batch size, or the largest group a DP-SGD training keeps within a target
// ε at its δ, by largest_meeting on the sampler's upper bound (Sampler::bounds, the forward answer's,
// so the answer composes back to the same ε). ε grows with each of these quantities: more steps
// compose more losses; a higher sampling rate or larger batch uses an example more often (or, for
// the samplers that walk the data, fits more epochs into the steps); a larger group's pair
// dominates a smaller one's (Schuchardt et al. 2024).
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

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

Question question_for(const DpsgdRequest& request) {
  const std::string& unknown = request.unknown;
  const dpsgd::Batches& batches = request.training.phases.front().batches;
  if (unknown == "steps") return {"number of steps", {1, kMaxCount, 1, true}};
  if (unknown == "epochs") {
    const double per_epoch = request.sampler->steps_per_epoch(batches);
    return {"number of epochs", {1, std::max(1.0, std::floor(kMaxCount / per_epoch)), 1, true}};
  }
  if (unknown == "sampling_rate") return {"sampling rate", {kLowestSamplingRate, 1, 0.01, false}};
  const double n = batches.dataset_size.value_or(dpsgd::kMaxGroupSize);
  if (unknown == "batch_size") return {"batch size", {1, n, 1, true}};
  return {"group size", {1, std::min(dpsgd::kMaxGroupSize, n), 1, true}};
}

// The training with the unknown at `value`, checked (and its steps counted) again.
Result<dpsgd::Training> with_unknown(const DpsgdRequest& request, double value, PhaseSteps& steps) {
  const std::string& unknown = request.unknown;
  std::vector<dpsgd::Phase> phases = request.given_phases;
  dpsgd::Phase& phase = phases.front();
  if (unknown == "sampling_rate") phase.batches.sampling_rate = value;
  if (unknown == "batch_size") phase.batches.batch_size = value;
  std::vector<PhaseSteps> counted{request.phase_steps.front()};
  if (unknown == "steps") counted.front() = PhaseSteps{value, std::nullopt, ""};
  if (unknown == "epochs") counted.front() = PhaseSteps{std::nullopt, value, ""};
  DpsgdRequest at = request;
  if (unknown == "group_size") at.training.group_size = value;
  DPCALC_TRY(dpsgd::Training training, training_of(at, phases, counted));
  steps = counted.front();
  return training;
}

}  // namespace

Result<SolvedAnswer> dpsgd_solve(const DpsgdRequest& request, dpsgd::Training& training, PhaseSteps& steps,
                                 const Progress& progress) {
  const std::string& unknown = request.unknown;
  const Question question = question_for(request);
  const std::string target_path = field_path(request.at, "target.epsilon");
  DPCALC_TRY(double epsilon, check_engine_target(*request.target_epsilon, target_path, question.what));
  const BoundAt bound = [&](double value, const Progress& inner) -> Result<Bound> {
    PhaseSteps at_steps;
    DPCALC_TRY(const dpsgd::Training at, with_unknown(request, value, at_steps));
    Result<dpsgd::SamplerBounds> bounds = request.sampler->bounds(at, request.delta, request.discretization.options,
                                                                  inner, dpsgd::BoundsWanted::kUpperOnly);
    if (!bounds.ok()) return in_request(std::move(bounds).error(), request);
    // No upper bound: nothing is certified at this value.
    const double upper = bounds.value().epsilon_upper.value_or(kInfinity);
    return Bound{ApproxDp{upper, std::isfinite(upper) ? request.delta : 1.0}, bounds.value().upper_method};
  };
  SolveQuestion solve{unknown, unknown, question.what, ApproxDp{epsilon, request.delta}, target_path, question.search};
  DPCALC_TRY(SolvedAnswer solved, solve_largest(bound, solve, progress));
  DPCALC_TRY(training, with_unknown(request, solved.value, steps));
  return solved;
}

}  // namespace dpcalc::api
