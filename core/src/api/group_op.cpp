#include "dpcalc/api/group_op.hpp"

#include <cmath>
#include <variant>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::api {
namespace {

const Shape& group_shape() { return request_shapes().group; }

// The request's delta, which the group guarantee of Gaussian noise, of a zCDP bound and of the
// engine's answers needs.
Result<double> required_delta(const GroupRequest& request) {
  if (!request.delta) return required_field(request.at, "delta");
  return check_positive_delta(*request.delta, field_path(request.at, "delta"));
}

Error not_applying(const GroupRequest& request, const char* field, const std::string& because) {
  return does_not_apply(field_path(request.at, field), because);
}

Result<GroupAnswer> group_of_guarantee(const GroupRequest& request, GroupAnswer answer) {
  const Guarantee& guarantee = *request.guarantee;
  answer.overflow_field = magnitude_field(guarantee, request.guarantee_path);
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) {
    answer.guarantee = group_privacy(*pure, request.k);
    answer.method = kGroupPure;
  } else if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) {
    answer.guarantee = group_privacy(*approx, request.k);
    answer.method = kGroupApprox;
  } else if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    answer.guarantee = group_privacy(*zcdp, request.k);
    answer.method = kGroupZcdp;
  } else {
    Result<RdpGroupResult> grouped = group_privacy(std::get<RdpCurve>(guarantee), request.k);
    if (!grouped.ok()) return at_path(std::move(grouped).error(), request.guarantee_path);
    answer.guarantee = grouped.value().curve;
    answer.power_of_two = grouped.value().power_of_two;
    answer.dropped = grouped.value().dropped;
    answer.method = kGroupRdp;
  }
  return answer;
}

// Gaussian noise at sensitivity kΔ (`grouped`), beside the generic bounds a person would otherwise
// use from its one-record noise (`single`): the approximate-DP group bound of its one-record
// (ε, δ), the zCDP group bound k²ρ converted to (ε, δ), and, for contrast, k-fold composition (a
// Gaussian with σ/√k: kρ).
Result<GroupAnswer> group_of_gaussian(const GroupRequest& request, const mechanisms::GaussianNoise& single,
                                      const mechanisms::GaussianNoise& grouped, GroupAnswer answer) {
  DPCALC_TRY(const double delta, required_delta(request));
  const GaussianGroupResult exact = gaussian_group_privacy(grouped.sigma, grouped.sensitivity, 1, delta);
  answer.kind = GroupAnswer::Kind::kGaussian;
  answer.guarantee = exact.approx;
  answer.rho = exact.zcdp.rho;
  GaussianComparison& compared = answer.gaussian;
  compared.per_record = gaussian_group_privacy(single.sigma, single.sensitivity, 1, delta).approx;
  compared.generic_approx = group_privacy(compared.per_record, request.k);
  compared.rho = exact.zcdp.rho;
  compared.generic_zcdp = zcdp_to_approx_canonne_kamath_steinke(exact.zcdp, delta);
  compared.composition_rho = gaussian_to_zcdp(single.sigma, single.sensitivity).rho * request.k;
  const double mu_composed = std::sqrt(request.k) * single.sensitivity / single.sigma;
  compared.composition = ApproxDp{gaussian_epsilon_for_delta(mu_composed, delta), delta};
  return answer;
}

// A zCDP bound converted to (ε, δ) at the request's δ (Canonne, Kamath, Steinke 2020, Cor 13).
Result<GroupAnswer> group_of_zcdp(const GroupRequest& request, const Zcdp& zcdp, GroupAnswer answer) {
  DPCALC_TRY(const double delta, required_delta(request));
  answer.kind = GroupAnswer::Kind::kZcdp;
  answer.guarantee = zcdp_to_approx_canonne_kamath_steinke(zcdp, delta);
  answer.rho = zcdp.rho;
  return answer;
}

// A mechanism with no group transform (for_group is unsupported): its zCDP bound at group size k,
// k²ρ (Bun & Steinke 2016, Prop 1.9), where one is known that is not merely its pure ε's (discrete
// Gaussian noise beyond the lattice its transform builds), else group privacy over its own privacy
// profile (group_engine.cpp).
Result<GroupAnswer> group_without_transform(const GroupRequest& request, GroupAnswer answer, const Progress& progress) {
  const mechanisms::Mechanism& mechanism = *request.mechanism->mechanism;
  const auto zcdp = mechanism.zcdp();
  if (!zcdp || mechanism.pure_epsilon()) return group_by_profile(request, std::move(answer), progress);
  if (request.discretization.given) {
    return not_applying(
        request, "discretization",
        "the group guarantee of a mechanism of type '" + mechanism.type().name + "' is its zCDP bound k²ρ (no grid)");
  }
  answer.method = mechanism.group_method();
  return group_of_zcdp(request, group_privacy(*zcdp, request.k), std::move(answer));
}

// The mechanism as a group of k records sees it (mechanisms::Mechanism::for_group): pure ε-DP
// where it is pure, the exact Gaussian analysis where it is Gaussian noise, its zCDP bound
// converted to (ε, δ) where that is what is known, and otherwise its pair composed by the PLD
// engine; without a group transform, group_without_transform. The engine's answers are the only
// ones that read `discretization`.
Result<GroupAnswer> group_of_mechanism(const GroupRequest& request, GroupAnswer answer, const Progress& progress) {
  const mechanisms::Mechanism& mechanism = *request.mechanism->mechanism;
  answer.overflow_field = noise_path(*request.mechanism);
  if (request.k > mechanism.max_group_size()) {
    return invalid_argument(field_path(request.at, "k"), "k must be at most " +
                                                             format_number(mechanism.max_group_size()) +
                                                             " for a mechanism of type '" + mechanism.type().name +
                                                             "': the pair of its group has k + 1 components.");
  }
  // A mechanism that reveals nothing (a sampling rate of 0) reveals nothing of a group either.
  if (mechanism.pure_epsilon() == 0.0) {
    if (request.delta) {
      return not_applying(request, "delta",
                          "the group guarantee of a mechanism that reveals nothing (a sampling rate of 0) is pure "
                          "0-DP (δ = 0)");
    }
    answer.kind = GroupAnswer::Kind::kPure;
    answer.guarantee = PureDp{0};
    answer.method = kGroupPure;
    return answer;
  }
  // One without noise has no finite ε for any group at any δ < 1 (δ = 1 at every ε): the answer
  // needs no δ (with one, the engine's says the same at it).
  if (mechanism.reveals_input() && !request.delta) {
    PldQueries asked;
    asked.epsilon = 0.0;
    answer.guarantee = ApproxDp{0, 1};
    answer.method = no_guarantee_answer(asked, "").method;
    return answer;
  }
  Result<mechanisms::MechanismPtr> transformed = mechanism.for_group(request.k);
  if (!transformed.ok()) {
    if (transformed.error().code == kUnsupported) return group_without_transform(request, std::move(answer), progress);
    // k·Δ beyond the doubles is an overflow of the answer, which the noise would have to absorb.
    if (transformed.error().code != kInvalidArgument)
      return on_mechanism(std::move(transformed).error(), *request.mechanism);
    return overflowed(answer.overflow_field);
  }
  answer.grouped = transformed.value();
  const mechanisms::Mechanism& grouped = *answer.grouped;
  if (!needs_engine(grouped) && request.discretization.given) {
    return not_applying(
        request, "discretization",
        "the group guarantee of a mechanism of type '" + mechanism.type().name + "' is in closed form (no grid)");
  }
  answer.method = mechanism.group_method();
  if (const auto epsilon = grouped.pure_epsilon()) {
    if (request.delta) {
      return not_applying(
          request, "delta",
          "the group guarantee of a mechanism of type '" + mechanism.type().name + "' is pure ε-DP (δ = 0)");
    }
    answer.kind = GroupAnswer::Kind::kPure;
    answer.guarantee = PureDp{*epsilon};
    return answer;
  }
  if (const auto noise = grouped.gaussian()) {
    return group_of_gaussian(request, *mechanism.gaussian(), *noise, std::move(answer));
  }
  // What is left is known best by its pair at group size k (needs_engine: discrete Gaussian noise at
  // kΔ, whose exact pair is tighter than its zCDP bound k²ρ converted (σ = 1, k = 2, δ = 1e-6: 10.90
  // against 11.69), a subsampled Gaussian's group, a mixture), composed once by the engine.
  return group_by_engine(request, std::move(answer), progress);
}

void write_gaussian(Value& result, const GroupAnswer& answer) {
  const GaussianComparison& compared = answer.gaussian;
  result.set("zcdp", Value::object().set("rho", *answer.rho));
  Value generic = Value::object();
  generic.set("per_record", to_value(compared.per_record));
  Value generic_approx = Value::object();
  generic_approx.set("guarantee", to_value(compared.generic_approx));
  if (is_vacuous(compared.generic_approx)) generic_approx.set("vacuous", true);
  set_method(generic_approx, kGroupApprox);
  generic.set("approx", generic_approx);
  Value generic_zcdp = Value::object();
  generic_zcdp.set("rho", compared.rho);
  generic_zcdp.set("guarantee", to_value(compared.generic_zcdp));
  set_method(generic_zcdp, kZcdpCanonneKamathSteinke);
  generic.set("zcdp", generic_zcdp);
  result.set("generic", generic);
  Value composition = Value::object();
  composition.set("rho", compared.composition_rho);
  composition.set("guarantee", to_value(compared.composition));
  composition.set("method", "k-fold composition of the Gaussian mechanism (a Gaussian with σ/√k)");
  set_citation(composition, "Bun & Steinke 2016, Lemma 2.3; Balle & Wang 2018, Thm 8",
               "bun2016concentrated balle2018improving");
  result.set("composition", composition);
}

}  // namespace

bool needs_engine(const mechanisms::Mechanism& grouped) { return !grouped.pure_epsilon() && !grouped.gaussian(); }

Result<GroupRequest> read_group(const Value& request, const std::string& at) {
  const Shape& shape = group_shape();
  GroupRequest read;
  read.at = at;
  if (has_field(request, "unknown")) {
    read.solve = true;
    DPCALC_TRY(auto unknown, optional_string_field(request, at, "unknown"));
    if (unknown && *unknown == "group_size") {
      return invalid_argument(field_path(at, "unknown"), "op 'group' calls the group size k: use unknown: 'k'.");
    }
    DPCALC_CHECK(read_choice(request, at, declared(shape, "unknown")));
    if (has_field(request, "k")) return given_unknown(field_path(at, "k"), "k");
    if (has_field(request, "delta")) {
      return invalid_argument(field_path(at, "delta"),
                              "With unknown 'k' the δ is the target's: leave delta out and give "
                              "target:{epsilon, delta}.");
    }
    const std::string target = field_path(at, "target");
    DPCALC_TRY(const Value* target_value, member(request, at, "target"));
    DPCALC_TRY(const Value* target_object, require_object(*target_value, target));
    DPCALC_TRY(double epsilon, number_field(*target_object, target, "epsilon"));
    DPCALC_TRY(read.target_epsilon, check_epsilon(epsilon, field_path(target, "epsilon")));
    DPCALC_TRY(read.target_delta, optional_number_field(*target_object, target, "delta"));
    if (read.target_delta) {
      DPCALC_TRY(read.target_delta, check_positive_delta(*read.target_delta, field_path(target, "delta")));
    }
  } else {
    DPCALC_TRY(double k, read_number(request, at, declared(shape, "k")));
    DPCALC_TRY(read.k, check_count(k, field_path(at, "k")));
  }
  const bool has_mechanism = has_field(request, "mechanism");
  if (has_mechanism && has_field(request, "guarantee")) {
    return invalid_argument(field_path(at, "mechanism"), "Give either a guarantee or a mechanism, not both.");
  }
  DPCALC_TRY(read.delta, read_optional_number(request, at, declared(shape, "delta")));
  if (!has_mechanism) {
    if (has_field(request, "relation")) {
      return does_not_apply(field_path(at, "relation"),
                            "a guarantee already holds under the relation it was stated for");
    }
    if (has_field(request, "discretization")) {
      return does_not_apply(field_path(at, "discretization"),
                            "the group bound of a guarantee is in closed form (no grid)");
    }
    if (read.delta) {
      return does_not_apply(field_path(at, "delta"),
                            "the group bound of a guarantee follows from the guarantee alone (give an "
                            "'approx' guarantee for (ε, δ)-DP)");
    }
    read.guarantee_path = field_path(at, "guarantee");
    DPCALC_TRY(const Value* value, member(request, at, "guarantee"));
    DPCALC_TRY(read.guarantee, read_guarantee(*value, read.guarantee_path));
    return read;
  }
  DPCALC_TRY(read.mechanism, read_mechanism(*request.find("mechanism"), field_path(at, "mechanism")));
  DPCALC_TRY(read.relation, read_relation(request, at, declared(shape, "relation")));
  DPCALC_CHECK(check_relation(*read.mechanism, read.relation));
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  return read;
}

Result<GroupAnswer> answer_group(const GroupRequest& request, const Progress& progress) {
  GroupAnswer answer;
  answer.request = request;
  if (request.solve) {
    answer.kind = GroupAnswer::Kind::kSolved;
    DPCALC_TRY(answer.solved, group_solve(request, progress));
    return answer;
  }
  if (request.guarantee) return group_of_guarantee(request, std::move(answer));
  return group_of_mechanism(request, std::move(answer), progress);
}

Value write_group(const GroupAnswer& answer) {
  Value result = Value::object();
  switch (answer.kind) {
    case GroupAnswer::Kind::kSolved:
      write_solved(result, answer.solved);
      return result;
    case GroupAnswer::Kind::kEngine:
    case GroupAnswer::Kind::kProfile:
    case GroupAnswer::Kind::kPureProfile:
      result.set("guarantee", to_value(answer.guarantee));
      if (answer.kind == GroupAnswer::Kind::kEngine) {
        // No finite ε (a mechanism without noise) is written "infinity", and the answer is vacuous.
        result.set("epsilon_upper", renyi_value(answer.numeric.asked.epsilon_at->epsilon_upper));
        result.set("epsilon_lower", renyi_value(answer.numeric.asked.epsilon_at->epsilon_lower));
        if (std::isinf(answer.numeric.asked.epsilon_at->epsilon_upper)) result.set("vacuous", true);
      } else {
        result.set("per_record", to_value(*answer.per_record));
      }
      if (answer.kind != GroupAnswer::Kind::kPureProfile) {
        const pld::Discretization& grid = answer.numeric.asked.epsilon_at->discretization;
        result.set("discretization", grid.discretization_interval);
        result.set("grid_size", static_cast<double>(grid.grid_size));
        result.set("truncated_mass", grid.truncated_mass);
      }
      set_method(result, answer.method);
      if (!answer.numeric.note.empty()) result.set("note", answer.numeric.note);
      return result;
    default:
      break;
  }
  result.set("guarantee", to_value(answer.guarantee));
  set_method(result, answer.method);
  if (const auto* approx = std::get_if<ApproxDp>(&answer.guarantee);
      approx && is_vacuous(*approx) && answer.kind == GroupAnswer::Kind::kGuarantee) {
    result.set("vacuous", true);
  }
  if (std::holds_alternative<RdpCurve>(answer.guarantee)) {
    result.set("power_of_two", answer.power_of_two);
    result.set("dropped_orders", answer.dropped);
  }
  if (answer.kind == GroupAnswer::Kind::kGaussian) write_gaussian(result, answer);
  if (answer.kind == GroupAnswer::Kind::kZcdp) result.set("zcdp", Value::object().set("rho", *answer.rho));
  return result;
}

Result<bool> group_explainable(const GroupRequest& request) {
  if (!request.solve) return true;
  return invalid_argument(field_path(request.at, "unknown"),
                          "The trade-off is that of a forward request: give k (for instance the group this solve "
                          "finds) instead of unknown.");
}

Result<Explained> explain_group(const GroupAnswer& answer, const tradeoff::TradeoffOptions& options,
                                const Progress& progress) {
  const GroupRequest& request = answer.request;
  Result<Explained> explained = Error{};
  if (request.guarantee || (!answer.grouped && request.mechanism->mechanism->reveals_input())) {
    explained = explain_guarantee(answer.guarantee, options);
  } else if (!answer.grouped) {
    explained = explain_group_over_profile(answer, options);
  } else if (const auto noise = answer.grouped->gaussian()) {
    explained = explain_mu(tradeoff::round_up(noise->sensitivity / noise->sigma, 1), options);
  } else if (answer.kind == GroupAnswer::Kind::kEngine) {
    explained = explain_numeric(answer.numeric, options);
  } else {
    // A mechanism that is not Gaussian noise (Laplace): its own pair at k Δ, tighter than the pure
    // kε the group op answers (the Laplace curve, Dong, Roth, Su 2019, against f_{kε, 0}), under the
    // request's relation.
    auto plds =
        pld::compose_items({pld::CompositionItem{answer.grouped->pair(request.relation.relation), 1}}, {}, progress);
    if (!plds.ok()) return in_group_terms(std::move(plds).error(), request);
    PldQueries queries;
    if (request.delta) queries.delta = *request.delta;
    explained = explain_plds(plds.value(), queries, options);
  }
  if (!explained.ok()) return explained;
  explained.value().group_size = request.k;
  return explained;
}

}  // namespace dpcalc::api
