#include "dpcalc/api/group_engine.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/kept_answer.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "dpcalc/pld/group_over_profile.hpp"

namespace dpcalc::api {
namespace {

// The engine names the one item it composes this way.
const std::string kEngineItem = "items.0.mechanism";

// The tail mass one record's PLD may cut when the group is answered over its profile, unless the
// request sets it: the cut mass is the smallest δ(ε) the PLD certifies, and a group of k needs one
// record's δ(ε) near δ_group / ((e^{kε} − 1)/(e^ε − 1)), far below the 1e-14 that composition
// defaults to (a Gaussian with μ = 0.5 needs 5e-19 for a group of 8 at δ = 1e-5). It makes the grid
// about 1.5 times as wide, for one mechanism composed once.
constexpr double kProfileTailMass = 1e-30;
// The δ at which one record's PLD is composed (refined until its ε bracket is as narrow as asked)
// stays at least this when δ/k is smaller: the refinement would otherwise grow the grid 64-fold for
// groups that no per-record ε can serve but a pure one (a group of 10^8 at δ = 1e-5), at the same
// accuracy where a point does meet. The search reads δ(ε) at every ε all the same.
constexpr double kProfileEngineDelta = 1e-10;

// The note of every answer over the privacy profile: what it is, and what it is not.
constexpr const char* kProfileNote =
    "A generic bound: group privacy of approximate DP (Vadhan 2017, Lemma 2.2) applied to the mechanism's own "
    "(ε, δ) at the per-record ε that gives the smallest group ε (per_record). It is not a tight analysis of the "
    "group, which the calculator has only for Poisson-subsampled Gaussian or Laplace noise: the group's true ε may "
    "be much smaller.";

struct GroupRequest {
  mechanisms::MechanismPtr mechanism;  // as the request gives it
  // As the group sees it; null when the mechanism has no group transform, whose group is answered
  // over its own privacy profile.
  mechanisms::MechanismPtr grouped;
  double group_size = 1;
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;
  double delta = 0;
  pld::AccountingOptions options;
};

// The request as group_op has checked it, read again for what the engine needs.
Result<GroupRequest> read_group_request(const Value& request) {
  GroupRequest read;
  DPCALC_TRY(read.mechanism, read_mechanism(*request.find("mechanism"), "mechanism"));
  DPCALC_TRY(read.group_size, number_field(request, "", "k"));
  Result<mechanisms::MechanismPtr> grouped = read.mechanism->for_group(read.group_size);
  if (grouped.ok()) {
    read.grouped = grouped.value();
  } else if (grouped.error().code != kUnsupported) {
    return grouped.error();
  }
  DPCALC_TRY(read.relation, read_relation(request));
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(read.delta, check_positive_delta(delta, "delta"));
  pld::AccountingOptions defaults;
  if (!read.grouped) defaults.tail_mass_truncation = kProfileTailMass;
  DPCALC_TRY(read.options, read_discretization(request, defaults));
  return read;
}

// The group's pair at the request's δ; without a group transform, one record's pair at δ/k, where the
// profile's search starts (pld::best_group_point: no per-record δ above δ/k meets the group's δ), or
// at kProfileEngineDelta when δ/k is smaller.
Result<pld::AnsweredEpsilon> compose_group(const Value& request, const GroupRequest& read,
                                           const pld::ProgressCallback& progress) {
  const mechanisms::Mechanism& composed = read.grouped ? *read.grouped : *read.mechanism;
  const double delta =
      read.grouped ? read.delta : std::max(read.delta / read.group_size, std::min(read.delta, kProfileEngineDelta));
  auto answered = pld::epsilon_for_delta_with_plds({pld::CompositionItem{composed.pair(read.relation), 1}}, delta,
                                                   read.options, progress);
  if (!answered.ok()) return in_group_terms(answered.error(), *read.mechanism, request);
  return std::move(answered.value());
}

void set_grid(Value& result, const pld::Discretization& grid) {
  result.set("discretization", grid.discretization_interval);
  result.set("grid_size", static_cast<double>(grid.grid_size));
  result.set("truncated_mass", grid.truncated_mass);
}

// A pure mechanism asked without δ: its pure group guarantee kε (Dwork & Roth 2014, Thm 2.2), the
// profile's point at ε₀ where δ(ε₀) = 0.
Result<Value> pure_group(const Value& request, double pure_epsilon, double group_size) {
  if (has_field(request, "discretization")) {
    return does_not_apply("discretization",
                          "without delta the group guarantee of a pure ε-DP mechanism is k·ε (no grid)");
  }
  Value result = Value::object();
  result.set("guarantee", to_value(group_privacy(PureDp{pure_epsilon}, group_size)));
  result.set("per_record", to_value(PureDp{pure_epsilon}));
  set_method(result, kGroupPure);
  result.set("note",
             "Group privacy of the mechanism's pure ε, a generic bound (with delta: group privacy over its whole "
             "privacy profile, Vadhan 2017, Lemma 2.2, which is never larger).");
  return result;
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

Result<Value> group_by_profile(const Value& request, const mechanisms::Mechanism& mechanism, double group_size,
                               const pld::ProgressCallback& progress) {
  const auto pure = mechanism.pure_epsilon();
  if (pure && !has_field(request, "delta")) return pure_group(request, *pure, group_size);
  DPCALC_TRY(const GroupRequest read, read_group_request(request));
  DPCALC_TRY(pld::AnsweredEpsilon answered, compose_group(request, read, progress));
  const std::optional<pld::GroupPoint> best = pld::best_group_point(answered.plds, group_size, read.delta, pure);
  const pld::Discretization grid = answered.bracket.discretization;
  keep_answer(request, std::move(answered));  // for its trade-off
  if (!best) {
    return Error{kNumeric, "delta",
                 "No per-record ε of this mechanism keeps a group of k = " + format_number(group_size) +
                     " within delta: its δ(ε) (e^{kε} − 1)/(e^ε − 1) (Vadhan 2017, Lemma 2.2) stays above " +
                     format_number(read.delta) + " at every ε. Give a larger delta or a smaller k."};
  }
  Value result = Value::object();
  result.set("guarantee", to_value(ApproxDp{best->group.epsilon, read.delta}));
  result.set("per_record", to_value(best->per_record));
  set_grid(result, grid);
  set_method(result, pld::kGroupOverProfile);
  result.set("note", kProfileNote);
  return finite_or_overflow(std::move(result), noise_field(mechanism));
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
  set_grid(result, answer.discretization);
  set_method(result, read.mechanism->group_method());
  const std::string note = accuracy_note(answer, read.options);
  if (!note.empty()) result.set("note", note);
  return result;
}

}  // namespace dpcalc::api
