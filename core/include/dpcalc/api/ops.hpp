// One function per closed-form op; each reads its request (reporting the dotted field of any
// invalid input), calls the typed core and builds the result object. See docs/API.md.
#pragma once

#include "dpcalc/api/solve.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// op 'group' runs the PLD engine for a group known by its pair only (group_engine.hpp).
Result<Value> group_op(const Value& request, const pld::ProgressCallback& progress = {});
Result<Value> compose_op(const Value& request);
Result<Value> convert_op(const Value& request);
Result<Value> split_op(const Value& request);

// Solving for an unknown (solve.hpp): op 'compose' with unknown 'count' (`forward` answers its
// requests without one) and op 'group' with unknown 'k' (group_op answers those requests).
Result<Value> compose_solve(const Value& request, const pld::ProgressCallback& progress, const ForwardOp& forward);
Result<Value> group_solve(const Value& request, const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
