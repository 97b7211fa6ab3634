// {op:'convert', guarantee, to:'approx'|'zcdp', delta?, conversion?}: see docs/API.md.
#include <string>
#include <variant>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"

namespace dpcalc::api {
namespace {

inline constexpr MethodInfo kIdentity{"No conversion needed", "Dwork & Roth 2014, Def 2.4", "dwork2014algorithmic"};

Value converted(const Value& guarantee, const MethodInfo& info) {
  Value result = Value::object();
  result.set("guarantee", guarantee);
  set_method(result, info);
  return result;
}

Result<double> target_delta(const Value& request) {
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  return check_positive_delta(delta, "delta");
}

Result<Value> to_approx(const Value& request, const Guarantee& guarantee) {
  if (const auto* pure = std::get_if<PureDp>(&guarantee))
    return converted(to_value(ApproxDp{pure->epsilon, 0}), kIdentity);
  if (const auto* approx = std::get_if<ApproxDp>(&guarantee)) return converted(to_value(*approx), kIdentity);
  DPCALC_TRY(double delta, target_delta(request));
  if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    DPCALC_TRY(auto conversion, optional_string_field(request, "", "conversion"));
    if (conversion && *conversion == "bun_steinke") {
      return converted(to_value(zcdp_to_approx_bun_steinke(*zcdp, delta)), kZcdpBunSteinke);
    }
    if (conversion && *conversion != "canonne_kamath_steinke") {
      return unknown_choice("conversion", *conversion, {"bun_steinke", "canonne_kamath_steinke"});
    }
    return converted(to_value(zcdp_to_approx_canonne_kamath_steinke(*zcdp, delta)), kZcdpCanonneKamathSteinke);
  }
  const RdpConversion answer = rdp_to_approx(std::get<RdpCurve>(guarantee), delta);
  Value result = converted(to_value(answer.guarantee), kRdpToApprox);
  result.set("order", answer.order).set("order_index", answer.order_index).set("at_boundary", answer.at_boundary);
  if (answer.at_boundary) {
    result.set("warning",
               "The best order is the first or last of the curve: a wider range of orders may give a smaller ε.");
  }
  return result;
}

Result<Value> to_zcdp(const Guarantee& guarantee) {
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) return converted(to_value(pure_to_zcdp(*pure)), kPureToZcdp);
  if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) return converted(to_value(*zcdp), kIdentity);
  return Error{kUnsupported, "guarantee.type",
               "Only pure DP converts to zCDP; an (ε, δ) guarantee or an RDP curve has no zCDP bound in general."};
}

}  // namespace

Result<Value> convert_op(const Value& request) {
  DPCALC_TRY(const Value* value, member(request, "", "guarantee"));
  DPCALC_TRY(Guarantee guarantee, read_guarantee(*value, "guarantee"));
  DPCALC_TRY(std::string to, string_field(request, "", "to"));
  if (to != "approx" && to != "zcdp") return unknown_choice("to", to, {"approx", "zcdp"});
  DPCALC_TRY(Value result, to == "approx" ? to_approx(request, guarantee) : to_zcdp(guarantee));
  return finite_or_overflow(std::move(result), magnitude_field(guarantee, "guarantee"));
}

}  // namespace dpcalc::api
