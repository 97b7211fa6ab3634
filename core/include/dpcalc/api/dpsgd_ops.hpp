// Ops of the DP-SGD groups issue (see docs/API.md):
//   {op:'dpsgd', group_size, noise_multiplier | target:{epsilon}, delta, steps | epochs, sampling, ...}
//   {op:'dpsgd_pair', group_size, noise_multiplier, sampling, ..., points?}: the one-step pair's densities
//   {op:'rdp', items:[{mechanism, count}], orders?}
//   {op:'compose', method:'rdp', delta, items:[{mechanism, count}], orders?}
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> dpsgd_op(const Value& request, const pld::ProgressCallback& progress);
Result<Value> dpsgd_pair_op(const Value& request);
Result<Value> rdp_op(const Value& request);
Result<Value> compose_rdp(const Value& request);

}  // namespace dpcalc::api
