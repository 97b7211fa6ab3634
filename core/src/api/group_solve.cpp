// {op:'group', unknown:'k', guarantee | mechanism, target:{epsilon, delta?}}: the largest group a
// guarantee or mechanism still protects at the target, by largest_meeting on group_op's own answer
// (group privacy bounds never shrink as the group grows: Dwork & Roth 2014, Thm 2.2; Vadhan 2017,
// Lemma 2.2). The request names the unknown by its field, k, as calibrate names its noise field.
#include <string>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/api/solve.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

Result<Value> group_forward(const Value& request, const pld::ProgressCallback& progress) {
  return group_op(request, progress);
}

}  // namespace

Result<Value> group_solve(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(auto unknown, optional_string_field(request, "", "unknown"));
  if (unknown && *unknown == "group_size") {
    return invalid_argument("unknown", "op 'group' calls the group size k: use unknown: 'k'.");
  }
  DPCALC_TRY(auto checked_unknown, read_unknown(request, {"k"}));
  (void)checked_unknown;
  if (has_field(request, "k")) return given_unknown("k", "k");
  if (has_field(request, "delta")) {
    return invalid_argument("delta",
                            "With unknown 'k' the δ is the target's: leave delta out and give "
                            "target:{epsilon, delta}.");
  }
  DPCALC_TRY(const Value* target, member(request, "", "target"));
  DPCALC_TRY(const Value* target_object, require_object(*target, "target"));
  DPCALC_TRY(double given_epsilon, number_field(*target_object, "target", "epsilon"));
  DPCALC_TRY(double epsilon, check_epsilon(given_epsilon, "target.epsilon"));
  DPCALC_TRY(auto target_delta, optional_number_field(*target_object, "target", "delta"));
  if (target_delta) {
    DPCALC_TRY(target_delta, check_positive_delta(*target_delta, "target.delta"));
  }

  Value base = without_fields(request, {"unknown", "target"});
  const bool has_mechanism = has_field(request, "mechanism");
  if (has_mechanism && target_delta) base.set("delta", *target_delta);
  const ForwardRequest forward_request = [&](double k) {
    Value filled = base;
    filled.set("k", k);
    return filled;
  };
  // The forward request's delta is the target's.
  const std::function<Error(Error)> restate = [](Error error) {
    if (error.field == "delta") error.field = "target.delta";
    return error;
  };
  // One record's answer says which kind of target applies.
  Result<Value> single = group_op(forward_request(1), progress);
  if (!single.ok()) return restate(single.error());
  const std::string type = single.value().find("guarantee")->find("type")->as_string();
  if (type == "zcdp" || type == "rdp") {
    return Error{kUnsupported, "guarantee.type",
                 "The largest group is solved for pure and (ε, δ) guarantees and for mechanisms; convert a " + type +
                     " guarantee to (ε, δ) first (op 'convert')."};
  }
  if (type == "pure" && target_delta) {
    return does_not_apply("target.delta", "the group guarantee here is pure ε-DP (δ = 0)");
  }
  if (type == "approx" && !target_delta) {
    return invalid_argument("target.delta",
                            "target.delta is required: the group guarantee has a δ, which grows "
                            "with the group.");
  }
  SolveQuestion question{
      "k", "k", "group size", ApproxDp{epsilon, target_delta.value_or(0)}, "target.epsilon", {1, kMaxCount, 1, true}};
  return solve_by_forward(forward_request, group_forward, restate, question, progress);
}

}  // namespace dpcalc::api
