// Answering and writing op 'dpsgd' (dpsgd_ops.hpp; reading: dpsgd_read.cpp) and op 'dpsgd_pair'.
#include <cmath>
#include <memory>
#include <string>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/trivial_training.hpp"

namespace dpcalc::api {
namespace {

constexpr const char* kRdpOverapproxNote =
    "Sommer (2021) calls this \"an upper bound (someone will prove that one day)\": for a group of more than "
    "one example it is not a proven guarantee.";
constexpr const char* kRdpStandardNote =
    "For one example this is the standard RDP accountant of DP-SGD (Mironov, Talwar, Zhang 2019): a proven "
    "upper bound.";
constexpr const char* kRdpStandardFixedBatchNote =
    "For one example this is the standard RDP accountant of DP-SGD at q = B/N; with fixed-size batches it rests "
    "on the same assumption as the other rows.";
// Progress of a forward answer: the bounds' share; the methods compared with them take the rest.
constexpr double kBoundsShareOfProgress = 0.8;

// The RDP row's note: unproven for groups; for one example, the standard accountant.
const char* rdp_note(const dpsgd::GroupSetting& setting) {
  if (setting.group_size > 1) return kRdpOverapproxNote;
  return dpsgd::is_fixed_batch(setting) ? kRdpStandardFixedBatchNote : kRdpStandardNote;
}

// What the status says about the numbers, in words.
const char* status_sentence(dpsgd::BoundStatus status) {
  switch (status) {
    case dpsgd::BoundStatus::kTight:
      return "Proven, and tight: the lower bound, reached by clipped gradients of this sampler, lies within the "
             "asked accuracy of the upper bound.";
    case dpsgd::BoundStatus::kBracket:
      return "The upper bound is proven; no proof gives less than the lower bound, which clipped gradients of this "
             "sampler reach (an attack). The exact ε lies between.";
    case dpsgd::BoundStatus::kNotProven:
      break;
  }
  return "Not proven: the upper bound rests on an assumption about the worst case.";
}

// The group pair of a single-phase answer of Poisson or fixed batches (the methods Sommer compares).
std::optional<dpsgd::GroupSetting> group_setting(const DpsgdRequest& request) {
  if (request.training.phases.size() != 1) return std::nullopt;
  return request.sampler->group_setting(request.training.phases.front(), request.training.group_size,
                                        request.training.relation);
}

Value mixture_value(const dpsgd::GroupSetting& setting) {
  const pld::DominatingPair pair = dpsgd::worst_case_pair(setting, 1.0);
  Value mixture = Value::object();
  if (const auto* single = std::get_if<pld::MixtureVsGaussianPair>(&pair.base)) {
    mixture.set("shifts", Value::numbers(single->shifts)).set("weights", Value::numbers(single->weights));
    mixture.set("reference", "Q = N(0, σ²)");
  } else {
    const auto& both = std::get<pld::MixtureVsMixturePair>(pair.base);
    mixture.set("shifts", Value::numbers(both.p_shifts)).set("weights", Value::numbers(both.p_weights));
    mixture.set("q_shifts", Value::numbers(both.q_shifts)).set("q_weights", Value::numbers(both.q_weights));
  }
  mixture.set("sampling_probability", dpsgd::group_sampling_probability(setting));
  return mixture;
}

// How the training was counted: its steps, the steps of an epoch, the sampling and the relation.
void describe_training(Value& result, const DpsgdRequest& request, const dpsgd::Training& training,
                       const PhaseSteps& first) {
  double steps = 0;
  for (const dpsgd::Phase& phase : training.phases) steps += phase.steps;
  result.set("sampling", request.sampler->name());
  result.set("relation", mechanisms::relation_name(training.relation));
  result.set("steps", steps);
  const double per_epoch = request.sampler->steps_per_epoch(training.phases.front().batches);
  if (std::isfinite(per_epoch)) result.set("steps_per_epoch", per_epoch);  // rate 0: an epoch never ends
  if (!first.note.empty() && !request.phases_given) result.set("steps_note", first.note);
  if (request.phases_given) {
    Value phases = Value::array();
    for (std::size_t i = 0; i < training.phases.size(); ++i) {
      Value phase = Value::object();
      phase.set("noise_multiplier", training.phases[i].noise_multiplier).set("steps", training.phases[i].steps);
      if (!request.phase_steps[i].note.empty()) phase.set("steps_note", request.phase_steps[i].note);
      phases.push(std::move(phase));
    }
    result.set("phases", std::move(phases));
  }
  // A training that needs no accounting has no pair (no noise, or no example read).
  const dpsgd::Phase& phase = training.phases.front();
  if (phase.noise_multiplier == 0 || dpsgd::reads_no_example(phase)) return;
  if (const auto setting = group_setting(request)) result.set("mixture", mixture_value(*setting));
}

Value compared_value(const dpsgd::ComparedMethods& compared, const DpsgdAnswer& answer) {
  const dpsgd::GroupSetting setting = *group_setting(answer.request);
  const double delta = answer.request.delta;
  Value methods = Value::object();
  Value tight = Value::object();
  const pld::EpsilonBracket& bracket = *answer.bounds.engine;
  tight.set("epsilon", bracket.epsilon_upper).set("epsilon_lower", bracket.epsilon_lower);
  tight.set("discretization", bracket.discretization.discretization_interval);
  const std::string accuracy = accuracy_note(bracket, answer.request.discretization.options);
  if (!accuracy.empty()) tight.set("note", accuracy);
  set_method(tight, answer.bounds.upper_method);
  methods.set("pld", tight);
  Value overapprox = Value::object();
  if (compared.rdp_overapprox && std::isfinite(compared.rdp_overapprox->epsilon)) {
    overapprox.set("epsilon", compared.rdp_overapprox->epsilon).set("order", compared.rdp_overapprox->order);
    overapprox.set("note", rdp_note(setting));
  } else {
    overapprox.set("available", false);
    overapprox.set("note", compared.rdp_overapprox ? "No Rényi order gives a finite bound."
                                                   : "Sommer's over-approximation is stated for add/remove of the "
                                                     "group only; not defined for substitution.");
  }
  set_method(overapprox, dpsgd::kRdpOverapproxMethod);
  methods.set("rdp_overapprox", overapprox);
  Value generic = to_value(compared.generic_group);
  generic.set("per_example", to_value(ApproxDp{compared.generic_group.epsilon / setting.group_size, delta}));
  if (is_vacuous(compared.generic_group)) generic.set("vacuous", true);
  set_method(generic, dpsgd::kGenericGroupMethod);
  methods.set("generic_group", generic);
  return methods;
}

void write_calibration(Value& result, const DpsgdAnswer& answer) {
  const dpsgd::Calibration& calibration = answer.calibration;
  const DpsgdRequest& request = answer.request;
  const pld::AccountingOptions& options = request.discretization.options;
  result.set("noise_multiplier", calibration.noise_multiplier);
  write_sampler_bounds(result, calibration.bounds, request.delta, options);
  Value rule = Value::object();
  rule.set("noise_multiplier", calibration.rule_of_thumb_noise_multiplier);
  if (calibration.rule_of_thumb && calibration.rule_of_thumb->epsilon_upper) {
    rule.set("epsilon", *calibration.rule_of_thumb->epsilon_upper);
    if (calibration.rule_of_thumb->epsilon_lower) rule.set("epsilon_lower", *calibration.rule_of_thumb->epsilon_lower);
    rule.set("note",
             "Sommer's rule of thumb (k times the noise multiplier calibrated for k = 1) is a way to choose σ, "
             "not a bound; epsilon is that σ's upper bound at group size k.");
  } else {
    rule.set("available", false);
    rule.set("note", "Sommer's rule of thumb (k times the noise multiplier calibrated for k = 1) gives σ = " +
                         format_number(calibration.rule_of_thumb_noise_multiplier) +
                         ", too little noise for this group: its privacy loss exceeds what the numeric composition "
                         "represents, so its ε is in the hundreds at any practical δ.");
  }
  result.set("rule_of_thumb", rule);
  describe_training(result, request, request.training, request.phase_steps.front());
}

// Tuning by random repetition (Papernot & Steinke 2022): the tuned ε from the run's Rényi curve, and
// beside it ⌈mean⌉ fixed runs composed by the sampler's own bounds.
Result<DpsgdAnswer> answer_tuned(const DpsgdRequest& request, const dpsgd::Training& read, const Progress& progress) {
  DpsgdAnswer answer;
  answer.request = request;
  answer.kind = DpsgdAnswer::Kind::kTuned;
  const RepetitionsAt& repetitions = *request.repetitions;
  Result<dpsgd::TunedTraining> tuned =
      dpsgd::tuned_training(*request.sampler, read, repetitions.repetitions, request.delta);
  if (!tuned.ok()) {
    Error error = std::move(tuned).error();
    if (error.field == "mean" || error.field == "shape") return at_path(std::move(error), repetitions.path);
    return in_request(std::move(error), request);
  }
  answer.tuned = tuned.value();
  answer.runs = fixed_runs_of(repetitions.repetitions);
  Result<dpsgd::Training> repeated = dpsgd::repeated_training(read, answer.runs);
  if (!repeated.ok()) return at_path(std::move(repeated).error(), repetitions.path);
  Result<dpsgd::SamplerBounds> fixed = request.sampler->bounds(
      repeated.value(), request.delta, request.discretization.options, progress, dpsgd::BoundsWanted::kBoth);
  if (!fixed.ok()) return in_request(std::move(fixed).error(), request);
  answer.fixed_runs = std::move(fixed).value();
  return answer;
}

void write_tuned(Value& result, const DpsgdAnswer& answer) {
  const DpsgdRequest& request = answer.request;
  result.set("guarantee", to_value(ApproxDp{answer.tuned.epsilon, request.delta}));
  result.set("order", renyi_value(answer.tuned.order));
  set_method(result, dpsgd::kTunedTrainingMethod);
  result.set("repetitions", repetitions_value(*request.repetitions));
  Value fixed = Value::object();
  fixed.set("runs", answer.runs);
  write_sampler_bounds(fixed, answer.fixed_runs, request.delta, request.discretization.options);
  result.set("fixed_runs", std::move(fixed));
  result.set("note",
             "guarantee: the best of a random number K of runs released (K of the law in repetitions), bounded by "
             "Rényi DP; fixed_runs: ⌈mean⌉ runs composed and all released, for comparison.");
  if (!request.phases_given) result.set("noise_multiplier", request.training.phases.front().noise_multiplier);
  describe_training(result, request, request.training, request.phase_steps.front());
}

}  // namespace

void write_sampler_bounds(Value& result, const dpsgd::SamplerBounds& bounds, double delta,
                          const pld::AccountingOptions& options) {
  const dpsgd::BoundStatus status = dpsgd::bound_status(bounds, options.relative_accuracy);
  // No finite ε (a training without noise): the guarantee that holds is the vacuous one, δ = 1.
  const bool vacuous = bounds.epsilon_upper && std::isinf(*bounds.epsilon_upper);
  if (!bounds.epsilon_upper) {
    result.set("guarantee", Value());
  } else {
    result.set("guarantee", to_value(vacuous ? ApproxDp{0, 1} : ApproxDp{*bounds.epsilon_upper, delta}));
  }
  if (vacuous) result.set("epsilon_upper", "infinity").set("vacuous", true);
  result.set("epsilon_lower", bounds.epsilon_lower ? renyi_value(*bounds.epsilon_lower) : Value());
  result.set("status", dpsgd::bound_status_name(status));
  const bool exact = !bounds.engine && bounds.epsilon_lower && bounds.epsilon_upper &&
                     *bounds.epsilon_lower == *bounds.epsilon_upper;  // a training that needs no accounting
  std::string note = status == dpsgd::BoundStatus::kBracket && !bounds.epsilon_lower
                         ? "The upper bound is proven; no lower bound is computed for this training."
                     : exact ? "Exact."
                             : status_sentence(status);
  if (!bounds.note.empty()) note += " " + bounds.note;
  if (bounds.engine) {
    const std::string accuracy = accuracy_note(*bounds.engine, options);
    if (!accuracy.empty()) note += " " + accuracy;
  }
  result.set("note", note);
  set_method(result, bounds.upper_method);
  if (bounds.epsilon_lower && std::string(bounds.lower_method.method) != bounds.upper_method.method) {
    Value lower = Value::object();
    set_method(lower, bounds.lower_method);
    result.set("lower_bound", std::move(lower));
  }
  if (bounds.analysis) {
    Value analysis = Value::object();
    analysis.set("epsilon_lower", bounds.analysis->epsilon_lower).set("epsilon_upper", bounds.analysis->epsilon_upper);
    result.set("analysis_bracket", std::move(analysis));
  }
}

namespace {

// Calibration and solving search a noise or a size that changes ε: at rate 0 none does.
Result<bool> check_something_read(const DpsgdRequest& request) {
  if (!dpsgd::reads_no_example(request.training)) return true;
  return invalid_argument(field_path(request.at, "sampling_rate"),
                          "At sampling rate 0 no example is ever read: the training is 0-DP whatever the noise, "
                          "so there is nothing to " +
                              std::string(request.unknown.empty() ? "calibrate" : "solve for") +
                              ". Give a sampling rate greater than 0.");
}

// A training that needs no accounting (trivial_training.hpp), answered as it is.
Result<DpsgdAnswer> answer_trivial(const DpsgdRequest& request, dpsgd::SamplerBounds bounds) {
  const bool reads_nothing = dpsgd::reads_no_example(request.training);
  if (request.repetitions && !reads_nothing) {
    return invalid_argument(request.repetitions->path,
                            "Repeating a training without noise adds to the chance that a run samples the group "
                            "(no finite ε below it); tuning is bounded for trainings with noise only.");
  }
  if (request.repetitions) bounds.note += " Any number of runs of it reveals nothing either.";
  DpsgdAnswer answer;
  answer.request = request;
  answer.bounds = std::move(bounds);
  return answer;
}

}  // namespace

Result<DpsgdAnswer> answer_dpsgd(const DpsgdRequest& request, const Progress& progress) {
  DpsgdAnswer answer;
  answer.request = request;
  const pld::AccountingOptions& options = request.discretization.options;
  if (!request.unknown.empty() || request.target_epsilon) {
    DPCALC_CHECK(check_something_read(request));
  } else {
    Result<std::optional<dpsgd::SamplerBounds>> trivial =
        dpsgd::trivial_bounds(*request.sampler, request.training, request.delta);
    if (!trivial.ok()) return in_request(std::move(trivial).error(), request);
    if (trivial.value()) return answer_trivial(request, *trivial.value());
  }
  const dpsgd::Training read = dpsgd::without_unread_phases(request.training);  // phases at rate 0 compose as nothing
  if (!request.unknown.empty()) {
    answer.kind = DpsgdAnswer::Kind::kSolved;
    answer.solved_steps = request.phase_steps.front();
    DPCALC_TRY(answer.solved, dpsgd_solve(request, answer.solved_training, answer.solved_steps, progress));
    return answer;
  }
  if (request.target_epsilon) {
    answer.kind = DpsgdAnswer::Kind::kCalibration;
    Result<dpsgd::Calibration> calibrated =
        dpsgd::calibrate(*request.sampler, request.training, request.delta, *request.target_epsilon, progress, options);
    if (!calibrated.ok()) return in_request(std::move(calibrated).error(), request);
    answer.calibration = std::move(calibrated).value();
    return answer;
  }
  if (request.repetitions) return answer_tuned(request, read, progress);
  const std::optional<dpsgd::GroupSetting> setting = group_setting(request);
  pld::ProgressCallback bounds_part = progress, compared_part;
  if (progress && setting) {
    bounds_part = [&](double f) { return progress(kBoundsShareOfProgress * f); };
    compared_part = [&](double f) { return progress(kBoundsShareOfProgress + (1 - kBoundsShareOfProgress) * f); };
  }
  Result<dpsgd::SamplerBounds> bounds =
      request.sampler->bounds(read, request.delta, options, bounds_part, dpsgd::BoundsWanted::kBoth);
  if (!bounds.ok()) return in_request(std::move(bounds).error(), request);
  answer.bounds = std::move(bounds).value();
  if (setting) {
    // The generic row starts from the ε this training answers for one example, the same number a
    // request with group_size 1 gets.
    double one_example = *answer.bounds.epsilon_upper;
    if (read.group_size != 1) {
      dpsgd::Training single = read;
      single.group_size = 1;
      Result<dpsgd::SamplerBounds> one =
          request.sampler->bounds(single, request.delta, options, compared_part, dpsgd::BoundsWanted::kUpperOnly);
      if (!one.ok()) return in_request(std::move(one).error(), request);
      one_example = *one.value().epsilon_upper;
    }
    const dpsgd::Phase& phase = request.training.phases.front();
    answer.compared =
        dpsgd::compared_methods(*setting, phase.noise_multiplier, phase.steps, request.delta, one_example);
  }
  if (answer.bounds.plds) {
    answer.numeric.asked.delta = request.delta;
    answer.numeric.asked.epsilon_at = *answer.bounds.engine;
    answer.numeric.plds = std::move(answer.bounds.plds);
  }
  return answer;
}

Value write_dpsgd(const DpsgdAnswer& answer) {
  Value result = Value::object();
  const DpsgdRequest& request = answer.request;
  switch (answer.kind) {
    case DpsgdAnswer::Kind::kForward:
      write_sampler_bounds(result, answer.bounds, request.delta, request.discretization.options);
      if (answer.compared) result.set("methods", compared_value(*answer.compared, answer));
      if (!request.phases_given) result.set("noise_multiplier", request.training.phases.front().noise_multiplier);
      describe_training(result, request, request.training, request.phase_steps.front());
      break;
    case DpsgdAnswer::Kind::kCalibration:
      write_calibration(result, answer);
      break;
    case DpsgdAnswer::Kind::kTuned:
      write_tuned(result, answer);
      break;
    case DpsgdAnswer::Kind::kSolved:
      write_solved(result, answer.solved);
      result.set("noise_multiplier", *request.noise_multiplier);
      result.set("sampling", request.sampler->name());
      result.set("relation", mechanisms::relation_name(answer.solved_training.relation));
      if (request.unknown != "steps") result.set("steps", answer.solved_training.phases.front().steps);
      if (!answer.solved_steps.note.empty()) result.set("steps_note", answer.solved_steps.note);
      break;
  }
  return result;
}

Result<bool> dpsgd_explainable(const DpsgdRequest& request) {
  if (request.repetitions) {
    return invalid_argument(request.repetitions->path,
                            "The trade-off is read from the privacy loss distributions of one training; a tuning "
                            "is bounded by Rényi DP. Explain the training without repetitions.");
  }
  if (!request.sampler->has_privacy_loss_distributions()) {
    return invalid_argument(field_path(request.at, "sampling"),
                            std::string("The trade-off is read from the privacy loss distributions of the "
                                        "composition; sampling '") +
                                request.sampler->name() +
                                "' is bounded otherwise. Explain a 'poisson', 'fixed_batch' or 'cyclic_poisson' "
                                "training.");
  }
  if (request.noise_multiplier || request.phases_given) {
    if (request.unknown.empty()) return true;
  }
  return invalid_argument(field_path(request.at, "target"),
                          "The trade-off is computed for a given noise: give noise_multiplier (for instance the "
                          "one a calibration found) instead of target.");
}

Result<Explained> explain_dpsgd(const DpsgdAnswer& answer, const tradeoff::TradeoffOptions& options, const Progress&) {
  if (!answer.numeric.plds) {
    return invalid_argument(field_path(answer.request.at, "explain"),
                            "This training needs no accounting, so there is no privacy loss distribution to draw "
                            "its trade-off from. " +
                                answer.bounds.note);
  }
  DPCALC_TRY(Explained explained, explain_plds(*answer.numeric.plds, answer.numeric.asked, options));
  explained.group_size = answer.request.training.group_size;
  return explained;
}

Result<DpsgdPairRequest> read_dpsgd_pair(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().dpsgd_pair;
  DpsgdPairRequest read;
  read.at = at;
  DPCALC_TRY(read.setting.group_size, read_number(request, at, declared(shape, "group_size")));
  DPCALC_TRY(const std::string sampling, read_choice(request, at, declared(shape, "sampling")));
  if (sampling == "poisson") {
    DPCALC_TRY(const double rate, read_number(request, at, declared(shape, "sampling_rate")));
    read.setting.draw = dpsgd::SampleDraw::poisson(rate);
  } else {
    DPCALC_TRY(const double n, read_number(request, at, declared(shape, "dataset_size")));
    DPCALC_TRY(const double b, read_number(request, at, declared(shape, "batch_size")));
    read.setting.draw = dpsgd::SampleDraw::without_replacement(n, b);
  }
  DPCALC_TRY(const RelationAt relation, read_relation(request, at, declared(shape, "relation")));
  read.setting.relation = relation.relation;
  DPCALC_TRY(read.setting, at_path(dpsgd::check_setting(read.setting), at));
  DPCALC_TRY(read.noise_multiplier, read_number(request, at, declared(shape, "noise_multiplier")));
  DPCALC_TRY(read.points, read_number(request, at, declared(shape, "points")));
  return read;
}

// The pair needs no accounting: it is drawn even where the composition is refused.
Result<DpsgdPairAnswer> answer_dpsgd_pair(const DpsgdPairRequest& request, const Progress&) {
  DpsgdPairAnswer answer;
  answer.setting = request.setting;
  answer.noise_multiplier = request.noise_multiplier;
  DPCALC_TRY(answer.densities,
             at_path(dpsgd::pair_densities(request.setting, request.noise_multiplier, request.points), request.at));
  return answer;
}

Value write_dpsgd_pair(const DpsgdPairAnswer& answer) {
  Value result = Value::object();
  result.set("noise_multiplier", answer.noise_multiplier);
  result.set("mixture", mixture_value(answer.setting));
  result.set("x", Value::numbers(answer.densities.x));
  result.set("p", Value::numbers(answer.densities.p));
  result.set("q", Value::numbers(answer.densities.q));
  if (dpsgd::is_fixed_batch(answer.setting)) {
    result.set("note", dpsgd::kFixedBatchAssumption);
  }
  set_method(result, dpsgd::kWorstCasePair);
  return result;
}

}  // namespace dpcalc::api
