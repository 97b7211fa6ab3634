// {op:'compose', unknown:'count', method, items, target:{epsilon, delta}}: the most uses of one item
// (the one whose count is left out) that keep the composition within the target, by largest_meeting
// on the method's own forward answer (composition never lowers ε or δ as a count grows). The
// target's δ is the δ the method's forward request is given.
#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/api/solve.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The index of the one item without a count, or an error that says which items to change.
Result<std::size_t> unknown_item(const Value& request) {
  DPCALC_TRY(const Value* items, member(request, "", "items"));
  if (!items->is_array() || items->as_array().empty())
    return invalid_argument("items", "items must be a non-empty list.");
  const Value::Array& list = items->as_array();
  std::size_t found = list.size();
  for (std::size_t i = 0; i < list.size(); ++i) {
    // An item that is not an object is not the one solved for: the items reader refuses it on its path.
    if (!list[i].is_object() || has_field(list[i], "count")) continue;
    const std::string path = "items." + std::to_string(i) + ".count";
    if (found != list.size()) {
      return invalid_argument(path, path +
                                        " is required: with unknown 'count' exactly one item leaves out its count, "
                                        "and items." +
                                        std::to_string(found) + " already does.");
    }
    found = i;
  }
  if (found != list.size()) return found;
  if (list.size() == 1 && !list[0].is_object()) {
    return invalid_argument("items.0",
                            "items.0 must be an object: a guarantee or a mechanism, without count (the unknown).");
  }
  if (list.size() == 1) return given_unknown("items.0.count", "count");
  return invalid_argument("items", "With unknown 'count', leave out the count of the one item to solve for.");
}

// Methods whose forward request takes the total δ as `delta`.
bool takes_delta(const std::string& method, const Value& request) {
  if (method == "advanced") return !has_field(request, "delta_slack");
  return method == "optimal" || method == "zcdp" || method == "pld" || method == "rdp";
}

}  // namespace

Result<Value> compose_solve(const Value& request, const pld::ProgressCallback& progress, const ForwardOp& forward) {
  DPCALC_TRY(auto unknown, read_unknown(request, {"count"}));
  (void)unknown;
  for (const char* field : {"delta", "epsilon"}) {
    if (has_field(request, field)) {
      return invalid_argument(field, std::string("With unknown 'count' the total (ε, δ) is the target: leave ") +
                                         field + " out and give target:{epsilon, delta}.");
    }
  }
  DPCALC_TRY(std::size_t index, unknown_item(request));
  DPCALC_TRY(ApproxDp target, read_target(request, "target"));
  DPCALC_TRY(std::string method, string_field(request, "", "method"));
  if (method == "pld") {
    DPCALC_TRY(double checked, check_engine_target(target.epsilon, "target.epsilon", "number of releases"));
    (void)checked;
  }
  Value base = without_fields(request, {"unknown", "target"});
  if (takes_delta(method, request)) base.set("delta", target.delta);
  const ForwardRequest forward_request = [&](double count) {
    Value items = Value::array();
    const Value::Array& given = request.find("items")->as_array();
    for (std::size_t i = 0; i < given.size(); ++i) {
      Value item = given[i];
      if (i == index) item.set("count", count);
      items.push(std::move(item));
    }
    Value filled = base;
    filled.set("items", std::move(items));
    return filled;
  };
  // The forward request's delta is the target's.
  const std::function<Error(Error)> restate = [](Error error) {
    if (error.field == "delta") error.field = "target.delta";
    return error;
  };
  SolveQuestion question{"count", "count", "number of releases", target, "target.epsilon", {1, kMaxCount, 1, true}};
  DPCALC_TRY(Value result, solve_by_forward(forward_request, forward, restate, question, progress));
  result.set("item", index);
  return result;
}

}  // namespace dpcalc::api
