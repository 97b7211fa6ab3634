#include "dpcalc/api/group_engine.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/kept_answer.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The engine names the one item it composes this way.
const std::string kEngineItem = "items.0.mechanism";

struct GroupRequest {
  mechanisms::MechanismPtr mechanism;  // as the request gives it
  mechanisms::MechanismPtr grouped;    // as the group sees it
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;
  double delta = 0;
  pld::AccountingOptions options;
};

// The request as group_op has checked it, read again for what the engine needs.
Result<GroupRequest> read_group_request(const Value& request) {
  GroupRequest read;
  DPCALC_TRY(read.mechanism, read_mechanism(*request.find("mechanism"), "mechanism"));
  DPCALC_TRY(double group_size, number_field(request, "", "k"));
  DPCALC_TRY(read.grouped, read.mechanism->for_group(group_size));
  DPCALC_TRY(read.relation, read_relation(request));
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(read.delta, check_positive_delta(delta, "delta"));
  DPCALC_TRY(read.options, read_discretization(request));
  return read;
}

Result<pld::AnsweredEpsilon> compose_group(const Value& request, const GroupRequest& read,
                                           const pld::ProgressCallback& progress) {
  auto answered = pld::epsilon_for_delta_with_plds({pld::CompositionItem{read.grouped->pair(read.relation), 1}},
                                                   read.delta, read.options, progress);
  if (!answered.ok()) return in_group_terms(answered.error(), *read.mechanism, request);
  return std::move(answered.value());
}

}  // namespace

bool needs_engine(const mechanisms::Mechanism& grouped) {
  return !grouped.pure_epsilon() && !grouped.gaussian() && !grouped.zcdp();
}

Error in_group_terms(Error error, const mechanisms::Mechanism& mechanism, const Value& request) {
  if (error.field == "delta") return error;
  const std::string prefix = kEngineItem + ".";
  if (error.field.rfind(prefix, 0) != 0) {
    error = discretization_in_request_terms(error, request);
    // The automatic grid (no discretization given) is sized by the group: its size is what to change.
    const bool engine_option = error.field == "discretization_interval" || error.field == "relative_accuracy" ||
                               error.field == "tail_mass_truncation";
    if (engine_option) error.field = "k";
    return error;
  }
  const std::string name = error.field.substr(prefix.size());
  const mechanisms::Mechanism& inner = innermost(mechanism);
  const auto& parameters = inner.type().parameters;
  const bool own = std::any_of(parameters.begin(), parameters.end(),
                               [&](const mechanisms::Parameter& parameter) { return parameter.name == name; });
  const std::string mapped = own ? inner.arguments().field(name) : noise_field(mechanism);
  error.message = replace_all(error.message, error.field, mapped);
  error.field = mapped;
  return error;
}

Result<std::shared_ptr<const pld::AnsweredEpsilon>> answered_group_request(const Value& request,
                                                                           const pld::ProgressCallback& progress) {
  if (auto kept = kept_answer(request)) return kept;
  DPCALC_TRY(const GroupRequest read, read_group_request(request));
  DPCALC_TRY(pld::AnsweredEpsilon answered, compose_group(request, read, progress));
  return std::make_shared<const pld::AnsweredEpsilon>(std::move(answered));
}

Result<Value> group_by_engine(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const GroupRequest read, read_group_request(request));
  DPCALC_TRY(pld::AnsweredEpsilon answered, compose_group(request, read, progress));
  const pld::EpsilonBracket answer = answered.bracket;
  keep_answer(request, std::move(answered));  // for its trade-off
  if (!std::isfinite(answer.epsilon_upper)) return Error{kNumeric, "delta", "The group has no finite ε at this δ."};
  Value result = Value::object();
  result.set("guarantee",
             Value::object().set("type", "approx").set("epsilon", answer.epsilon_upper).set("delta", read.delta));
  result.set("epsilon_upper", answer.epsilon_upper);
  result.set("epsilon_lower", answer.epsilon_lower);
  result.set("discretization", answer.discretization.discretization_interval);
  result.set("grid_size", static_cast<double>(answer.discretization.grid_size));
  result.set("truncated_mass", answer.discretization.truncated_mass);
  set_method(result, read.mechanism->group_method());
  const std::string note = accuracy_note(answer, read.options);
  if (!note.empty()) result.set("note", note);
  return result;
}

}  // namespace dpcalc::api
