#include "dpcalc/api/compute.hpp"

#include <cmath>
#include <string>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/groupwise_ops.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/api/pld_ops.hpp"

namespace dpcalc::api {
namespace {

bool is_numeric_method(const Value& request) {
  const Value* method = request.find("method");
  return method != nullptr && method->is_string() && method->as_string() == "pld";
}

Result<Value> dispatch(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const Value* object, require_object(request, ""));
  DPCALC_TRY(std::string op, string_field(*object, "", "op"));
  if (op == "group") return group_op(request);
  if (op == "compose") return is_numeric_method(request) ? compose_pld(request, progress) : compose_op(request);
  if (op == "convert") return convert_op(request);
  if (op == "split") return split_op(request);
  if (op == "profile") return privacy_profile_op(request, progress);
  if (op == "groupwise_simulate") return groupwise_simulate_op(request, progress);
  if (op == "groupwise_privacy") return groupwise_privacy_op(request, progress);
  if (op == "groupwise_plan") return groupwise_plan_op(request, progress);
  return unknown_choice("op", op, {"group", "compose", "convert", "split", "profile", "groupwise_simulate",
                                   "groupwise_privacy", "groupwise_plan"});
}

// Results must never carry NaN or infinity: a non-finite number is a bug or an overflow that the
// formula did not foresee, and is reported rather than printed.
const char* first_non_finite(const Value& value) {
  if (value.is_number()) return std::isfinite(value.as_number()) ? nullptr : "non-finite";
  for (const Value& item : value.as_array()) {
    if (const char* found = first_non_finite(item)) return found;
  }
  for (const auto& member_value : value.as_object()) {
    if (const char* found = first_non_finite(member_value.second)) return found;
  }
  return nullptr;
}

Value error_value(const Error& error) {
  Value details = Value::object();
  details.set("code", error.code).set("field", error.field).set("message", error.message);
  Value response = Value::object();
  response.set("ok", false).set("error", std::move(details));
  return response;
}

}  // namespace

Value compute(const Value& request, const pld::ProgressCallback& progress) {
  Result<Value> result = dispatch(request, progress);
  if (!result.ok()) return error_value(result.error());
  if (first_non_finite(result.value())) {
    return error_value(Error{kNumeric, "", "The computation produced a value that is not a finite number; "
                                           "please report this request."});
  }
  Value response = Value::object();
  response.set("ok", true).set("result", std::move(result.value()));
  return response;
}

}  // namespace dpcalc::api
