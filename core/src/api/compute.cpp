#include "dpcalc/api/compute.hpp"

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/op_table.hpp"
#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/tradeoff_op.hpp"

namespace dpcalc::api {
namespace {

// `explain`: true for the default trade-off options, an object of them, false or absent for none.
Result<std::optional<tradeoff::TradeoffOptions>> read_explain(const Value& request) {
  const Value* explain = request.find("explain");
  if (explain == nullptr || explain->is_null() || (explain->is_bool() && !explain->as_bool())) {
    return std::optional<tradeoff::TradeoffOptions>{};
  }
  if (explain->is_bool()) return std::optional<tradeoff::TradeoffOptions>{tradeoff::TradeoffOptions{}};
  if (!explain->is_object()) {
    return invalid_argument("explain", std::string("explain must be true, false or the trade-off's options "
                                                   "{alphas?, fpr?, prior?, reconstruction_baselines?} (got ") +
                                           explain->kind_name() + ").");
  }
  DPCALC_TRY(tradeoff::TradeoffOptions options, read_tradeoff_options(*explain, "explain"));
  return std::optional<tradeoff::TradeoffOptions>{std::move(options)};
}

// A request without `op` whose keys hold a near miss of it ('po', 'Op', 'opp'): the error says so.
Error missing_op(const Value& request) {
  for (const auto& [key, member] : request.as_object()) {
    if (closest_name(key, {"op"}) == "op") {
      return invalid_argument(
          "op", "op is required (the question asked): did you mean 'op' where the request has '" + key + "'?");
    }
  }
  return required_field("", "op");
}

Result<Value> dispatch(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(const Value* object, require_object(request, ""));
  if (!has_field(*object, "op")) return missing_op(*object);
  DPCALC_TRY(std::string name, string_field(*object, "", "op"));
  std::vector<std::string> names;
  for (const Op& op : op_table()) {
    if (op.shape->name != name) {
      names.push_back(op.shape->name);
      continue;
    }
    DPCALC_CHECK(check_fields(request, "", *op.shape));
    DPCALC_TRY(const std::optional<tradeoff::TradeoffOptions> explaining, read_explain(request));
    return op.run(request, progress, explaining);
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
  // Each op names the input behind an overflow (op.hpp: AnswerBase); this is the last line of
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
