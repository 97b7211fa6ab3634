// {op:'dpsgd', ...}: DP-SGD for a group of k examples, forward (noise_multiplier given) or
// calibration (target:{epsilon}); see docs/API.md and dpcalc/dpsgd/group_accountant.hpp.
// {op:'dpsgd_pair', ...}: the densities of its one-step worst-case pair (dpcalc/dpsgd/pair_density.hpp).
#include <cmath>
#include <string>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/dpsgd_request.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/kept_answer.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/pair_density.hpp"

namespace dpcalc::api {
namespace {

// The request as its answer is kept (kept_answer.hpp): epochs as the steps they make, so that the
// page's trade-off request, which gives those steps, finds the answer to a request that gave epochs.
Value with_steps(const Value& request, double steps) {
  Value keyed = Value::object();
  for (const auto& [name, value] : request.as_object()) {
    if (name != "epochs" && name != "steps") keyed.set(name, value);
  }
  return keyed.set("steps", steps);
}

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

// The RDP row's note: unproven for groups; for one example, the standard accountant.
const char* rdp_note(const dpsgd::GroupSetting& setting) {
  if (setting.group_size > 1) return kRdpOverapproxNote;
  return setting.sampling == dpsgd::Sampling::kPoisson ? kRdpStandardNote : kRdpStandardFixedBatchNote;
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

Result<Value> forward(const Value& request, const dpsgd::GroupSetting& setting, const Steps& steps, double delta,
                      const pld::AccountingOptions& options, const pld::ProgressCallback& progress) {
  DPCALC_TRY(double noise_multiplier, number_field(request, "", "noise_multiplier"));
  Result<dpsgd::GroupGuarantee> guaranteed =
      dpsgd::group_guarantee(setting, noise_multiplier, steps.steps, delta, progress, options);
  if (!guaranteed.ok()) return in_request_terms(guaranteed.error(), request);
  dpsgd::GroupGuarantee& answer = guaranteed.value();
  keep_answer(with_steps(request, steps.steps), {answer.tight, std::move(answer.tight_plds)});  // for its trade-off
  Value result = Value::object();
  result.set("guarantee", to_value(ApproxDp{answer.tight.epsilon_upper, delta}));
  result.set("epsilon_lower", answer.tight.epsilon_lower);
  Value methods = Value::object();
  Value tight = Value::object();
  tight.set("epsilon", answer.tight.epsilon_upper).set("epsilon_lower", answer.tight.epsilon_lower);
  tight.set("discretization", answer.tight.discretization.discretization_interval);
  const std::string wide = accuracy_note(answer.tight, options);
  if (!wide.empty()) tight.set("note", wide);
  set_method(tight, dpsgd::kTightMethod);
  methods.set("pld", tight);
  Value overapprox = Value::object();
  if (answer.rdp_overapprox && std::isfinite(answer.rdp_overapprox->epsilon)) {
    overapprox.set("epsilon", answer.rdp_overapprox->epsilon).set("order", answer.rdp_overapprox->order);
    overapprox.set("note", rdp_note(setting));
  } else {
    overapprox.set("available", false);
    overapprox.set("note", answer.rdp_overapprox ? "No Rényi order gives a finite bound."
                                                 : "Sommer's over-approximation is stated for add/remove of the "
                                                   "group only; not defined for substitution.");
  }
  set_method(overapprox, dpsgd::kRdpOverapproxMethod);
  methods.set("rdp_overapprox", overapprox);
  Value generic = to_value(answer.generic_group);
  generic.set("per_example", to_value(ApproxDp{answer.generic_group.epsilon / setting.group_size, delta}));
  if (is_vacuous(answer.generic_group)) generic.set("vacuous", true);
  set_method(generic, dpsgd::kGenericGroupMethod);
  methods.set("generic_group", generic);
  result.set("methods", methods);
  result.set("noise_multiplier", noise_multiplier);
  describe_setting(result, setting, steps);
  return result;
}

Result<Value> calibration(const Value& request, const dpsgd::GroupSetting& setting, const Steps& steps, double delta,
                          const pld::AccountingOptions& options, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const Value* target, member(request, "", "target"));
  DPCALC_TRY(const Value* target_object, require_object(*target, "target"));
  DPCALC_TRY(double epsilon, number_field(*target_object, "target", "epsilon"));
  Result<dpsgd::Calibration> calibrated =
      dpsgd::calibrate(setting, steps.steps, delta, epsilon, "target.epsilon", progress, options);
  if (!calibrated.ok()) return in_request_terms(calibrated.error(), request);
  const dpsgd::Calibration& answer = calibrated.value();
  Value result = Value::object();
  result.set("noise_multiplier", answer.noise_multiplier);
  result.set("guarantee", to_value(ApproxDp{answer.tight.epsilon_upper, delta}));
  result.set("epsilon_lower", answer.tight.epsilon_lower);
  Value rule = Value::object();
  rule.set("noise_multiplier", answer.rule_of_thumb_noise_multiplier);
  if (answer.rule_of_thumb) {
    rule.set("epsilon", answer.rule_of_thumb->epsilon_upper);
    rule.set("epsilon_lower", answer.rule_of_thumb->epsilon_lower);
    rule.set("note",
             "Sommer's rule of thumb (k times the noise multiplier calibrated for k = 1) is a way to choose σ, "
             "not a bound; epsilon is that σ's tight upper bound at group size k.");
  } else {
    rule.set("available", false);
    rule.set("note", "Sommer's rule of thumb (k times the noise multiplier calibrated for k = 1) gives σ = " +
                         format_number(answer.rule_of_thumb_noise_multiplier) +
                         ", too little noise for this group: its privacy loss exceeds what the numeric composition "
                         "represents, so its ε is in the hundreds at any practical δ.");
  }
  result.set("rule_of_thumb", rule);
  describe_setting(result, setting, steps);
  return result;
}

// What every dpsgd request holds: the setting, the steps and the δ.
struct Common {
  dpsgd::GroupSetting setting;
  Steps steps;
  double delta;
};

Result<Common> read_common(const Value& request) {
  DPCALC_TRY(dpsgd::GroupSetting setting, read_setting(request));
  DPCALC_TRY(Steps steps, read_steps(request, setting));
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double checked_delta, check_positive_delta(delta, "delta"));
  return Common{setting, steps, checked_delta};
}

bool has_member(const Value& request, const char* key) {
  return request.find(key) != nullptr && !request.find(key)->is_null();
}

}  // namespace

Result<Value> dpsgd_op(const Value& request, const pld::ProgressCallback& progress) {
  if (has_member(request, "unknown")) return dpsgd_solve(request, progress);
  DPCALC_TRY(Common common, read_common(request));
  const bool has_noise = has_member(request, "noise_multiplier");
  const bool has_target = has_member(request, "target");
  if (has_noise && has_target) {
    return invalid_argument("target",
                            "Give either noise_multiplier (to get ε) or target:{epsilon} (to get the noise "
                            "multiplier), not both.");
  }
  DPCALC_TRY(pld::AccountingOptions options, read_discretization(request));
  if (has_target) return calibration(request, common.setting, common.steps, common.delta, options, progress);
  if (!has_noise) {
    return invalid_argument("noise_multiplier",
                            "noise_multiplier is required (or give target:{epsilon} to calibrate it).");
  }
  return forward(request, common.setting, common.steps, common.delta, options, progress);
}

Result<std::shared_ptr<const pld::AnsweredEpsilon>> answered_dpsgd_request(const Value& request,
                                                                           const pld::ProgressCallback& progress) {
  DPCALC_TRY(Common common, read_common(request));
  if (has_member(request, "target")) {
    return invalid_argument("target",
                            "The trade-off is computed for a given noise: give noise_multiplier (for instance the "
                            "one a calibration found) instead of target.");
  }
  DPCALC_TRY(double noise_multiplier, number_field(request, "", "noise_multiplier"));
  DPCALC_TRY(pld::AccountingOptions options, read_discretization(request));
  if (auto kept = kept_answer(with_steps(request, common.steps.steps))) return kept;
  auto answered =
      dpsgd::tight_plds(common.setting, noise_multiplier, common.steps.steps, common.delta, progress, options);
  if (!answered.ok()) return in_request_terms(answered.error(), request);
  return std::make_shared<const pld::AnsweredEpsilon>(std::move(answered.value()));
}

// The pair needs no accounting: it is drawn even where the composition is refused.
Result<Value> dpsgd_pair_op(const Value& request) {
  DPCALC_TRY(dpsgd::GroupSetting setting, read_setting(request));
  DPCALC_TRY(double noise_multiplier, number_field(request, "", "noise_multiplier"));
  DPCALC_TRY(auto points, optional_number_field(request, "", "points"));
  DPCALC_TRY(dpsgd::PairDensities densities,
             dpsgd::pair_densities(setting, noise_multiplier, points.value_or(dpsgd::kDefaultDensityPoints)));
  Value result = Value::object();
  result.set("noise_multiplier", noise_multiplier);
  result.set("mixture", mixture_value(setting));
  result.set("x", Value::numbers(densities.x));
  result.set("p", Value::numbers(densities.p));
  result.set("q", Value::numbers(densities.q));
  if (setting.sampling == dpsgd::Sampling::kFixedBatch) result.set("note", kFixedBatchNote);
  set_method(result, dpsgd::kWorstCasePair);
  return result;
}

}  // namespace dpcalc::api
