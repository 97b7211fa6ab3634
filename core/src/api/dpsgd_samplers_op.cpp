// Op 'dpsgd_samplers': one training (N, B, σ, epochs or steps, δ, k) under every batch sampler, side
// by side, each row bounded from both sides with its status. Poisson at rate B/N; truncated Poisson
// capped at max_batch_size (1.5·B rounded down by default); shuffling once re-shuffled and once in
// the same order every epoch; cyclic Poisson only when bands is given (at rate b·B/N, an expected
// batch of B). A row whose sampler does not cover the relation or the group, or whose bound hits a
// limit, has no numbers and says why.
#include <cmath>
#include <string>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The share of the table's time each sampler's bounds take (measured on the worked example of
// N = 60000, B = 256, σ = 1, ten epochs: shuffling's re-shuffled composition and balls-and-bins
// dominate), for the progress bar.
double progress_weight(const dpsgd::Sampler& sampler) {
  const std::string name = sampler.name();
  if (name == "shuffle" || name == "balls_and_bins") return 3;
  return 1;
}

// The rows asked for: each sampler once, shuffling in both orders, cyclic Poisson with bands only.
std::vector<DpsgdSamplersRow> rows_of(const DpsgdSamplersRequest& request) {
  std::vector<DpsgdSamplersRow> rows;
  for (const dpsgd::Sampler* sampler : dpsgd::samplers()) {
    const std::string name = sampler->name();
    if (name == "cyclic_poisson" && !request.bands) continue;
    dpsgd::Batches batches;
    batches.dataset_size = request.dataset_size;
    batches.batch_size = request.batch_size;
    if (name == "truncated_poisson") batches.max_batch_size = request.max_batch_size;
    if (name == "cyclic_poisson") batches.bands = request.bands;
    for (const bool reshuffle : {true, false}) {
      if (!reshuffle && name != "shuffle") continue;
      batches.reshuffle = reshuffle;
      DpsgdSamplersRow row;
      row.sampler = sampler;
      row.training.relation = request.relation;
      row.training.group_size = request.group_size;
      row.training.phases = {dpsgd::Phase{batches, request.noise_multiplier, 0}};
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// The row's training checked and its steps counted, or why the sampler does not answer.
Result<dpsgd::Training> row_training(const DpsgdSamplersRequest& request, DpsgdSamplersRow& row) {
  dpsgd::Training training = row.training;
  dpsgd::Phase& phase = training.phases.front();
  DPCALC_TRY(phase.batches, row.sampler->check(phase.batches));
  row.steps_per_epoch = row.sampler->steps_per_epoch(phase.batches);
  if (request.steps) {
    phase.steps = *request.steps;
  } else {
    DPCALC_TRY(phase.steps, row.sampler->steps_for_epochs(phase.batches, *request.epochs));
  }
  return dpsgd::check_training(*row.sampler, training);
}

}  // namespace

Result<DpsgdSamplersRequest> read_dpsgd_samplers(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().dpsgd_samplers;
  DpsgdSamplersRequest read;
  read.at = at;
  DPCALC_TRY(read.dataset_size, read_number(request, at, declared(shape, "dataset_size")));
  DPCALC_TRY(read.dataset_size, check_whole_number(read.dataset_size, 1, kMaxCount, field_path(at, "dataset_size")));
  DPCALC_TRY(read.batch_size, read_number(request, at, declared(shape, "batch_size")));
  DPCALC_TRY(read.batch_size, check_whole_number(read.batch_size, 1, read.dataset_size, field_path(at, "batch_size")));
  DPCALC_TRY(read.noise_multiplier, read_number(request, at, declared(shape, "noise_multiplier")));
  DPCALC_TRY(read.noise_multiplier, check_positive(read.noise_multiplier, field_path(at, "noise_multiplier")));
  DPCALC_TRY(double delta, read_number(request, at, declared(shape, "delta")));
  DPCALC_TRY(read.delta, check_positive_delta(delta, field_path(at, "delta")));
  DPCALC_TRY(read.steps, read_optional_number(request, at, declared(shape, "steps")));
  DPCALC_TRY(read.epochs, read_optional_number(request, at, declared(shape, "epochs")));
  if (read.steps && read.epochs)
    return invalid_argument(field_path(at, "epochs"), "Give either steps or epochs, not both.");
  if (read.steps) {
    DPCALC_TRY(read.steps, check_count(*read.steps, field_path(at, "steps")));
  } else if (!read.epochs) {
    return invalid_argument(field_path(at, "epochs"), "epochs (or steps) is required: how long the training runs.");
  } else if (!(*read.epochs > 0 && std::isfinite(*read.epochs))) {
    return invalid_argument(field_path(at, "epochs"), "epochs must be a positive number " + got(*read.epochs) + ".");
  }
  DPCALC_TRY(read.group_size, read_number(request, at, declared(shape, "group_size")));
  DPCALC_TRY(read.group_size,
             check_whole_number(read.group_size, 1, dpsgd::kMaxGroupSize, field_path(at, "group_size")));
  DPCALC_TRY(const auto cap, read_optional_number(request, at, declared(shape, "max_batch_size")));
  read.max_batch_size = cap.value_or(std::floor(1.5 * read.batch_size));
  DPCALC_TRY(read.max_batch_size, check_count(read.max_batch_size, field_path(at, "max_batch_size")));
  DPCALC_TRY(read.bands, read_optional_number(request, at, declared(shape, "bands")));
  if (read.bands) {
    DPCALC_TRY(read.bands, check_count(*read.bands, field_path(at, "bands")));
  }
  DPCALC_TRY(const std::string relation, read_choice(request, at, declared(shape, "relation")));
  read.relation = relation_named(relation);
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  return read;
}

Result<DpsgdSamplersAnswer> answer_dpsgd_samplers(const DpsgdSamplersRequest& request, const Progress& progress) {
  DpsgdSamplersAnswer answer;
  answer.request = request;
  answer.rows = rows_of(request);
  double total = 0, done = 0;
  for (const DpsgdSamplersRow& row : answer.rows) total += progress_weight(*row.sampler);
  for (DpsgdSamplersRow& row : answer.rows) {
    const double weight = progress_weight(*row.sampler);
    const pld::ProgressCallback part = [&](double f) {
      return !progress || progress((done + weight * std::clamp(f, 0.0, 1.0)) / total);
    };
    Result<dpsgd::Training> training = row_training(request, row);
    if (training.ok()) {
      row.training = training.value();
      Result<dpsgd::SamplerBounds> bounds = row.sampler->bounds(
          row.training, request.delta, request.discretization.options, part, dpsgd::BoundsWanted::kBoth);
      if (bounds.ok()) {
        row.bounds = std::move(bounds).value();
      } else if (bounds.error().code == pld::kCancelled) {
        return bounds.error();
      } else {
        row.refusal = bounds.error().message;
      }
    } else {
      row.refusal = training.error().message;
    }
    done += weight;
    if (progress && !progress(done / total)) return Error{pld::kCancelled, "", "The computation was cancelled."};
  }
  return answer;
}

Value write_dpsgd_samplers(const DpsgdSamplersAnswer& answer) {
  Value rows = Value::array();
  for (const DpsgdSamplersRow& row : answer.rows) {
    Value entry = Value::object();
    entry.set("sampling", row.sampler->name()).set("title", row.sampler->title());
    if (std::string(row.sampler->name()) == "shuffle")
      entry.set("reshuffle", row.training.phases.front().batches.reshuffle);
    entry.set("relation", mechanisms::relation_name(answer.request.relation));
    if (row.bounds) {
      write_sampler_bounds(entry, *row.bounds, answer.request.delta, answer.request.discretization.options);
      entry.set("steps", row.training.phases.front().steps);
      entry.set("steps_per_epoch", row.steps_per_epoch);
    } else {
      entry.set("guarantee", Value()).set("epsilon_lower", Value());
      entry.set("status", "unavailable").set("note", row.refusal);
    }
    rows.push(std::move(entry));
  }
  Value result = Value::object();
  result.set("rows", std::move(rows));
  result.set("delta", answer.request.delta).set("noise_multiplier", answer.request.noise_multiplier);
  result.set("max_batch_size", answer.request.max_batch_size);
  return result;
}

}  // namespace dpcalc::api
