// {op:'group', k, guarantee} and {op:'group', k, mechanism, delta?}: see docs/API.md.
#include <cmath>
#include <variant>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/group_engine.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"

namespace dpcalc::api {
namespace {

Value group_result(const Value& guarantee, const MethodInfo& info) {
  Value result = Value::object();
  result.set("guarantee", guarantee);
  set_method(result, info);
  return result;
}

Result<Value> group_of_guarantee(const Guarantee& guarantee, double group_size) {
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) {
    return group_result(to_value(group_privacy(*pure, group_size)), kGroupPure);
  }
  if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) {
    const ApproxDp grouped = group_privacy(*approx, group_size);
    Value result = group_result(to_value(grouped), kGroupApprox);
    if (is_vacuous(grouped)) result.set("vacuous", true);
    return result;
  }
  if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    return group_result(to_value(group_privacy(*zcdp, group_size)), kGroupZcdp);
  }
  DPCALC_TRY(RdpGroupResult grouped, group_privacy(std::get<RdpCurve>(guarantee), group_size, "guarantee.orders"));
  Value result = group_result(to_value(grouped.curve), kGroupRdp);
  result.set("power_of_two", grouped.power_of_two);
  result.set("dropped_orders", grouped.dropped);
  return result;
}

Value approx_with_vacuous(const ApproxDp& guarantee) {
  Value value = Value::object();
  value.set("guarantee", to_value(guarantee));
  if (is_vacuous(guarantee)) value.set("vacuous", true);
  return value;
}

// Gaussian noise at sensitivity kΔ (`grouped`), beside the generic bounds a person would otherwise
// use from its one-record noise (`single`): the approximate-DP group bound of its one-record
// (ε, δ), the zCDP group bound k²ρ converted to (ε, δ), and, for contrast, k-fold composition (a
// Gaussian with σ/√k: kρ).
Result<Value> group_of_gaussian(const mechanisms::GaussianNoise& single, const mechanisms::GaussianNoise& grouped,
                                double group_size, const MethodInfo& info, const Value& request) {
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double checked_delta, check_positive_delta(delta, "delta"));
  const GaussianGroupResult answer = gaussian_group_privacy(grouped.sigma, grouped.sensitivity, 1, checked_delta);
  Value result = group_result(to_value(answer.approx), info);
  Value zcdp = Value::object();
  zcdp.set("rho", answer.zcdp.rho);
  result.set("zcdp", zcdp);

  const ApproxDp per_record = gaussian_group_privacy(single.sigma, single.sensitivity, 1, checked_delta).approx;
  Value generic = Value::object();
  generic.set("per_record", to_value(per_record));
  Value generic_approx = approx_with_vacuous(group_privacy(per_record, group_size));
  set_method(generic_approx, kGroupApprox);
  generic.set("approx", generic_approx);
  Value generic_zcdp = Value::object();
  generic_zcdp.set("rho", answer.zcdp.rho);
  generic_zcdp.set("guarantee", to_value(zcdp_to_approx_canonne_kamath_steinke(answer.zcdp, checked_delta)));
  set_method(generic_zcdp, kZcdpCanonneKamathSteinke);
  generic.set("zcdp", generic_zcdp);
  result.set("generic", generic);

  const Zcdp per_step = gaussian_to_zcdp(single.sigma, single.sensitivity);
  const double mu_composed = std::sqrt(group_size) * single.sensitivity / single.sigma;
  Value composition = Value::object();
  composition.set("rho", per_step.rho * group_size);
  composition.set("guarantee",
                  to_value(ApproxDp{gaussian_epsilon_for_delta(mu_composed, checked_delta), checked_delta}));
  composition.set("method", "k-fold composition of the Gaussian mechanism (a Gaussian with σ/√k)");
  set_citation(composition, "Bun & Steinke 2016, Lemma 2.3; Balle & Wang 2018, Thm 8",
               "bun2016concentrated balle2018improving");
  result.set("composition", composition);
  return result;
}

// A zCDP bound converted to (ε, δ) at the request's δ (Canonne, Kamath, Steinke 2020, Cor 13).
Result<Value> group_of_zcdp(const Zcdp& zcdp, const MethodInfo& info, const Value& request) {
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double checked_delta, check_positive_delta(delta, "delta"));
  Value result = group_result(to_value(zcdp_to_approx_canonne_kamath_steinke(zcdp, checked_delta)), info);
  result.set("zcdp", Value::object().set("rho", zcdp.rho));
  return result;
}

// A mechanism with no group transform (for_group is unsupported): its zCDP bound at group size k,
// k²ρ (Bun & Steinke 2016, Prop 1.9), where one is known that is not merely its pure ε's (discrete
// Gaussian noise beyond the lattice its transform builds, where this is the bound the transform
// gives), else group privacy over its own privacy profile (group_engine.hpp).
Result<Value> group_without_transform(const mechanisms::Mechanism& mechanism, double group_size, const Value& request,
                                      const pld::ProgressCallback& progress) {
  const auto zcdp = mechanism.zcdp();
  if (!zcdp || mechanism.pure_epsilon()) return group_by_profile(request, mechanism, group_size, progress);
  if (has_field(request, "discretization")) {
    return does_not_apply("discretization", "the group guarantee of a mechanism of type '" + mechanism.type().name +
                                                "' is its zCDP bound k²ρ (no grid)");
  }
  DPCALC_TRY(Value result, group_of_zcdp(group_privacy(*zcdp, group_size), mechanism.group_method(), request));
  return finite_or_overflow(std::move(result), noise_field(mechanism));
}

// The mechanism as a group of k records sees it (mechanisms::Mechanism::for_group): pure ε-DP
// where it is pure, the exact Gaussian analysis where it is Gaussian noise, its zCDP bound
// converted to (ε, δ) where that is what is known, and otherwise its pair composed by the PLD
// engine (group_engine.hpp); without a group transform, group_without_transform. The engine's
// answers are the only ones that read `discretization`.
Result<Value> group_of_mechanism(const mechanisms::Mechanism& mechanism, double group_size, const Value& request,
                                 const pld::ProgressCallback& progress) {
  const std::string overflow_field = noise_field(mechanism);
  if (group_size > mechanism.max_group_size()) {
    return invalid_argument("k", "k must be at most " + format_number(mechanism.max_group_size()) +
                                     " for a mechanism of type '" + mechanism.type().name +
                                     "': the pair of its group has k + 1 components.");
  }
  Result<mechanisms::MechanismPtr> transformed = mechanism.for_group(group_size);
  if (!transformed.ok()) {
    if (transformed.error().code == kUnsupported)
      return group_without_transform(mechanism, group_size, request, progress);
    // k·Δ beyond the doubles is an overflow of the answer, which the noise would have to absorb.
    if (transformed.error().code != kInvalidArgument) return transformed.error();
    return overflow(overflow_field);
  }
  const mechanisms::Mechanism& grouped = *transformed.value();
  if (!needs_engine(grouped) && has_field(request, "discretization")) {
    return does_not_apply("discretization", "the group guarantee of a mechanism of type '" + mechanism.type().name +
                                                "' is in closed form (no grid)");
  }
  const MethodInfo info = mechanism.group_method();
  if (const auto epsilon = grouped.pure_epsilon()) {
    if (has_field(request, "delta")) {
      return does_not_apply(
          "delta", "the group guarantee of a mechanism of type '" + mechanism.type().name + "' is pure ε-DP (δ = 0)");
    }
    return finite_or_overflow(group_result(to_value(PureDp{*epsilon}), info), overflow_field);
  }
  if (const auto noise = grouped.gaussian()) {
    DPCALC_TRY(Value result, group_of_gaussian(*mechanism.gaussian(), *noise, group_size, info, request));
    return finite_or_overflow(std::move(result), overflow_field);
  }
  // Noise known by its zCDP bound only (discrete Gaussian noise at kΔ): ρ, converted to (ε, δ)
  // (Canonne, Kamath, Steinke 2020, Cor 13).
  if (const auto zcdp = grouped.zcdp()) {
    DPCALC_TRY(Value result, group_of_zcdp(*zcdp, info, request));
    return finite_or_overflow(std::move(result), overflow_field);
  }
  // What is left is known by its pair only (needs_engine: a subsampled Gaussian's group, a mixture).
  return group_by_engine(request, progress);
}

}  // namespace

Result<Value> group_op(const Value& request, const pld::ProgressCallback& progress) {
  if (has_field(request, "unknown")) return group_solve(request, progress);
  DPCALC_TRY(double k, number_field(request, "", "k"));
  DPCALC_TRY(double group_size, check_count(k, "k"));
  const bool has_mechanism = has_field(request, "mechanism");
  if (has_mechanism && has_field(request, "guarantee")) {
    return invalid_argument("mechanism", "Give either a guarantee or a mechanism, not both.");
  }
  if (!has_mechanism) {
    if (has_field(request, "relation")) {
      return does_not_apply("relation", "a guarantee already holds under the relation it was stated for");
    }
    if (has_field(request, "discretization")) {
      return does_not_apply("discretization", "the group bound of a guarantee is in closed form (no grid)");
    }
    if (has_field(request, "delta")) {
      return does_not_apply("delta",
                            "the group bound of a guarantee follows from the guarantee alone (give an "
                            "'approx' guarantee for (ε, δ)-DP)");
    }
    DPCALC_TRY(const Value* value, member(request, "", "guarantee"));
    DPCALC_TRY(Guarantee parsed, read_guarantee(*value, "guarantee"));
    DPCALC_TRY(Value result, group_of_guarantee(parsed, group_size));
    return finite_or_overflow(std::move(result), magnitude_field(parsed, "guarantee"));
  }
  DPCALC_TRY(mechanisms::MechanismPtr mechanism, read_mechanism(*request.find("mechanism"), "mechanism"));
  DPCALC_TRY(const mechanisms::Relation relation, read_relation(request));
  DPCALC_TRY(const bool supported, check_relation(request, *mechanism, relation));
  (void)supported;
  return group_of_mechanism(*mechanism, group_size, request, progress);
}

}  // namespace dpcalc::api
