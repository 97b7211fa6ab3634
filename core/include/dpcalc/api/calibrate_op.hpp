// {op:'calibrate', mechanism, unknown, count?, method?, target:{epsilon, delta}}: the smallest noise
// whose sound upper bound meets the target (dpcalc/calibration/noise_calibration.hpp). See docs/API.md.
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// `progress` is passed to the PLD accountant when the method is 'pld' (several evaluations, each
// milliseconds to a second); closed-form methods never call it.
Result<Value> calibrate_op(const Value& request, const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
