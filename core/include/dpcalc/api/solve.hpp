// Solving a request for the largest value of one of its quantities that still meets a target
// (ε, δ), shared by ops 'dpsgd', 'compose' and 'group' (docs/API.md, "Solving for an unknown"):
// the request names the quantity in `unknown`, leaves its field out and gives `target`; the answer
// comes from largest_meeting on the op's own sound forward bound, so the answer was
// itself evaluated and meets the target, and the value one step beyond was evaluated and does not.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/search/largest_meeting.hpp"

namespace dpcalc::api {

// The request's `unknown`, if present: one of `allowed`, else an invalid_argument error on it.
Result<std::optional<std::string>> read_unknown(const Value& request, const std::vector<std::string>& allowed);

// The error for a request that gives `field` while asking to solve for it.
Error given_unknown(const std::string& field, const std::string& unknown);

// The target ε of a solve whose every evaluation runs the privacy-loss engine, on `field`: positive,
// finite and at most pld::kMaxLoss (700). The engine certifies no ε beyond the losses it represents,
// so a larger target is met by every value the engine can account for: the search would only find
// the engine's own limit, probing ever larger compositions near it (minutes). `what` names the unknown
// in the message ("number of steps").
Result<double> check_engine_target(double epsilon, const std::string& field, const std::string& what);

// A copy of the object `value` without the members `keys`.
Value without_fields(const Value& value, const std::vector<std::string>& keys);

// The sound upper bound when the unknown takes `value`; `progress` is for the long computations
// inside one evaluation (it reports the search's progress and passes a cancellation on). A
// cancellation stops the search; any other error means this value cannot be certified (it counts as
// not meeting the target).
using BoundAt = std::function<Result<ApproxDp>(double value, const pld::ProgressCallback& progress)>;

struct SolveQuestion {
  std::string unknown;       // the request's unknown: "steps"
  std::string answer_field;  // where the answer goes in the result (the request field it fills): "steps"
  std::string what;          // how messages name the quantity: "number of steps", "sampling rate"
  ApproxDp target;           // met when ε <= target.epsilon and δ <= target.delta
  std::string target_field;  // the field of the target ε: "target.epsilon"
  LargestSearchOptions search;
};

// The answer, as {unknown, <answer_field>, guarantee, target, beyond: {<answer_field>, guarantee or
// error}, evaluations}; when every value up to the search's highest meets the target, the highest
// with all_meet: true and a note naming the limit. When not even the lowest value meets it: the
// bound's own error at the lowest value if it had one, otherwise a numeric error on target_field.
Result<Value> solve_largest(const BoundAt& bound, const SolveQuestion& question, const pld::ProgressCallback& progress);

// For ops whose forward answer is itself a request: the bound at a value is the (ε, δ) of the forward
// op's answer to `forward_request(value)` (its guarantee, pure or approx, or the (ε, δ) conversion
// in `approx` of a zCDP answer; a vacuous answer never meets a target). `restate` puts the forward
// op's errors in the solve request's terms. The result is solve_largest's with the method and
// citation of the answer's forward result.
using ForwardRequest = std::function<Value(double value)>;
using ForwardOp = std::function<Result<Value>(const Value& request, const pld::ProgressCallback& progress)>;
Result<Value> solve_by_forward(const ForwardRequest& forward_request, const ForwardOp& forward,
                               const std::function<Error(Error)>& restate, const SolveQuestion& question,
                               const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
