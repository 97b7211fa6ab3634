// Ops of the DP-SGD groups issue (see docs/API.md):
//   {op:'dpsgd', group_size, noise_multiplier | target:{epsilon}, delta, steps | epochs, sampling, ...}
//   {op:'dpsgd_pair', group_size, noise_multiplier, sampling, ..., points?}: the one-step pair's densities
//   {op:'dpsgd', unknown, noise_multiplier, target:{epsilon}, ...the other fields}
//   {op:'rdp', items:[{mechanism, count}], orders?}
//   {op:'compose', method:'rdp', delta, items:[{mechanism, count}], orders?}
#pragma once

#include <memory>

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> dpsgd_op(const Value& request, const pld::ProgressCallback& progress);
Result<Value> dpsgd_pair_op(const Value& request);
// For the trade-off of a forward dpsgd request (tradeoff_op.hpp): the tight method's answer and the
// PLDs it is read from (dpsgd::tight_plds; the ones dpsgd_op kept when it answered this very
// request, kept_answer.hpp), after the request is checked as dpsgd_op checks it (a target is an
// error: the trade-off needs a given noise multiplier).
Result<std::shared_ptr<const pld::AnsweredEpsilon>> answered_dpsgd_request(const Value& request,
                                                                           const pld::ProgressCallback& progress);
// The same request with unknown: 'steps' | 'epochs' | 'sampling_rate' | 'batch_size' | 'group_size',
// noise_multiplier and target:{epsilon}: the largest value meeting the target (dpsgd_solve.cpp).
Result<Value> dpsgd_solve(const Value& request, const pld::ProgressCallback& progress);
Result<Value> rdp_op(const Value& request);
Result<Value> compose_rdp(const Value& request);

}  // namespace dpcalc::api
