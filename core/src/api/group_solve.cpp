// {op:'group', unknown:'k', guarantee | mechanism, target:{epsilon, delta?}}: the largest group a
// guarantee or mechanism still protects at the target, by largest_meeting on the group's own answer
// (group privacy bounds never shrink as the group grows: Dwork & Roth 2014, Thm 2.2; Vadhan 2017,
// Lemma 2.2). The request names the unknown by its field, k, as calibrate names its noise field.
#include <string>
#include <variant>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/group_op.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

Result<SolvedAnswer> group_solve(const GroupRequest& request, const Progress& progress) {
  GroupRequest forward = request;
  forward.solve = false;
  if (request.mechanism) forward.delta = request.target_delta;
  const std::string delta_path = field_path(request.at, "delta");
  const std::string target_delta_path = field_path(request.at, "target.delta");
  // The forward answer's δ is the target's.
  const auto restated = [&](Error error) {
    if (error.field == delta_path) error.field = target_delta_path;
    return error;
  };
  const auto answer_at = [&](double k, const Progress& inner) -> Result<GroupAnswer> {
    GroupRequest at_k = forward;
    at_k.k = k;
    Result<GroupAnswer> answer = answer_group(at_k, inner);
    if (!answer.ok() && answer.error().code != pld::kCancelled) return restated(std::move(answer).error());
    return answer;
  };
  // One record's answer says which kind of target applies.
  DPCALC_TRY(const GroupAnswer single, answer_at(1, progress));
  if (std::holds_alternative<Zcdp>(single.guarantee) || std::holds_alternative<RdpCurve>(single.guarantee)) {
    const std::string type = std::holds_alternative<Zcdp>(single.guarantee) ? "zcdp" : "rdp";
    return Error{kUnsupported, field_path(request.at, "guarantee.type"),
                 "The largest group is solved for pure and (ε, δ) guarantees and for mechanisms; convert a " + type +
                     " guarantee to (ε, δ) first (op 'convert')."};
  }
  const bool pure = std::holds_alternative<PureDp>(single.guarantee);
  if (pure && request.target_delta) {
    return does_not_apply(target_delta_path, "the group guarantee here is pure ε-DP (δ = 0)");
  }
  if (!pure && !request.target_delta) {
    return invalid_argument(target_delta_path, target_delta_path +
                                                   " is required: the group guarantee has a δ, which grows "
                                                   "with the group.");
  }
  const BoundAt bound = [&](double k, const Progress& inner) -> Result<Bound> {
    DPCALC_TRY(const GroupAnswer answer, answer_at(k, inner));
    if (const auto* pure_guarantee = std::get_if<PureDp>(&answer.guarantee)) {
      return Bound{ApproxDp{pure_guarantee->epsilon, 0}, answer.method};
    }
    return Bound{std::get<ApproxDp>(answer.guarantee), answer.method};
  };
  SolveQuestion question{"k",
                         "k",
                         "group size",
                         ApproxDp{request.target_epsilon, request.target_delta.value_or(0)},
                         field_path(request.at, "target.epsilon"),
                         {1, kMaxCount, 1, true}};
  return solve_largest(bound, question, progress);
}

}  // namespace dpcalc::api
