#include "dpcalc/api/compute.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/op_table.hpp"

namespace dpcalc::api {
namespace {

Result<Value> dispatch(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const Value* object, require_object(request, ""));
  DPCALC_TRY(std::string name, string_field(*object, "", "op"));
  std::vector<std::string> names;
  for (const Op& op : op_table()) {
    if (op.shape->name != name) {
      names.push_back(op.shape->name);
      continue;
    }
    DPCALC_TRY(bool checked, check_fields(request, "", *op.shape));
    (void)checked;
    return op.answer(request, progress);
  }
  return unknown_choice("op", name, names);
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
