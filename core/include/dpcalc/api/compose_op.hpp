// {op:'compose', method, items, ...} (docs/API.md): the composition of the items by a closed-form
// method (basic, parallel, advanced, optimal, zcdp; compose_closed.cpp), by privacy loss
// distributions ('pld'; pld_ops.cpp) or by Rényi DP ('rdp'; rdp_op.cpp), or, with unknown 'count',
// the most uses of one item that meet a target (compose_solve.cpp).
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/numeric_answer.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/api/repetitions_io.hpp"
#include "dpcalc/api/solve.hpp"
#include "dpcalc/closed_form/advanced_composition.hpp"
#include "dpcalc/guarantees.hpp"

namespace dpcalc::api {

enum class ComposeMethod { kBasic, kParallel, kAdvanced, kOptimal, kZcdp, kPld, kRdp };

// The Rényi orders of a request: its `orders`, or the default list.
struct OrdersAt {
  std::vector<double> orders;
  bool given = false;
  std::string path;
};

struct ComposeRequest {
  std::string at;  // where the request sits ("" or "of")
  ComposeMethod method = ComposeMethod::kBasic;
  std::vector<RequestItem> items;
  // advanced
  AdvancedVariant variant = AdvancedVariant::kKairouzOhViswanath;
  std::optional<double> delta_slack;
  // advanced, optimal, zcdp, pld, rdp: the total δ (the target's with unknown 'count')
  std::optional<double> delta;
  bool bun_steinke = false;                  // zcdp: the conversion
  std::optional<double> epsilon;             // pld: δ at this ε instead of ε at δ
  Discretization discretization;             // pld
  OrdersAt orders;                           // rdp
  std::optional<RepetitionsAt> repetitions;  // rdp: the composition is one run of a tuning
  // unknown 'count': the item that leaves its count out, and the target it must meet
  std::optional<std::size_t> unknown_item;
  ApproxDp target;
};

// A closed-form composition: the guarantee, and what comes with it.
struct ClosedComposition {
  Guarantee guarantee;
  bool vacuous = false;
  MethodInfo method{"", "", ""};
  std::optional<double> delta_slack;     // advanced: the δ′ chosen
  std::optional<ApproxDp> approx;        // zcdp with delta: the (ε, δ) conversion
  std::optional<MethodInfo> conversion;  // ... and how
};

// The tuned answer's companion: `runs` = ⌈mean⌉ fixed runs composed, converted at the same δ.
struct FixedRuns {
  double runs = 1;
  ApproxDp approx;
  double order = 0;
};

// A composition of Rényi DP curves: the curve at every order asked (+infinity where the divergence is,
// or is not bounded), its finite orders, and its (ε, δ) at the request's δ for method 'rdp'. With
// repetitions the curve is the tuning's (rdp/repeat_and_select_rdp.hpp) and `fixed_runs` is beside it.
struct RdpComposition {
  std::vector<double> orders, epsilons;  // as asked; an infinite order or ε is +infinity
  RdpCurve curve;                        // the orders with a finite ε
  MethodInfo method{"", "", ""};
  std::optional<ApproxDp> approx;
  double order = 0;  // the order of the (ε, δ)
  std::optional<RepetitionsAt> repetitions;
  std::optional<FixedRuns> fixed_runs;
};

struct ComposeAnswer : AnswerBase {
  std::variant<ClosedComposition, NumericAnswer, RdpComposition, SolvedAnswer> answer;
  // exactly μ-GDP (every item Gaussian noise): the trade-off's μ
  std::optional<double> mu;
  std::size_t solved_item = 0;  // unknown 'count': the item solved for
};

Result<ComposeRequest> read_compose(const Value& request, const std::string& at);
Result<ComposeAnswer> answer_compose(const ComposeRequest& request, const Progress& progress);
Value write_compose(const ComposeAnswer& answer);
Result<Explained> explain_compose(const ComposeAnswer& answer, const tradeoff::TradeoffOptions& options,
                                  const Progress& progress);
Result<bool> compose_explainable(const ComposeRequest& request);

// The parts of compose, and the profile op that shares the numeric one.
Result<ClosedComposition> compose_closed(const ComposeRequest& request, std::string& overflow_field);
Result<NumericAnswer> compose_pld(const std::vector<RequestItem>& items, const std::optional<double>& delta,
                                  const std::optional<double>& epsilon, const std::vector<double>& epsilons,
                                  const Discretization& discretization, const std::string& at,
                                  const Progress& progress);
Result<RdpComposition> compose_rdp(const ComposeRequest& request);
Result<SolvedAnswer> compose_solve(const ComposeRequest& request, const Progress& progress);

// μ of a composition whose every item is Gaussian noise, √Σ count (Δ/σ)² rounded up (Dong, Roth, Su
// 2019, Cor. 3.3), for its trade-off; nullopt otherwise (or beyond the doubles).
std::optional<double> composed_mu(const std::vector<RequestItem>& items);

// The orders of a request at `at` (its field `declared`, the default list when it leaves them out):
// numbers and the string "infinity" (rdp/rdp_function.hpp: order ∞ is the pure ε).
Result<OrdersAt> read_orders(const Value& request, const std::string& at, const Field& declared);

}  // namespace dpcalc::api
