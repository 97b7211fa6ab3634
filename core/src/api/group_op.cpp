// {op:'group', k, guarantee} and {op:'group', k, mechanism, delta?}: see docs/API.md.
#include <cmath>
#include <variant>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
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

// The Gaussian mechanism at sensitivity kΔ, beside the generic bounds a person would otherwise
// use: the approximate-DP group bound of its one-record (ε, δ), the zCDP group bound k²ρ converted
// to (ε, δ), and, for contrast, k-fold composition (a Gaussian with σ/√k: kρ).
Result<Value> group_of_gaussian(const GaussianParameters& gaussian, double group_size, const Value& request) {
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double checked_delta, check_positive_delta(delta, "delta"));
  const GaussianGroupResult grouped =
      gaussian_group_privacy(gaussian.sigma, gaussian.sensitivity, group_size, checked_delta);
  Value result = group_result(to_value(grouped.approx), kGroupGaussian);
  Value zcdp = Value::object();
  zcdp.set("rho", grouped.zcdp.rho);
  result.set("zcdp", zcdp);

  const ApproxDp per_record = gaussian_group_privacy(gaussian.sigma, gaussian.sensitivity, 1, checked_delta).approx;
  Value generic = Value::object();
  generic.set("per_record", to_value(per_record));
  Value generic_approx = approx_with_vacuous(group_privacy(per_record, group_size));
  set_method(generic_approx, kGroupApprox);
  generic.set("approx", generic_approx);
  Value generic_zcdp = Value::object();
  generic_zcdp.set("rho", grouped.zcdp.rho);
  generic_zcdp.set("guarantee", to_value(zcdp_to_approx_canonne_kamath_steinke(grouped.zcdp, checked_delta)));
  set_method(generic_zcdp, kZcdpCanonneKamathSteinke);
  generic.set("zcdp", generic_zcdp);
  result.set("generic", generic);

  const Zcdp per_step = gaussian_to_zcdp(gaussian.sigma, gaussian.sensitivity);
  const double mu_composed = std::sqrt(group_size) * gaussian.sensitivity / gaussian.sigma;
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

}  // namespace

Result<Value> group_op(const Value& request) {
  DPCALC_TRY(double k, number_field(request, "", "k"));
  DPCALC_TRY(double group_size, check_count(k, "k"));
  const Value* mechanism = request.find("mechanism");
  const Value* guarantee = request.find("guarantee");
  if (mechanism && guarantee) {
    return invalid_argument("mechanism", "Give either a guarantee or a mechanism, not both.");
  }
  if (guarantee || !mechanism) {
    DPCALC_TRY(const Value* value, member(request, "", "guarantee"));
    DPCALC_TRY(Guarantee parsed, read_guarantee(*value, "guarantee"));
    DPCALC_TRY(Value result, group_of_guarantee(parsed, group_size));
    return finite_or_overflow(std::move(result), magnitude_field(parsed, "guarantee"));
  }
  DPCALC_TRY(ClosedFormMechanism parsed, read_mechanism(*mechanism, "mechanism"));
  if (const auto* laplace = std::get_if<LaplaceParameters>(&parsed)) {
    return finite_or_overflow(
        group_result(to_value(laplace_group_privacy(laplace->scale, laplace->sensitivity, group_size)), kGroupLaplace),
        "mechanism.scale");
  }
  DPCALC_TRY(Value result, group_of_gaussian(std::get<GaussianParameters>(parsed), group_size, request));
  return finite_or_overflow(std::move(result), "mechanism.sigma");
}

}  // namespace dpcalc::api
