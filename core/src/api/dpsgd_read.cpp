// Reading op 'dpsgd': the sampler, its batches, the phases (one, or a schedule), the steps (or
// epochs, turned into steps by the sampler), the relation (the sampler's default when left out),
// and what is asked: ε for a noise, the noise for a target, or a solve. The domain names what an
// error is about by its own parameters (and a phase by Error::item); in_request puts them on the
// request's paths.
#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The fields a phase has, at the top of a request without phases.
constexpr const char* kPhaseFields[] = {"noise_multiplier", "sampling_rate", "batch_size", "steps", "epochs"};

bool is_phase_field(const std::string& name) {
  for (const char* field : kPhaseFields) {
    if (name == field) return true;
  }
  return false;
}

// Most phases a schedule composes (each is one item of the composition).
constexpr std::size_t kMaxPhases = 1000;

// Whether the sampling's batches may be given by a rate (its variant declares sampling_rate).
bool takes_rate(const std::string& sampling) {
  const Variant* variant = request_shapes().dpsgd.variant(sampling);
  if (variant == nullptr) return false;
  for (const Field& field : variant->fields) {
    if (field.name == "sampling_rate") return true;
  }
  return false;
}

// A stand-in for the unknown of a solve, or for a calibration's noise: the value the batches and the
// phase are checked with before the search sets it.
constexpr double kStandIn = 1;

Result<std::optional<double>> optional_number(const Value& object, const std::string& at, const Shape& shape,
                                              const char* name) {
  return read_optional_number(object, at, declared(shape, name));
}

// One phase: its noise multiplier, rate or batch and steps or epochs (the unknown of a solve at a
// stand-in), over the batches every phase shares.
Result<dpsgd::Phase> read_phase(const Value& object, const std::string& at, const Shape& shape,
                                const dpsgd::Batches& shared, const std::string& unknown, PhaseSteps& steps) {
  dpsgd::Phase phase;
  phase.batches = shared;
  DPCALC_TRY(phase.batches.sampling_rate, optional_number(object, at, shape, "sampling_rate"));
  DPCALC_TRY(phase.batches.batch_size, optional_number(object, at, shape, "batch_size"));
  if (unknown == "sampling_rate") phase.batches.sampling_rate = kStandIn;
  if (unknown == "batch_size") phase.batches.batch_size = kStandIn;
  DPCALC_TRY(steps.steps, optional_number(object, at, shape, "steps"));
  DPCALC_TRY(steps.epochs, optional_number(object, at, shape, "epochs"));
  if (unknown == "steps" || unknown == "epochs") steps.steps = kStandIn;
  if (steps.steps && steps.epochs) {
    return invalid_argument(field_path(at, "epochs"), "Give either steps or epochs, not both.");
  }
  if (!steps.steps && !steps.epochs) {
    return invalid_argument(field_path(at, "steps"), "steps (or epochs) is required: the number of training steps.");
  }
  if (steps.epochs && !(*steps.epochs > 0 && std::isfinite(*steps.epochs))) {
    return invalid_argument(field_path(at, "epochs"), "epochs must be a positive number " + got(*steps.epochs) + ".");
  }
  return phase;
}

Result<std::vector<dpsgd::Phase>> read_phases(const Value& request, const std::string& at, const Shape& shape,
                                              const dpsgd::Batches& shared, DpsgdRequest& read) {
  const Shape& phase_shape = request_shapes().dpsgd_phase;
  std::vector<dpsgd::Phase> phases;
  if (!read.phases_given) {
    read.phase_steps.resize(1);
    DPCALC_TRY(dpsgd::Phase phase, read_phase(request, at, shape, shared, read.unknown, read.phase_steps[0]));
    phases.push_back(std::move(phase));
    return phases;
  }
  for (const char* field : kPhaseFields) {
    if (has_field(request, field)) {
      return does_not_apply(field_path(at, field), "with phases, each phase gives its own " + std::string(field));
    }
  }
  for (const char* field : {"target", "unknown"}) {
    if (has_field(request, field)) {
      return does_not_apply(field_path(at, field),
                            "a schedule of phases fixes each phase's noise and steps: calibration and solving take "
                            "one phase (leave phases out)");
    }
  }
  const std::string path = field_path(at, "phases");
  DPCALC_TRY(const Value* list, member(request, at, "phases"));
  if (!list->is_array() || list->as_array().empty()) {
    return invalid_argument(path, "phases must be a list of at least one phase.");
  }
  if (list->as_array().size() > kMaxPhases) {
    return invalid_argument(path, "At most " + std::to_string(kMaxPhases) + " phases are composed.");
  }
  read.phase_steps.resize(list->as_array().size());
  for (std::size_t i = 0; i < list->as_array().size(); ++i) {
    const std::string phase_at = field_path(path, std::to_string(i));
    DPCALC_TRY(const Value* object, require_object(list->as_array()[i], phase_at));
    DPCALC_TRY(dpsgd::Phase phase, read_phase(*object, phase_at, phase_shape, shared, "", read.phase_steps[i]));
    DPCALC_TRY(phase.noise_multiplier, read_number(*object, phase_at, declared(phase_shape, "noise_multiplier")));
    phases.push_back(std::move(phase));
  }
  return phases;
}

Result<dpsgd::Batches> read_shared_batches(const Value& request, const std::string& at, const Shape& shape) {
  dpsgd::Batches shared;
  DPCALC_TRY(shared.dataset_size, optional_number(request, at, shape, "dataset_size"));
  DPCALC_TRY(shared.max_batch_size, optional_number(request, at, shape, "max_batch_size"));
  DPCALC_TRY(shared.bands, optional_number(request, at, shape, "bands"));
  DPCALC_TRY(shared.reshuffle, read_boolean(request, at, declared(shape, "reshuffle")));
  return shared;
}

// What a solve may solve for, for this sampler and these batches.
Result<bool> check_unknown(const Value& request, const DpsgdRequest& read) {
  const std::string& unknown = read.unknown;
  const std::string unknown_path = field_path(read.at, "unknown");
  if (has_field(request, unknown.c_str())) return given_unknown(field_path(read.at, unknown), unknown);
  if (unknown == "steps" && has_field(request, "epochs")) return given_unknown(field_path(read.at, "epochs"), unknown);
  if (unknown == "epochs" && has_field(request, "steps")) return given_unknown(field_path(read.at, "steps"), unknown);
  const std::string sampling = read.sampler->name();
  if (unknown == "sampling_rate" && (has_field(request, "batch_size") || !takes_rate(sampling))) {
    return invalid_argument(unknown_path,
                            "unknown 'sampling_rate' needs a sampling given by its rate ('poisson', "
                            "'truncated_poisson' or 'cyclic_poisson' with sampling_rate); with batches "
                            "of a size solve for 'batch_size'.");
  }
  if (unknown == "batch_size" && !has_field(request, "dataset_size")) {
    return invalid_argument(unknown_path,
                            "unknown 'batch_size' needs dataset_size (the batch is a share of it); with "
                            "a sampling rate solve for 'sampling_rate'.");
  }
  if (unknown == "group_size" && !read.sampler->has_group_analysis()) {
    return invalid_argument(unknown_path, std::string("No analysis of groups is known for sampling '") + sampling +
                                              "', so there is no group size to solve for.");
  }
  if (has_field(request, "epochs") && (unknown == "sampling_rate" || unknown == "batch_size")) {
    return invalid_argument(field_path(read.at, "epochs"),
                            "Give steps: the steps of an epoch change with the " +
                                std::string(unknown == "batch_size" ? "batch size" : "sampling rate") +
                                " being solved for.");
  }
  return true;
}

Result<double> read_target(const Value& request, const std::string& at) {
  const std::string target = field_path(at, "target");
  DPCALC_TRY(const Value* target_value, member(request, at, "target"));
  DPCALC_TRY(const Value* target_object, require_object(*target_value, target));
  return number_field(*target_object, target, "epsilon");
}

// What is asked: ε for a noise, the noise for a target (calibration), or a solve (both and unknown).
Result<bool> read_question(const Value& request, const Shape& shape, DpsgdRequest& read) {
  const std::string& at = read.at;
  const bool has_noise = has_field(request, "noise_multiplier");
  const bool has_target = has_field(request, "target");
  if (!read.unknown.empty()) {
    DPCALC_TRY(double noise, read_number(request, at, declared(shape, "noise_multiplier")));
    DPCALC_TRY(read.noise_multiplier, check_positive(noise, field_path(at, "noise_multiplier")));
    DPCALC_TRY(read.target_epsilon, read_target(request, at));
    return true;
  }
  if (read.phases_given) return true;
  if (has_noise && has_target) {
    return invalid_argument(field_path(at, "target"),
                            "Give either noise_multiplier (to get ε) or target:{epsilon} (to get the noise "
                            "multiplier), not both.");
  }
  if (has_target) {
    DPCALC_TRY(read.target_epsilon, read_target(request, at));
    return true;
  }
  if (!has_noise) {
    return invalid_argument(field_path(at, "noise_multiplier"),
                            "noise_multiplier is required (or give target:{epsilon} to calibrate it).");
  }
  DPCALC_TRY(read.noise_multiplier, read_number(request, at, declared(shape, "noise_multiplier")));
  return true;
}

// The note of steps counted from epochs.
std::string epochs_note(double epochs, double per_epoch, double steps) {
  return "steps = ⌈epochs · steps per epoch⌉ = ⌈" + format_number(epochs) + " · " + format_number(per_epoch) +
         "⌉ = " + format_number(steps) + " (rounded up)";
}

}  // namespace

Result<dpsgd::Training> training_of(const DpsgdRequest& request, const std::vector<dpsgd::Phase>& phases,
                                    std::vector<PhaseSteps>& steps) {
  dpsgd::Training training = request.training;
  training.phases = phases;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    Result<dpsgd::Batches> batches = request.sampler->check(phases[i].batches);
    if (!batches.ok()) return in_request(about_item(std::move(batches).error(), i), request);
    dpsgd::Phase& phase = training.phases[i];
    phase.batches = batches.value();
    if (steps[i].steps) {
      phase.steps = *steps[i].steps;
      continue;
    }
    Result<double> counted = request.sampler->steps_for_epochs(phase.batches, *steps[i].epochs);
    if (!counted.ok()) return in_request(about_item(std::move(counted).error(), i), request);
    phase.steps = counted.value();
    steps[i].note = epochs_note(*steps[i].epochs, request.sampler->steps_per_epoch(phase.batches), phase.steps);
  }
  Result<dpsgd::Training> checked = dpsgd::check_training(*request.sampler, training);
  if (!checked.ok()) return in_request(std::move(checked).error(), request);
  return checked;
}

Error in_request(Error error, const DpsgdRequest& request) {
  if (is_option_error(error)) {
    if (request.discretization.given) return on_options(std::move(error), request.discretization);
    error.field = "noise_multiplier";  // the automatic grid is sized by the noise
  }
  // Without phases the training is one phase: an error about its steps is about phase 0's.
  const std::size_t phase = error.item == Error::kNoItem && !request.phases_given ? 0 : error.item;
  error.item = Error::kNoItem;
  // What the engine could not represent is the noise a calibration searches for its target.
  if (error.field == "noise_multiplier" && !request.noise_multiplier && !request.phases_given) {
    error.field = "target.epsilon";
  }
  if (error.field == "target_epsilon") error.field = "target.epsilon";
  const bool on_phase = phase < request.phase_steps.size();
  if (error.field == "steps" && on_phase && request.phase_steps[phase].epochs) error.field = "epochs";
  if (request.phases_given && on_phase && is_phase_field(error.field)) {
    error.field = field_path(field_path("phases", std::to_string(phase)), error.field);
  }
  return at_path(std::move(error), request.at);
}

Result<DpsgdRequest> read_dpsgd(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().dpsgd;
  DpsgdRequest read;
  read.at = at;
  DPCALC_TRY(const std::string sampling, read_choice(request, at, declared(shape, "sampling")));
  read.sampler = dpsgd::find_sampler(sampling);
  DPCALC_TRY(const auto unknown, read_optional_choice(request, at, declared(shape, "unknown")));
  read.unknown = unknown.value_or("");
  read.phases_given = has_field(request, "phases");
  if (!read.unknown.empty()) DPCALC_CHECK(check_unknown(request, read));
  DPCALC_TRY(const auto relation, read_optional_choice(request, at, declared(shape, "relation")));
  read.training.relation = relation ? relation_named(*relation) : read.sampler->default_relation();
  if (read.unknown != "group_size") {
    DPCALC_TRY(read.training.group_size, read_number(request, at, declared(shape, "group_size")));
  }
  DPCALC_TRY(const dpsgd::Batches shared, read_shared_batches(request, at, shape));
  DPCALC_TRY(read.given_phases, read_phases(request, at, shape, shared, read));
  DPCALC_CHECK(read_question(request, shape, read));
  for (dpsgd::Phase& phase : read.given_phases) {
    if (!read.phases_given) phase.noise_multiplier = read.noise_multiplier.value_or(kStandIn);
  }
  DPCALC_TRY(double delta, read_number(request, at, declared(shape, "delta")));
  DPCALC_TRY(read.delta, check_positive_delta(delta, field_path(at, "delta")));
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  DPCALC_TRY(read.training, training_of(read, read.given_phases, read.phase_steps));
  DPCALC_TRY(read.repetitions, read_repetitions(request, at, declared(shape, "repetitions")));
  if (read.repetitions && (read.target_epsilon || !read.unknown.empty())) {
    return invalid_argument(read.repetitions->path,
                            "A tuning's ε is computed for a given training: give noise_multiplier and the steps "
                            "(without target or unknown) with repetitions.");
  }
  return read;
}

}  // namespace dpcalc::api
