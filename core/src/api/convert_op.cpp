#include "dpcalc/api/convert_op.hpp"

#include <cmath>
#include <string>
#include <variant>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

namespace dpcalc::api {
namespace {

inline constexpr MethodInfo kIdentity{"No conversion needed", "Dwork & Roth 2014, Def 2.4", "dwork2014algorithmic"};

Result<double> conversion_delta(const ConvertRequest& request) {
  if (!request.delta) return required_field(request.at, "delta");
  return check_positive_delta(*request.delta, field_path(request.at, "delta"));
}

Result<ConvertAnswer> to_approx(const ConvertRequest& request, ConvertAnswer answer) {
  const Guarantee& guarantee = request.guarantee;
  answer.method = kIdentity;
  if (const auto* pure = std::get_if<PureDp>(&guarantee)) {
    answer.guarantee = ApproxDp{pure->epsilon, 0};
    return answer;
  }
  if (std::holds_alternative<ApproxDp>(guarantee)) {
    answer.guarantee = guarantee;
    return answer;
  }
  DPCALC_TRY(const double delta, conversion_delta(request));
  if (const auto* zcdp = std::get_if<Zcdp>(&guarantee)) {
    answer.guarantee = request.bun_steinke ? zcdp_to_approx_bun_steinke(*zcdp, delta)
                                           : zcdp_to_approx_canonne_kamath_steinke(*zcdp, delta);
    answer.method = request.bun_steinke ? kZcdpBunSteinke : kZcdpCanonneKamathSteinke;
    return answer;
  }
  answer.rdp = rdp_to_approx(std::get<RdpCurve>(guarantee), delta);
  answer.guarantee = answer.rdp->guarantee;
  answer.method = kRdpToApprox;
  return answer;
}

Result<ConvertAnswer> to_zcdp(const ConvertRequest& request, ConvertAnswer answer) {
  if (const auto* pure = std::get_if<PureDp>(&request.guarantee)) {
    answer.guarantee = pure_to_zcdp(*pure);
    answer.method = kPureToZcdp;
    return answer;
  }
  if (std::holds_alternative<Zcdp>(request.guarantee)) {
    answer.guarantee = request.guarantee;
    answer.method = kIdentity;
    return answer;
  }
  return Error{kUnsupported, field_path(request.guarantee_path, "type"),
               "Only pure DP converts to zCDP; an (ε, δ) guarantee or an RDP curve has no zCDP bound in general."};
}

Value epsilon_delta(const ApproxDp& guarantee) {
  Value value = Value::object();
  value.set("epsilon", guarantee.epsilon).set("delta", guarantee.delta);
  return value;
}

// The domain's names of the target's parts, on the request's path.
Error on_split_target(Error error, const std::string& at) {
  if (error.field == "target_epsilon") error.field = field_path(at, "target.epsilon");
  if (error.field == "target_delta") error.field = field_path(at, "target.delta");
  if (error.field == "count") error.field = field_path(at, "count");
  return error;
}

}  // namespace

Result<ConvertRequest> read_convert(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().convert;
  ConvertRequest read;
  read.at = at;
  read.guarantee_path = field_path(at, "guarantee");
  DPCALC_TRY(const Value* value, member(request, at, "guarantee"));
  DPCALC_TRY(read.guarantee, read_guarantee(*value, read.guarantee_path));
  DPCALC_TRY(const std::string to, read_choice(request, at, declared(shape, "to")));
  read.to_zcdp = to == "zcdp";
  if (!read.to_zcdp) {
    DPCALC_TRY(read.delta, read_optional_number(request, at, declared(shape, "delta")));
    if (std::holds_alternative<Zcdp>(read.guarantee)) {
      DPCALC_TRY(const std::string conversion, read_choice(request, at, declared(shape, "conversion")));
      read.bun_steinke = conversion == "bun_steinke";
    }
  }
  return read;
}

Result<ConvertAnswer> answer_convert(const ConvertRequest& request, const Progress&) {
  ConvertAnswer answer;
  answer.from = request.guarantee;
  answer.overflow_field = magnitude_field(request.guarantee, request.guarantee_path);
  return request.to_zcdp ? to_zcdp(request, std::move(answer)) : to_approx(request, std::move(answer));
}

Value write_convert(const ConvertAnswer& answer) {
  Value result = Value::object();
  result.set("guarantee", to_value(answer.guarantee));
  set_method(result, answer.method);
  if (answer.rdp) {
    result.set("order", answer.rdp->order).set("order_index", answer.rdp->order_index);
    result.set("at_boundary", answer.rdp->at_boundary);
    if (answer.rdp->at_boundary) {
      result.set("warning",
                 "The best order is the first or last of the curve: a wider range of orders may give a smaller ε.");
    }
  }
  return result;
}

Result<Explained> explain_convert(const ConvertAnswer& answer, const tradeoff::TradeoffOptions& options,
                                  const Progress&) {
  return explain_guarantee(answer.from, options);
}

Result<SplitRequest> read_split(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().split;
  SplitRequest read;
  read.at = at;
  DPCALC_TRY(const std::string method, read_choice(request, at, declared(shape, "method")));
  if (method == "basic") {
    read.method = SplitMethod::kBasic;
    read.info = kBasicComposition;
  } else if (method == "optimal") {
    read.method = SplitMethod::kOptimal;
    read.info = kOptimalComposition;
  } else if (method == "zcdp") {
    read.method = SplitMethod::kZcdp;
    read.info = kZcdpComposition;
  } else {
    DPCALC_TRY(const std::string variant, read_choice(request, at, declared(shape, "variant")));
    const bool kairouz = variant == "kairouz";
    read.method = kairouz ? SplitMethod::kAdvancedKairouzOhViswanath : SplitMethod::kAdvancedDworkRothblumVadhan;
    read.info = kairouz ? kAdvancedKov : kAdvancedDrv;
  }
  DPCALC_TRY(read.target, read_target(request, at, "target"));
  DPCALC_TRY(double count, read_number(request, at, declared(shape, "count")));
  DPCALC_TRY(read.count, check_count(count, field_path(at, "count")));
  return read;
}

Result<SplitAnswer> answer_split(const SplitRequest& request, const Progress&) {
  SplitAnswer answer;
  answer.method = request.info;
  answer.overflow_field = field_path(request.at, "target.epsilon");
  Result<SplitResult> split = split_budget(request.method, request.target, request.count);
  if (!split.ok()) return on_split_target(std::move(split).error(), request.at);
  answer.split = split.value();
  return answer;
}

Value write_split(const SplitAnswer& answer) {
  const SplitResult& split = answer.split;
  Value result = Value::object();
  result.set("per_item", epsilon_delta(split.per_item));
  if (std::isfinite(split.delta_slack)) result.set("delta_slack", split.delta_slack);
  if (std::isfinite(split.rho_per_item)) result.set("rho_per_item", split.rho_per_item);
  result.set("achieved", epsilon_delta(split.achieved));
  set_method(result, answer.method);
  return result;
}

}  // namespace dpcalc::api
