// Op 'dpsgd' (docs/API.md): DP-SGD trained with any batch sampler (dpcalc/dpsgd/samplers.hpp),
//   forward      {sampling, …, noise_multiplier, delta, steps | epochs | phases}: ε bounded from both
//                sides, its status, and for Poisson and fixed batches the methods Sommer compares;
//   calibration  {…, target:{epsilon}}: the noise multiplier that meets ε;
//   solve        {…, unknown, noise_multiplier, target:{epsilon}}: the largest steps, epochs, sampling
//                rate, batch size or group size that meets ε (dpsgd_solve.cpp);
// op 'dpsgd_samplers' {dataset_size, batch_size, noise_multiplier, steps | epochs, delta, …}: every
// sampler side by side (dpsgd_samplers_op.cpp);
// and op 'dpsgd_pair' {group_size, noise_multiplier, sampling, …, points?}: the densities of the
// one-step worst-case pair.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/numeric_answer.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/api/repetitions_io.hpp"
#include "dpcalc/api/solve.hpp"
#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/pair_density.hpp"
#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/dpsgd/training_calibration.hpp"
#include "dpcalc/dpsgd/tuning.hpp"

namespace dpcalc::api {

// How a phase gave its steps: the number, or epochs (then `note` says how they became steps).
struct PhaseSteps {
  std::optional<double> steps, epochs;
  std::string note;
};

struct DpsgdRequest {
  std::string at;
  const dpsgd::Sampler* sampler = nullptr;
  // As the request gives them (the batches unchecked: a solve sets its unknown and checks again).
  std::vector<dpsgd::Phase> given_phases;
  std::vector<PhaseSteps> phase_steps;
  dpsgd::Training training;  // checked; a calibration's noise and a solve's unknown at a stand-in
  bool phases_given = false;
  double delta = 0;
  std::optional<double> noise_multiplier;
  std::optional<double> target_epsilon;
  Discretization discretization;
  std::string unknown;                       // solve: the field solved for ("" otherwise)
  std::optional<RepetitionsAt> repetitions;  // tuning: the training is one run
};

struct DpsgdAnswer : AnswerBase {
  enum class Kind { kForward, kCalibration, kSolved, kTuned };
  Kind kind = Kind::kForward;
  DpsgdRequest request;
  dpsgd::SamplerBounds bounds;                     // kForward
  std::optional<dpsgd::ComparedMethods> compared;  // kForward, Poisson and fixed batches in one phase
  dpsgd::Calibration calibration;                  // kCalibration
  SolvedAnswer solved;                             // kSolved
  dpsgd::Training solved_training;                 // kSolved: the training of the answer
  PhaseSteps solved_steps;                         // kSolved: its steps
  NumericAnswer numeric;                           // the upper bound's PLDs, where the sampler has them
  dpsgd::TunedTraining tuned;                      // kTuned: the tuned training's ε
  double runs = 1;                                 // kTuned: the fixed runs beside it
  dpsgd::SamplerBounds fixed_runs;                 // kTuned: their bounds
};

Result<DpsgdRequest> read_dpsgd(const Value& request, const std::string& at);
Result<DpsgdAnswer> answer_dpsgd(const DpsgdRequest& request, const Progress& progress);
Value write_dpsgd(const DpsgdAnswer& answer);
Result<Explained> explain_dpsgd(const DpsgdAnswer& answer, const tradeoff::TradeoffOptions& options,
                                const Progress& progress);
Result<bool> dpsgd_explainable(const DpsgdRequest& request);

// The training with the given phases' batches checked and their steps counted (epochs turned into
// steps, each PhaseSteps' note saying how), checked by dpsgd::check_training. Errors on the
// request's paths.
Result<dpsgd::Training> training_of(const DpsgdRequest& request, const std::vector<dpsgd::Phase>& phases,
                                    std::vector<PhaseSteps>& steps);
// The errors of the dpsgd domain, in its own words, on the request's paths.
Error in_request(Error error, const DpsgdRequest& request);
Result<SolvedAnswer> dpsgd_solve(const DpsgdRequest& request, dpsgd::Training& training, PhaseSteps& steps,
                                 const Progress& progress);
// The fields of one sampler's answer: guarantee, epsilon_lower, status, note, method, citation,
// citation_key, lower_bound, analysis_bracket (writes null for a missing bound).
void write_sampler_bounds(Value& result, const dpsgd::SamplerBounds& bounds, double delta,
                          const pld::AccountingOptions& options);

struct DpsgdSamplersRequest {
  std::string at;
  double dataset_size = 0, batch_size = 0, noise_multiplier = 0, delta = 0, group_size = 1;
  std::optional<double> steps, epochs, bands;
  double max_batch_size = 0;
  dpsgd::Relation relation = dpsgd::Relation::kZeroOut;
  Discretization discretization;
};

struct DpsgdSamplersRow {
  const dpsgd::Sampler* sampler = nullptr;
  dpsgd::Training training;  // its phase's batches, noise and steps
  double steps_per_epoch = 0;
  std::optional<dpsgd::SamplerBounds> bounds;
  std::string refusal;  // why there are no bounds (the sampler's words), when there are none
};

struct DpsgdSamplersAnswer : AnswerBase {
  DpsgdSamplersRequest request;
  std::vector<DpsgdSamplersRow> rows;
};

Result<DpsgdSamplersRequest> read_dpsgd_samplers(const Value& request, const std::string& at);
Result<DpsgdSamplersAnswer> answer_dpsgd_samplers(const DpsgdSamplersRequest& request, const Progress& progress);
Value write_dpsgd_samplers(const DpsgdSamplersAnswer& answer);

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
