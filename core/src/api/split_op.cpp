// {op:'split', method, variant?, target:{epsilon, delta}, count}: see docs/API.md.
#include <cmath>
#include <string>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/budget_split.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

namespace dpcalc::api {
namespace {

struct NamedMethod {
  SplitMethod method;
  MethodInfo info;
};

Result<NamedMethod> read_split_method(const Value& request) {
  DPCALC_TRY(std::string method, string_field(request, "", "method"));
  DPCALC_TRY(auto variant, optional_string_field(request, "", "variant"));
  if (method == "basic") return NamedMethod{SplitMethod::kBasic, kBasicComposition};
  if (method == "optimal") return NamedMethod{SplitMethod::kOptimal, kOptimalComposition};
  if (method == "zcdp") return NamedMethod{SplitMethod::kZcdp, kZcdpComposition};
  if (method == "advanced") {
    if (!variant || *variant == "kairouz") return NamedMethod{SplitMethod::kAdvancedKairouzOhViswanath, kAdvancedKov};
    if (*variant == "dwork_rothblum_vadhan")
      return NamedMethod{SplitMethod::kAdvancedDworkRothblumVadhan, kAdvancedDrv};
    return unknown_choice("variant", *variant, {"dwork_rothblum_vadhan", "kairouz"});
  }
  return unknown_choice("method", method, {"basic", "advanced", "optimal", "zcdp"});
}

Value epsilon_delta(const ApproxDp& guarantee) {
  Value value = Value::object();
  value.set("epsilon", guarantee.epsilon).set("delta", guarantee.delta);
  return value;
}

}  // namespace

Result<Value> split_op(const Value& request) {
  DPCALC_TRY(NamedMethod method, read_split_method(request));
  DPCALC_TRY(ApproxDp target, read_target(request, "target"));
  DPCALC_TRY(double count, number_field(request, "", "count"));
  DPCALC_TRY(double checked_count, check_count(count, "count"));
  DPCALC_TRY(SplitResult split, split_budget(method.method, target, checked_count, "target"));
  Value result = Value::object();
  result.set("per_item", epsilon_delta(split.per_item));
  if (std::isfinite(split.delta_slack)) result.set("delta_slack", split.delta_slack);
  if (std::isfinite(split.rho_per_item)) result.set("rho_per_item", split.rho_per_item);
  result.set("achieved", epsilon_delta(split.achieved));
  set_method(result, method.info);
  return finite_or_overflow(std::move(result), "target.epsilon");
}

}  // namespace dpcalc::api
