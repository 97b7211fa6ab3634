// Op 'dpsgd' (docs/API.md): DP-SGD for a group of k examples (dpcalc/dpsgd/group_accountant.hpp),
//   forward      {group_size, noise_multiplier, delta, steps | epochs, sampling, …}: ε by each method;
//   calibration  {…, target:{epsilon}}: the noise multiplier that meets ε;
//   solve        {…, unknown, noise_multiplier, target:{epsilon}}: the largest steps, epochs, sampling
//                rate, batch size or group size that meets ε (dpsgd_solve.cpp);
// and op 'dpsgd_pair' {group_size, noise_multiplier, sampling, …, points?}: the densities of the
// one-step worst-case pair.
#pragma once

#include <optional>
#include <string>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/numeric_answer.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/api/solve.hpp"
#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/pair_density.hpp"

namespace dpcalc::api {

struct Steps {
  double steps = 1;
  std::string note;  // how epochs became steps; empty when steps were given
};

struct DpsgdRequest {
  std::string at;
  dpsgd::GroupSetting setting;
  Steps steps;
  bool epochs_given = false;
  double delta = 0;
  std::optional<double> noise_multiplier;
  std::optional<double> target_epsilon;
  Discretization discretization;
  std::string unknown;  // solve: the field solved for ("" otherwise)
};

struct DpsgdAnswer : AnswerBase {
  enum class Kind { kForward, kCalibration, kSolved };
  Kind kind = Kind::kForward;
  DpsgdRequest request;
  dpsgd::GroupGuarantee forward;   // kForward (tight_plds moved into `numeric`)
  dpsgd::Calibration calibration;  // kCalibration
  SolvedAnswer solved;             // kSolved
  Steps solved_steps;              // kSolved: the steps of the answer
  NumericAnswer numeric;           // the tight answer and its PLDs (kForward)
  std::string accuracy;            // the tight bracket's accuracy note
};

Result<DpsgdRequest> read_dpsgd(const Value& request, const std::string& at);
Result<DpsgdAnswer> answer_dpsgd(const DpsgdRequest& request, const Progress& progress);
Value write_dpsgd(const DpsgdAnswer& answer);
Result<Explained> explain_dpsgd(const DpsgdAnswer& answer, const tradeoff::TradeoffOptions& options,
                                const Progress& progress);
Result<bool> dpsgd_explainable(const DpsgdRequest& request);

// epochs · dataset_size / batch_size (Poisson: epochs / sampling_rate) rounded up; an error on
// the epochs beyond 2^53 steps.
Result<Steps> steps_for_epochs(const dpsgd::GroupSetting& setting, double epochs, const std::string& at);
// The errors of the dpsgd domain, in its own words, on the request's paths.
Error in_request(Error error, const DpsgdRequest& request);
Result<SolvedAnswer> dpsgd_solve(const DpsgdRequest& request, Steps& steps, const Progress& progress);

struct DpsgdPairRequest {
  dpsgd::GroupSetting setting;
  double noise_multiplier = 1;
  double points = dpsgd::kDefaultDensityPoints;
  std::string at;
};

struct DpsgdPairAnswer : AnswerBase {
  dpsgd::GroupSetting setting;
  double noise_multiplier = 1;
  dpsgd::PairDensities densities;
};

Result<DpsgdPairRequest> read_dpsgd_pair(const Value& request, const std::string& at);
Result<DpsgdPairAnswer> answer_dpsgd_pair(const DpsgdPairRequest& request, const Progress& progress);
Value write_dpsgd_pair(const DpsgdPairAnswer& answer);

}  // namespace dpcalc::api
