// Reading op 'dpsgd' requests (docs/API.md): the training setting, the number of steps, and the PLD
// engine's errors restated on the request's fields. Shared by the forward and calibration answers
// (dpsgd_op.cpp) and the solve for an unknown (dpsgd_solve.cpp).
#pragma once

#include <string>

#include "dpcalc/api/value.hpp"
#include "dpcalc/dpsgd/group_pair.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// sampling, group_size, sampling_rate (Poisson) or dataset_size and batch_size (fixed batch), relation.
Result<dpsgd::GroupSetting> read_setting(const Value& request);

struct Steps {
  double steps;
  std::string note;  // how epochs became steps; empty when steps were given
};

// epochs · dataset_size / batch_size (Poisson: epochs / sampling_rate) rounded up; an error on
// "epochs" beyond 2^53 steps.
Result<Steps> steps_for_epochs(const dpsgd::GroupSetting& setting, double epochs);

// steps, or epochs converted by steps_for_epochs.
Result<Steps> read_steps(const Value& request, const dpsgd::GroupSetting& setting);

// The engine names its own fields: its options go where the request has them, and everything else
// it can refuse (a grid too large, a loss beyond ±700 for its one item) is about the noise this
// request gives.
Error in_request_terms(Error error, const Value& request);

}  // namespace dpcalc::api
