#include "dpcalc/api/compute.hpp"

#include <string>

#include "dpcalc/api/calibrate_op.hpp"
#include "dpcalc/api/databases_op.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/groupwise_ops.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/api/pld_ops.hpp"

namespace dpcalc::api {
namespace {

bool is_method(const Value& request, const char* name) {
  const Value* method = request.find("method");
  return method != nullptr && method->is_string() && method->as_string() == name;
}

Result<Value> dispatch(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const Value* object, require_object(request, ""));
  DPCALC_TRY(std::string op, string_field(*object, "", "op"));
  if (op == "group") return group_op(request);
  if (op == "compose" && is_method(request, "rdp")) return compose_rdp(request);
  if (op == "compose") return is_method(request, "pld") ? compose_pld(request, progress) : compose_op(request);
  if (op == "convert") return convert_op(request);
  if (op == "split") return split_op(request);
  if (op == "profile") return privacy_profile_op(request, progress);
  if (op == "calibrate") return calibrate_op(request, progress);
  if (op == "dpsgd") return dpsgd_op(request, progress);
  if (op == "rdp") return rdp_op(request);
  if (op == "databases") return databases_op(request, progress);
  if (op == "groupwise_simulate") return groupwise_simulate_op(request, progress);
  if (op == "groupwise_privacy") return groupwise_privacy_op(request, progress);
  if (op == "groupwise_plan") return groupwise_plan_op(request, progress);
  return unknown_choice("op", op,
                        {"group", "compose", "convert", "split", "profile", "calibrate", "dpsgd", "rdp", "databases",
                         "groupwise_simulate", "groupwise_privacy", "groupwise_plan"});
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
  // Each op names the input behind an overflow (finite_or_overflow); this is the last line of
  // defence, so that no NaN or infinity ever reaches a result.
  if (const auto path = first_non_finite(result.value())) {
    return error_value(Error{kNumeric, "",
                             "The result field " + *path +
                                 " overflowed the range of a double; this request is outside what "
                                 "the calculator can answer."});
  }
  Value response = Value::object();
  response.set("ok", true).set("result", std::move(result.value()));
  return response;
}

}  // namespace dpcalc::api
