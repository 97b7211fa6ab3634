// {op:'compose', unknown:'count', method, items, target:{epsilon, delta}}: the most uses of one item
// (the one whose count is left out) that keep the composition within the target, by largest_meeting
// on the method's own forward answer (composition never lowers ε or δ as a count grows). The
// target's δ is the δ the method's forward answer is asked at.
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/compose_op.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

// The (ε, δ) of a forward answer: its guarantee, the (ε, δ) conversion of a zCDP answer, the ε of a
// numeric or RDP answer at the request's δ.
Bound forward_bound(const ComposeAnswer& answer, double delta) {
  if (const auto* closed = std::get_if<ClosedComposition>(&answer.answer)) {
    if (closed->approx) return {*closed->approx, closed->method};
    if (const auto* pure = std::get_if<PureDp>(&closed->guarantee)) return {ApproxDp{pure->epsilon, 0}, closed->method};
    return {std::get<ApproxDp>(closed->guarantee), closed->method};
  }
  if (const auto* numeric = std::get_if<NumericAnswer>(&answer.answer)) {
    return {ApproxDp{numeric->asked.epsilon_at->epsilon_upper, delta}, numeric->method};
  }
  const auto& renyi = std::get<RdpComposition>(answer.answer);
  return {*renyi.approx, renyi.method};
}

}  // namespace

Result<SolvedAnswer> compose_solve(const ComposeRequest& request, const Progress& progress) {
  const std::size_t index = *request.unknown_item;
  const std::string delta_path = field_path(request.at, "delta");
  const BoundAt bound = [&](double count, const Progress& inner) -> Result<Bound> {
    ComposeRequest forward = request;
    forward.unknown_item.reset();
    forward.items[index].count = count;
    Result<ComposeAnswer> answer = answer_compose(forward, inner);
    if (!answer.ok()) {
      Error error = std::move(answer).error();
      // The forward answer's δ is the target's.
      if (error.field == delta_path) error.field = field_path(request.at, "target.delta");
      return error;
    }
    return forward_bound(answer.value(), request.target.delta);
  };
  SolveQuestion question{"count",
                         "count",
                         "number of releases",
                         request.target,
                         field_path(request.at, "target.epsilon"),
                         {1, kMaxCount, 1, true}};
  return solve_largest(bound, question, progress);
}

}  // namespace dpcalc::api
