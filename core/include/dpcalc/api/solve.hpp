// Solving a request for the largest value of one of its quantities that still meets a target
// (ε, δ), shared by ops 'dpsgd', 'compose' and 'group' (docs/API.md, "Solving for an unknown"):
// the request names the quantity in `unknown`, leaves its field out and gives `target`; the answer
// comes from largest_meeting on the op's own sound forward bound (its typed answer at each value),
// so the answer was itself evaluated and meets the target, and the value one step beyond was
// evaluated and does not.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/search/largest_meeting.hpp"

namespace dpcalc::api {

// The error for a request that gives `field` (its path) while asking to solve for it.
Error given_unknown(const std::string& field, const std::string& unknown);

// The target ε of a solve whose every evaluation runs the privacy-loss engine, on `field`: positive,
// finite and at most pld::kMaxLoss (700). The engine certifies no ε beyond the losses it represents,
// so a larger target is met by every value the engine can account for: the search would only find
// the engine's own limit, probing ever larger compositions near it (minutes). `what` names the unknown
// in the message ("number of steps").
Result<double> check_engine_target(double epsilon, const std::string& field, const std::string& what);

// The sound upper bound when the unknown takes `value`, with the method that gave it; `progress`
// is for the long computations inside one evaluation (it reports the search's progress and passes
// a cancellation on). A cancellation stops the search; any other error means this value cannot be
// certified (it counts as not meeting the target).
struct Bound {
  ApproxDp guarantee;  // a vacuous one (δ = 1) meets no target
  MethodInfo method{"", "", ""};
};
using BoundAt = std::function<Result<Bound>(double value, const pld::ProgressCallback& progress)>;

struct SolveQuestion {
  std::string unknown;       // the request's unknown: "steps"
  std::string answer_field;  // where the answer goes in the result (the request field it fills): "steps"
  std::string what;          // how messages name the quantity: "number of steps", "sampling rate"
  ApproxDp target;           // met when ε <= target.epsilon and δ <= target.delta
  std::string target_field;  // the path of the target ε: "target.epsilon"
  LargestSearchOptions search;
};

// The answer of a solve.
struct SolvedAnswer {
  std::string unknown, answer_field;
  double value = 0;
  ApproxDp guarantee, target;
  bool all_meet = false;  // every value up to the search's highest meets the target (`value` is it)
  std::string note;
  double beyond = 0;                     // the value one step beyond, which does not meet the target
  std::optional<ApproxDp> beyond_bound;  // its bound, or
  std::optional<Error> beyond_error;     // why it could not be certified
  int evaluations = 0;
  MethodInfo method{"", "", ""};  // of the bound at `value`
};

// When not even the lowest value meets the target: the bound's own error at the lowest value if it
// had one, otherwise a numeric error on target_field.
Result<SolvedAnswer> solve_largest(const BoundAt& bound, const SolveQuestion& question,
                                   const pld::ProgressCallback& progress);

// {unknown, <answer_field>, guarantee, target, beyond: {<answer_field>, guarantee or error} | all_meet
// and note, evaluations, method?, citation?, citation_key?}; the bounds pure when the target is.
void write_solved(Value& result, const SolvedAnswer& solved);

}  // namespace dpcalc::api
