// {op:'compose', unknown:'count', method, items, target:{epsilon, delta}}: the most uses of one item
// (the one whose count is left out) that keep the composition within the target, by largest_meeting
// on the method's own forward answer (composition never lowers ε or δ as a count grows). The
// target's δ is the δ the method's forward answer is asked at.
#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/compose_op.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

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

// Whether an item's mechanism is accounted by a dominating pair that no inputs attain (ε-bounded-range
// selections): the numeric answer is then capped by the mechanisms' own Rényi DP and zCDP.
bool composes_unattained_pairs(const ComposeRequest& request) {
  for (const RequestItem& item : request.items) {
    if (item.mechanism && !item.mechanism->mechanism->pair_is_attained()) return true;
  }
  return false;
}

// The largest count that Rényi DP or zCDP of the mechanisms allows (closed forms, quick to search), or
// 1 when neither route answers: the numeric answer at that count is capped by the route, so it meets
// the target too and the numeric search starts there (each of its evaluations is a composition by FFT).
double count_of_cheaper_routes(const ComposeRequest& request) {
  double count = 1;
  for (const ComposeMethod route : {ComposeMethod::kRdp, ComposeMethod::kZcdp}) {
    ComposeRequest routed = request;
    routed.method = route;
    routed.orders.orders = rdp::default_orders();
    const Result<SolvedAnswer> solved = compose_solve(routed, {});
    if (solved.ok()) count = std::max(count, solved.value().value);
  }
  return count;
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
  if (request.method == ComposeMethod::kPld && composes_unattained_pairs(request)) {
    // Close below the answer: step up one count at a time (then 2, 4, ...), where the default
    // galloping would double the count and leave a bracket as wide as the count to bisect.
    question.search.initial = count_of_cheaper_routes(request);
    question.search.initial_step = 1;
  }
  return solve_largest(bound, question, progress);
}

}  // namespace dpcalc::api
