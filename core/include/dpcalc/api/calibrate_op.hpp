// {op:'calibrate', mechanism, unknown, count?, method?, target:{epsilon, delta}, relation?,
// discretization?}: the smallest noise whose sound upper bound meets the target
// (dpcalc/calibration/noise_calibration.hpp). See docs/API.md.
#pragma once

#include <string>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/calibration/noise_calibration.hpp"

namespace dpcalc::api {

struct CalibrateRequest {
  std::string at;
  calibration::CalibrationProblem problem;
  Discretization discretization;
};

struct CalibrateAnswer : AnswerBase {
  calibration::Calibration calibration;
  std::string unknown;  // the parameter solved for, as the request names it
  double sensitivity = 1;
};

Result<CalibrateRequest> read_calibrate(const Value& request, const std::string& at);
// `progress` is passed to the PLD accountant when the method is 'pld' (several evaluations, each
// milliseconds to a second); closed-form methods never call it.
Result<CalibrateAnswer> answer_calibrate(const CalibrateRequest& request, const Progress& progress);
Value write_calibrate(const CalibrateAnswer& answer);

}  // namespace dpcalc::api
