// Requests about Algorithm 1 of Pujol & Desfontaines 2023 (dpcalc/groupwise/), see docs/API.md:
//   {op:'groupwise_simulate', rho | sigma, relative_error, count, samples, seed?, bins?, range?}
//   {op:'groupwise_privacy', rho | sigma, relative_error, counts:[...], delta?, orders?}
//   {op:'groupwise_plan', relative_error, count, delta?, orders?}
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> groupwise_simulate_op(const Value& request, const pld::ProgressCallback& progress);
Result<Value> groupwise_privacy_op(const Value& request, const pld::ProgressCallback& progress);
Result<Value> groupwise_plan_op(const Value& request, const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
