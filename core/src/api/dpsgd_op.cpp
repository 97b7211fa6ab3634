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

namespace dpcalc::api {
namespace {

constexpr const char* kFixedBatchNote =
    "Fixed batches without replacement: the pair with Hypergeometric(N, k, B) weights is Sommer's (2021), "
    "\"assuming the worst-case property\" (not proven for this sampling).";
constexpr const char* kRdpOverapproxNote =
    "Sommer (2021) calls this \"an upper bound (someone will prove that one day)\": for a group of more than "
    "one example it is not a proven guarantee.";
constexpr const char* kRdpStandardNote =
    "For one example this is the standard RDP accountant of DP-SGD (Mironov, Talwar, Zhang 2019): a proven "
    "upper bound.";
constexpr const char* kRdpStandardFixedBatchNote =
    "For one example this is the standard RDP accountant of DP-SGD at q = B/N; with fixed-size batches it rests "
    "on the same assumption as the other rows.";

// The fields a solve may solve for.
const std::vector<std::string> kUnknowns{"steps", "epochs", "sampling_rate", "batch_size", "group_size"};

// The RDP row's note: unproven for groups; for one example, the standard accountant.
const char* rdp_note(const dpsgd::GroupSetting& setting) {
  if (setting.group_size > 1) return kRdpOverapproxNote;
  return setting.sampling == dpsgd::Sampling::kPoisson ? kRdpStandardNote : kRdpStandardFixedBatchNote;
}

// A number of the setting: the request's, or 1 standing in for the unknown a solve replaces.
Result<double> setting_number(const Value& request, const std::string& at, const Shape& shape, const char* name,
                              const std::string& unknown) {
  if (unknown == name) return 1.0;
  return read_number(request, at, declared(shape, name));
}

Result<dpsgd::GroupSetting> read_setting(const Value& request, const std::string& at, const Shape& shape,
                                         const std::string& unknown) {
  dpsgd::GroupSetting setting;
  DPCALC_TRY(setting.group_size, setting_number(request, at, shape, "group_size", unknown));
  DPCALC_TRY(const std::string sampling, read_choice(request, at, declared(shape, "sampling")));
  if (sampling == "poisson") {
    setting.sampling = dpsgd::Sampling::kPoisson;
    DPCALC_TRY(setting.sampling_rate, setting_number(request, at, shape, "sampling_rate", unknown));
  } else {
    setting.sampling = dpsgd::Sampling::kFixedBatch;
    DPCALC_TRY(setting.dataset_size, read_number(request, at, declared(shape, "dataset_size")));
    DPCALC_TRY(setting.batch_size, setting_number(request, at, shape, "batch_size", unknown));
  }
  DPCALC_TRY(const RelationAt relation, read_relation(request, at, declared(shape, "relation")));
  setting.relation = relation.relation;
  return at_path(dpsgd::check_setting(setting), at);
}

Result<Steps> read_steps(const Value& request, const std::string& at, const Shape& shape,
                         const dpsgd::GroupSetting& setting, const std::string& unknown) {
  if (unknown == "steps" || unknown == "epochs") return Steps{1, ""};
  DPCALC_TRY(auto steps, read_optional_number(request, at, declared(shape, "steps")));
  DPCALC_TRY(auto epochs, read_optional_number(request, at, declared(shape, "epochs")));
  if (steps && epochs) return invalid_argument(field_path(at, "epochs"), "Give either steps or epochs, not both.");
  if (steps) {
    DPCALC_TRY(double checked, check_count(*steps, field_path(at, "steps")));
    return Steps{checked, ""};
  }
  if (!epochs) {
    return invalid_argument(field_path(at, "steps"), "steps (or epochs) is required: the number of training steps.");
  }
  if (!(*epochs > 0 && std::isfinite(*epochs))) {
    return invalid_argument(field_path(at, "epochs"), "epochs must be a positive number " + got(*epochs) + ".");
  }
  return steps_for_epochs(setting, *epochs, at);
}

// A solve: the unknown's field (and its twin, steps or epochs) left out, a setting that has it.
Result<bool> check_unknown(const Value& request, const std::string& at, const std::string& unknown) {
  if (has_field(request, unknown.c_str())) return given_unknown(field_path(at, unknown), unknown);
  if (unknown == "steps" && has_field(request, "epochs")) return given_unknown(field_path(at, "epochs"), unknown);
  if (unknown == "epochs" && has_field(request, "steps")) return given_unknown(field_path(at, "steps"), unknown);
  DPCALC_TRY(std::string sampling, string_field(request, at, "sampling"));
  if (unknown == "sampling_rate" && sampling != "poisson") {
    return invalid_argument(field_path(at, "unknown"),
                            "unknown 'sampling_rate' needs sampling 'poisson'; with fixed batches solve for "
                            "'batch_size'.");
  }
  if (unknown == "batch_size" && sampling != "fixed_batch") {
    return invalid_argument(field_path(at, "unknown"),
                            "unknown 'batch_size' needs sampling 'fixed_batch'; with Poisson sampling solve for "
                            "'sampling_rate'.");
  }
  if (has_field(request, "epochs") && (unknown == "sampling_rate" || unknown == "batch_size")) {
    return invalid_argument(field_path(at, "epochs"),
                            "Give steps: the steps of an epoch change with the " +
                                std::string(unknown == "batch_size" ? "batch size" : "sampling rate") +
                                " being solved for.");
  }
  return true;
}

Result<DpsgdRequest> read_solve_request(const Value& request, DpsgdRequest read) {
  const Shape& shape = request_shapes().dpsgd;
  const std::string& at = read.at;
  DPCALC_TRY(read.unknown, read_choice(request, at, declared(shape, "unknown")));
  DPCALC_CHECK(check_unknown(request, at, read.unknown));
  DPCALC_TRY(read.setting, read_setting(request, at, shape, read.unknown));
  DPCALC_TRY(read.steps, read_steps(request, at, shape, read.setting, read.unknown));
  read.epochs_given = has_field(request, "epochs");
  DPCALC_TRY(double noise, read_number(request, at, declared(shape, "noise_multiplier")));
  DPCALC_TRY(read.noise_multiplier, check_positive(noise, field_path(at, "noise_multiplier")));
  DPCALC_TRY(double delta, read_number(request, at, declared(shape, "delta")));
  DPCALC_TRY(read.delta, check_positive_delta(delta, field_path(at, "delta")));
  const std::string target = field_path(at, "target");
  DPCALC_TRY(const Value* target_value, member(request, at, "target"));
  DPCALC_TRY(const Value* target_object, require_object(*target_value, target));
  DPCALC_TRY(read.target_epsilon, number_field(*target_object, target, "epsilon"));
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  return read;
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

void describe_setting(Value& result, const dpsgd::GroupSetting& setting, const Steps& steps) {
  result.set("steps", steps.steps);
  if (!steps.note.empty()) result.set("steps_note", steps.note);
  result.set("mixture", mixture_value(setting));
  if (setting.sampling == dpsgd::Sampling::kFixedBatch) result.set("note", kFixedBatchNote);
  set_method(result, dpsgd::kTightMethod);
}

void write_forward(Value& result, const DpsgdAnswer& answer) {
  const dpsgd::GroupGuarantee& forward = answer.forward;
  const DpsgdRequest& request = answer.request;
  const dpsgd::GroupSetting& setting = request.setting;
  result.set("guarantee", to_value(ApproxDp{forward.tight.epsilon_upper, request.delta}));
  result.set("epsilon_lower", forward.tight.epsilon_lower);
  Value methods = Value::object();
  Value tight = Value::object();
  tight.set("epsilon", forward.tight.epsilon_upper).set("epsilon_lower", forward.tight.epsilon_lower);
  tight.set("discretization", forward.tight.discretization.discretization_interval);
  if (!answer.accuracy.empty()) tight.set("note", answer.accuracy);
  set_method(tight, dpsgd::kTightMethod);
  methods.set("pld", tight);
  Value overapprox = Value::object();
  if (forward.rdp_overapprox && std::isfinite(forward.rdp_overapprox->epsilon)) {
    overapprox.set("epsilon", forward.rdp_overapprox->epsilon).set("order", forward.rdp_overapprox->order);
    overapprox.set("note", rdp_note(setting));
  } else {
    overapprox.set("available", false);
    overapprox.set("note", forward.rdp_overapprox ? "No Rényi order gives a finite bound."
                                                  : "Sommer's over-approximation is stated for add/remove of the "
                                                    "group only; not defined for substitution.");
  }
  set_method(overapprox, dpsgd::kRdpOverapproxMethod);
  methods.set("rdp_overapprox", overapprox);
  Value generic = to_value(forward.generic_group);
  generic.set("per_example", to_value(ApproxDp{forward.generic_group.epsilon / setting.group_size, request.delta}));
  if (is_vacuous(forward.generic_group)) generic.set("vacuous", true);
  set_method(generic, dpsgd::kGenericGroupMethod);
  methods.set("generic_group", generic);
  result.set("methods", methods);
  result.set("noise_multiplier", *request.noise_multiplier);
  describe_setting(result, setting, request.steps);
}

void write_calibration(Value& result, const DpsgdAnswer& answer) {
  const dpsgd::Calibration& calibration = answer.calibration;
  const DpsgdRequest& request = answer.request;
  result.set("noise_multiplier", calibration.noise_multiplier);
  result.set("guarantee", to_value(ApproxDp{calibration.tight.epsilon_upper, request.delta}));
  result.set("epsilon_lower", calibration.tight.epsilon_lower);
  Value rule = Value::object();
  rule.set("noise_multiplier", calibration.rule_of_thumb_noise_multiplier);
  if (calibration.rule_of_thumb) {
    rule.set("epsilon", calibration.rule_of_thumb->epsilon_upper);
    rule.set("epsilon_lower", calibration.rule_of_thumb->epsilon_lower);
    rule.set("note",
             "Sommer's rule of thumb (k times the noise multiplier calibrated for k = 1) is a way to choose σ, "
             "not a bound; epsilon is that σ's tight upper bound at group size k.");
  } else {
    rule.set("available", false);
    rule.set("note", "Sommer's rule of thumb (k times the noise multiplier calibrated for k = 1) gives σ = " +
                         format_number(calibration.rule_of_thumb_noise_multiplier) +
                         ", too little noise for this group: its privacy loss exceeds what the numeric composition "
                         "represents, so its ε is in the hundreds at any practical δ.");
  }
  result.set("rule_of_thumb", rule);
  describe_setting(result, request.setting, request.steps);
}

}  // namespace

Result<Steps> steps_for_epochs(const dpsgd::GroupSetting& setting, double epochs, const std::string& at) {
  const bool fixed = setting.sampling == dpsgd::Sampling::kFixedBatch;
  const double exact = fixed ? epochs * setting.dataset_size / setting.batch_size : epochs / setting.sampling_rate;
  // Rounded up; the relative slack absorbs the rounding of the division (60 * 512 / 256 is 120).
  const double rounded = std::ceil(exact * (1 - 1e-12));
  if (!(rounded <= kMaxCount)) {
    return invalid_argument(field_path(at, "epochs"),
                            "epochs give " + format_number(rounded) + " steps, more than 2^53; use fewer epochs.");
  }
  const std::string formula = fixed ? "epochs · dataset_size / batch_size" : "epochs / sampling_rate";
  return Steps{std::max(1.0, rounded), "steps = ⌈" + formula + "⌉ = ⌈" + format_number(exact) + "⌉ (rounded up)"};
}

Error in_request(Error error, const DpsgdRequest& request) {
  if (is_option_error(error)) {
    if (request.discretization.given) return on_options(std::move(error), request.discretization);
    error.field = "noise_multiplier";  // the automatic grid is sized by the noise
  }
  // What the engine could not represent is the noise a calibration searches for its target.
  if (error.field == "noise_multiplier" && !request.noise_multiplier) error.field = "target.epsilon";
  if (error.field == "target_epsilon") error.field = "target.epsilon";
  if (error.field == "steps" && request.epochs_given) error.field = "epochs";
  return at_path(std::move(error), request.at);
}

Result<DpsgdRequest> read_dpsgd(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().dpsgd;
  DpsgdRequest read;
  read.at = at;
  if (has_field(request, "unknown")) return read_solve_request(request, std::move(read));
  DPCALC_TRY(read.setting, read_setting(request, at, shape, ""));
  DPCALC_TRY(read.steps, read_steps(request, at, shape, read.setting, ""));
  read.epochs_given = has_field(request, "epochs");
  DPCALC_TRY(double delta, read_number(request, at, declared(shape, "delta")));
  DPCALC_TRY(read.delta, check_positive_delta(delta, field_path(at, "delta")));
  const bool has_noise = has_field(request, "noise_multiplier");
  const bool has_target = has_field(request, "target");
  if (has_noise && has_target) {
    return invalid_argument(field_path(at, "target"),
                            "Give either noise_multiplier (to get ε) or target:{epsilon} (to get the noise "
                            "multiplier), not both.");
  }
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  if (has_target) {
    const std::string target = field_path(at, "target");
    DPCALC_TRY(const Value* target_value, member(request, at, "target"));
    DPCALC_TRY(const Value* target_object, require_object(*target_value, target));
    DPCALC_TRY(read.target_epsilon, number_field(*target_object, target, "epsilon"));
    return read;
  }
  if (!has_noise) {
    return invalid_argument(field_path(at, "noise_multiplier"),
                            "noise_multiplier is required (or give target:{epsilon} to calibrate it).");
  }
  DPCALC_TRY(read.noise_multiplier, read_number(request, at, declared(shape, "noise_multiplier")));
  return read;
}

Result<DpsgdAnswer> answer_dpsgd(const DpsgdRequest& request, const Progress& progress) {
  DpsgdAnswer answer;
  answer.request = request;
  const pld::AccountingOptions& options = request.discretization.options;
  if (!request.unknown.empty()) {
    answer.kind = DpsgdAnswer::Kind::kSolved;
    DPCALC_TRY(answer.solved, dpsgd_solve(request, answer.solved_steps, progress));
    return answer;
  }
  if (request.target_epsilon) {
    answer.kind = DpsgdAnswer::Kind::kCalibration;
    Result<dpsgd::Calibration> calibrated = dpsgd::calibrate(request.setting, request.steps.steps, request.delta,
                                                             *request.target_epsilon, progress, options);
    if (!calibrated.ok()) return in_request(std::move(calibrated).error(), request);
    answer.calibration = calibrated.value();
    return answer;
  }
  Result<dpsgd::GroupGuarantee> guaranteed = dpsgd::group_guarantee(
      request.setting, *request.noise_multiplier, request.steps.steps, request.delta, progress, options);
  if (!guaranteed.ok()) return in_request(std::move(guaranteed).error(), request);
  answer.forward = std::move(guaranteed.value());
  answer.accuracy = accuracy_note(answer.forward.tight, options);
  answer.numeric.asked.delta = request.delta;
  answer.numeric.asked.epsilon_at = answer.forward.tight;
  answer.numeric.plds = std::make_shared<const pld::ComposedPlds>(std::move(answer.forward.tight_plds));
  answer.forward.tight_plds = {};
  return answer;
}

Value write_dpsgd(const DpsgdAnswer& answer) {
  Value result = Value::object();
  switch (answer.kind) {
    case DpsgdAnswer::Kind::kForward:
      write_forward(result, answer);
      break;
    case DpsgdAnswer::Kind::kCalibration:
      write_calibration(result, answer);
      break;
    case DpsgdAnswer::Kind::kSolved:
      write_solved(result, answer.solved);
      result.set("noise_multiplier", *answer.request.noise_multiplier);
      if (answer.request.unknown != "steps") result.set("steps", answer.solved_steps.steps);
      if (!answer.solved_steps.note.empty()) result.set("steps_note", answer.solved_steps.note);
      set_method(result, dpsgd::kTightMethod);
      break;
  }
  return result;
}

Result<bool> dpsgd_explainable(const DpsgdRequest& request) {
  if (request.noise_multiplier && request.unknown.empty()) return true;
  return invalid_argument(field_path(request.at, "target"),
                          "The trade-off is computed for a given noise: give noise_multiplier (for instance the "
                          "one a calibration found) instead of target.");
}

Result<Explained> explain_dpsgd(const DpsgdAnswer& answer, const tradeoff::TradeoffOptions& options, const Progress&) {
  DPCALC_TRY(Explained explained, explain_plds(*answer.numeric.plds, answer.numeric.asked, options));
  explained.group_size = answer.request.setting.group_size;
  return explained;
}

Result<DpsgdPairRequest> read_dpsgd_pair(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().dpsgd_pair;
  DpsgdPairRequest read;
  read.at = at;
  DPCALC_TRY(read.setting, read_setting(request, at, shape, ""));
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
  if (answer.setting.sampling == dpsgd::Sampling::kFixedBatch) result.set("note", kFixedBatchNote);
  set_method(result, dpsgd::kWorstCasePair);
  return result;
}

}  // namespace dpcalc::api
