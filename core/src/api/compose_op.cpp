#include "dpcalc/api/compose_op.hpp"

#include <cmath>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::api {
namespace {

const Shape& compose_shape() { return request_shapes().compose; }

Result<ComposeMethod> read_compose_method(const Value& request, const std::string& at) {
  DPCALC_TRY(std::string name, read_choice(request, at, declared(compose_shape(), "method")));
  const std::vector<std::string> names{"basic", "parallel", "advanced", "optimal", "zcdp", "pld", "rdp"};
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (name == names[i]) return static_cast<ComposeMethod>(i);
  }
  return unknown_choice(field_path(at, "method"), name, names);
}

// The request's delta, checked to be a target δ in (0, 1), when it gives one.
Result<std::optional<double>> read_target_delta(const Value& request, const std::string& at) {
  DPCALC_TRY(std::optional<double> delta, read_optional_number(request, at, declared(compose_shape(), "delta")));
  if (delta) {
    DPCALC_TRY(delta, check_positive_delta(*delta, field_path(at, "delta")));
  }
  return delta;
}

Result<ComposeRequest> read_pld_method(const Value& request, const std::string& at, ComposeRequest read) {
  DPCALC_TRY(read.items, read_items(request, at, compose_shape()));
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  DPCALC_TRY(std::optional<double> delta, read_optional_number(request, at, declared(compose_shape(), "delta")));
  DPCALC_TRY(read.epsilon, read_optional_number(request, at, declared(compose_shape(), "epsilon")));
  if (delta && read.epsilon) {
    return invalid_argument(field_path(at, "epsilon"), "Give either delta (to get ε) or epsilon (to get δ), not both.");
  }
  read.delta = delta;
  return read;
}

Result<ComposeRequest> read_rdp_method(const Value& request, const std::string& at, ComposeRequest read) {
  DPCALC_TRY(double delta, read_number(request, at, declared(compose_shape(), "delta")));
  DPCALC_TRY(read.delta, check_positive_delta(delta, field_path(at, "delta")));
  DPCALC_TRY(read.items, read_items(request, at, compose_shape()));
  DPCALC_TRY(read.orders, read_orders(request, at, declared(compose_shape(), "orders")));
  DPCALC_TRY(read.repetitions, read_repetitions(request, at, declared(compose_shape(), "repetitions")));
  return read;
}

Result<ComposeRequest> read_closed_method(const Value& request, const std::string& at, ComposeRequest read) {
  DPCALC_TRY(read.items, read_items(request, at, compose_shape()));
  if (read.method == ComposeMethod::kAdvanced) {
    DPCALC_TRY(const std::string variant, read_choice(request, at, declared(compose_shape(), "variant")));
    if (variant == "dwork_rothblum_vadhan") read.variant = AdvancedVariant::kDworkRothblumVadhan;
    DPCALC_TRY(read.delta_slack, read_optional_number(request, at, declared(compose_shape(), "delta_slack")));
    DPCALC_TRY(std::optional<double> delta, read_optional_number(request, at, declared(compose_shape(), "delta")));
    if (read.delta_slack && delta) {
      return invalid_argument(field_path(at, "delta_slack"),
                              "Give either delta_slack (δ') or delta (the total δ target), not both.");
    }
    read.delta = delta;
  }
  return read;
}

// The one item without a count, for unknown 'count', or an error that says which items to change.
Result<std::size_t> unknown_item(const Value& request, const std::string& at) {
  const std::string items_path = field_path(at, "items");
  DPCALC_TRY(const Value* items, member(request, at, "items"));
  if (!items->is_array() || items->as_array().empty()) {
    return invalid_argument(items_path, items_path + " must be a non-empty list.");
  }
  const Value::Array& list = items->as_array();
  std::size_t found = list.size();
  for (std::size_t i = 0; i < list.size(); ++i) {
    // An item that is not an object is not the one solved for: the items reader refuses it on its path.
    if (!list[i].is_object() || has_field(list[i], "count")) continue;
    const std::string path = field_path(field_path(items_path, std::to_string(i)), "count");
    if (found != list.size()) {
      return invalid_argument(path, path +
                                        " is required: with unknown 'count' exactly one item leaves out its count, "
                                        "and " +
                                        field_path(items_path, std::to_string(found)) + " already does.");
    }
    found = i;
  }
  if (found != list.size()) return found;
  const std::string first = field_path(items_path, "0");
  if (list.size() == 1 && !list[0].is_object()) {
    return invalid_argument(first,
                            first + " must be an object: a guarantee or a mechanism, without count (the unknown).");
  }
  if (list.size() == 1) return given_unknown(field_path(first, "count"), "count");
  return invalid_argument(items_path, "With unknown 'count', leave out the count of the one item to solve for.");
}

// With unknown 'count' the total (ε, δ) is the target, whose δ is the forward methods' delta.
Result<ComposeRequest> read_count_solve(const Value& request, const std::string& at, ComposeRequest read) {
  // 'count', the only unknown compose takes.
  DPCALC_CHECK(read_choice(request, at, declared(compose_shape(), "unknown")));
  for (const char* field : {"delta", "epsilon"}) {
    if (has_field(request, field)) {
      return invalid_argument(field_path(at, field),
                              std::string("With unknown 'count' the total (ε, δ) is the target: leave ") + field +
                                  " out and give target:{epsilon, delta}.");
    }
  }
  if (has_field(request, "repetitions")) {
    return invalid_argument(field_path(at, "repetitions"),
                            "With unknown 'count' the answer is the most uses of one item; a tuning's ε is computed "
                            "for given counts: leave repetitions out, or give every count.");
  }
  DPCALC_TRY(read.unknown_item, unknown_item(request, at));
  DPCALC_TRY(read.target, read_target(request, at, "target"));
  DPCALC_TRY(read.method, read_compose_method(request, at));
  if (read.method == ComposeMethod::kPld) {
    DPCALC_CHECK(check_engine_target(read.target.epsilon, field_path(at, "target.epsilon"), "number of releases"));
  }
  DPCALC_TRY(read.items, read_items(request, at, compose_shape(), true));
  if (read.method == ComposeMethod::kAdvanced) {
    DPCALC_TRY(const std::string variant, read_choice(request, at, declared(compose_shape(), "variant")));
    if (variant == "dwork_rothblum_vadhan") read.variant = AdvancedVariant::kDworkRothblumVadhan;
    DPCALC_TRY(read.delta_slack, read_optional_number(request, at, declared(compose_shape(), "delta_slack")));
  }
  if (read.method == ComposeMethod::kZcdp) {
    DPCALC_TRY(const std::string conversion, read_choice(request, at, declared(compose_shape(), "conversion")));
    read.bun_steinke = conversion == "bun_steinke";
  }
  if (read.method == ComposeMethod::kPld) {
    DPCALC_TRY(read.discretization, read_discretization(request, at));
  }
  if (read.method == ComposeMethod::kRdp) {
    DPCALC_TRY(read.orders, read_orders(request, at, declared(compose_shape(), "orders")));
  }
  // The forward methods that take a total δ are given the target's (advanced only without δ′).
  if (read.method != ComposeMethod::kBasic && read.method != ComposeMethod::kParallel &&
      !(read.method == ComposeMethod::kAdvanced && read.delta_slack)) {
    read.delta = read.target.delta;
  }
  return read;
}

// The exact μ of an all-Gaussian composition, for the trade-off.
std::optional<double> mu_of(const ComposeRequest& request) {
  const bool numeric_or_renyi = request.method == ComposeMethod::kPld || request.method == ComposeMethod::kZcdp ||
                                request.method == ComposeMethod::kRdp;
  return numeric_or_renyi ? composed_mu(request.items) : std::nullopt;
}

void write_closed(Value& result, const ClosedComposition& composed) {
  result.set("guarantee", to_value(composed.guarantee));
  if (composed.vacuous) result.set("vacuous", true);
  set_method(result, composed.method);
  if (composed.delta_slack) result.set("delta_slack", *composed.delta_slack);
  if (composed.approx) {
    result.set("approx", to_value(*composed.approx));
    Value conversion = Value::object();
    set_method(conversion, *composed.conversion);
    result.set("conversion", std::move(conversion));
  }
}

void write_rdp_composition(Value& result, const RdpComposition& composed) {
  if (composed.approx) {
    result.set("guarantee", to_value(*composed.approx));
    result.set("order", renyi_value(composed.order));
  } else {
    result.set("orders", renyi_values(composed.orders));
    result.set("epsilons", renyi_values(composed.epsilons));
  }
  set_method(result, composed.method);
  if (composed.approx) {
    result.set("conversion", std::string(kRdpToApprox.method) + " (" + kRdpToApprox.citation + ")");
  }
  if (composed.repetitions) result.set("repetitions", repetitions_value(*composed.repetitions));
  if (composed.fixed_runs) {
    Value fixed = Value::object();
    fixed.set("runs", composed.fixed_runs->runs);
    fixed.set("guarantee", to_value(composed.fixed_runs->approx));
    if (is_vacuous(composed.fixed_runs->approx)) {
      fixed.set("vacuous", true);
    } else {
      fixed.set("order", renyi_value(composed.fixed_runs->order));
    }
    result.set("fixed_runs", std::move(fixed));
  }
}

}  // namespace

std::optional<double> composed_mu(const std::vector<RequestItem>& items) {
  double mu_squared = 0;
  for (const RequestItem& item : items) {
    const auto noise = item.mechanism ? item.mechanism->mechanism->gaussian() : std::nullopt;
    if (!noise) return std::nullopt;
    const double mu = noise->sensitivity / noise->sigma;
    mu_squared += item.count * mu * mu;
  }
  if (!std::isfinite(mu_squared)) return std::nullopt;  // the PLD engine says which noise is too small
  // Each term within 4 units of roundoff, the sum within one per term, the root within one: a larger
  // μ is a smaller curve, so rounding up stays sound.
  return tradeoff::round_up(std::sqrt(mu_squared), 5.0 + static_cast<double>(items.size()));
}

Result<OrdersAt> read_orders(const Value& request, const std::string& at, const Field& declared_orders) {
  OrdersAt read;
  read.path = field_path(at, declared_orders.name);
  read.given = has_field(request, declared_orders.name.c_str());
  if (!read.given) {
    read.orders = rdp::default_orders();
    return read;
  }
  DPCALC_TRY(const Value* list, member(request, at, declared_orders.name.c_str()));
  if (!list->is_array()) {
    return invalid_argument(read.path, read.path + " must be an array of Rényi orders (numbers, or 'infinity').");
  }
  std::vector<double> orders;
  for (std::size_t i = 0; i < list->as_array().size(); ++i) {
    const Value& order = list->as_array()[i];
    // JSON has no infinity: the order ∞ (the pure ε) is written as the string.
    if (order.is_string() && order.as_string() == "infinity") {
      orders.push_back(kInfinity);
    } else if (order.is_number()) {
      orders.push_back(order.as_number());
    } else {
      const std::string path = field_path(read.path, std::to_string(i));
      return invalid_argument(path, path + " must be a Rényi order: a number, or the string 'infinity' (got " +
                                        (order.is_string() ? "'" + order.as_string() + "'" : order.kind_name()) + ").");
    }
  }
  Result<std::vector<double>> checked = rdp::check_orders(orders);
  if (!checked.ok()) return at_path(std::move(checked).error(), at);
  read.orders = std::move(checked.value());
  return read;
}

Result<ComposeRequest> read_compose(const Value& request, const std::string& at) {
  ComposeRequest read;
  read.at = at;
  if (has_field(request, "unknown")) return read_count_solve(request, at, std::move(read));
  DPCALC_TRY(read.method, read_compose_method(request, at));
  switch (read.method) {
    case ComposeMethod::kPld:
      return read_pld_method(request, at, std::move(read));
    case ComposeMethod::kRdp:
      return read_rdp_method(request, at, std::move(read));
    case ComposeMethod::kZcdp: {
      DPCALC_TRY(read, read_closed_method(request, at, std::move(read)));
      DPCALC_TRY(read.delta, read_target_delta(request, at));
      DPCALC_TRY(const std::string conversion, read_choice(request, at, declared(compose_shape(), "conversion")));
      read.bun_steinke = conversion == "bun_steinke";
      return read;
    }
    case ComposeMethod::kOptimal: {
      DPCALC_TRY(read, read_closed_method(request, at, std::move(read)));
      DPCALC_TRY(double delta, read_number(request, at, declared(compose_shape(), "delta")));
      DPCALC_TRY(read.delta, check_positive_delta(delta, field_path(at, "delta")));
      return read;
    }
    default:
      return read_closed_method(request, at, std::move(read));
  }
}

namespace {

// Never looser than a cheaper sound route: where the engine composes dominating pairs that the
// mechanisms do not attain (ε-bounded-range selections: the pair dominates every such mechanism,
// Dong, Durfee, Rogers 2020), Rényi DP and zCDP of the mechanisms themselves can prove less (100
// selections at ε = 0.5, δ = 1e-6: PLD 16.897, Rényi DP 15.096). A route below the lower end of
// the pairs' bracket wins (no finer grid would reach it; inside a bracket as narrow as the request
// asked, the grid's accuracy decides), and so does a route below the upper end of a bracket wider
// than asked (the grid could not be refined: 3.06e10 selections at ε = 1e-6, δ = 1e-5 give the
// pairs [0, 1.0], zCDP 0.325); the answer then has no lower end above 0 (the engine's bounds the
// pairs only), and says which route won.
void cap_by_mechanism_routes(const ComposeRequest& request, NumericAnswer& numeric) {
  if (!numeric.lower_of_pairs || !request.delta || !numeric.asked.epsilon_at) return;
  pld::EpsilonBracket& bracket = *numeric.asked.epsilon_at;
  if (!std::isfinite(bracket.epsilon_upper)) return;
  double best = bracket.accuracy_met ? bracket.epsilon_lower : bracket.epsilon_upper;
  std::string route;
  MethodInfo method{"", "", ""};
  ComposeRequest rdp = request;
  rdp.method = ComposeMethod::kRdp;
  rdp.orders.orders = rdp::default_orders();
  if (auto composed = compose_rdp(rdp); composed.ok() && composed.value().approx->epsilon < best) {
    best = composed.value().approx->epsilon;
    route = "rdp";
    method = composed.value().method;
  }
  ComposeRequest zcdp = request;
  zcdp.method = ComposeMethod::kZcdp;
  std::string overflow;
  if (auto closed = compose_closed(zcdp, overflow);
      closed.ok() && closed.value().approx && closed.value().approx->epsilon < best) {
    best = closed.value().approx->epsilon;
    route = "zcdp";
    method = closed.value().method;
  }
  if (route.empty()) return;
  const std::string note = std::string(route == "rdp" ? "Rényi DP" : "zCDP") + " of the mechanisms themselves (" +
                           method.citation + ") gives ε = " + format_number(best) +
                           ", below the numeric composition of their dominating pairs (" +
                           format_number(bracket.epsilon_upper) +
                           "), and caps it; no lower bound on the mechanisms is known, so epsilon_lower is 0.";
  numeric.note += (numeric.note.empty() ? "" : " ") + note;
  numeric.method = method;  // the number is the route's
  bracket.epsilon_upper = best;
  bracket.epsilon_lower = 0;
  numeric.lower_of_pairs = false;
  numeric.capped_by = route;
}

}  // namespace

Result<ComposeAnswer> answer_compose(const ComposeRequest& request, const Progress& progress) {
  ComposeAnswer answer;
  answer.mu = mu_of(request);
  if (request.unknown_item) {
    answer.solved_item = *request.unknown_item;
    DPCALC_TRY(answer.answer, compose_solve(request, progress));
    return answer;
  }
  switch (request.method) {
    case ComposeMethod::kPld: {
      DPCALC_TRY(NumericAnswer numeric, compose_pld(request.items, request.delta, request.epsilon, {},
                                                    request.discretization, request.at, progress));
      if (answer.mu) numeric.mu = answer.mu;  // a composition that reveals nothing has μ = 0 of its own
      cap_by_mechanism_routes(request, numeric);
      answer.answer = std::move(numeric);
      return answer;
    }
    case ComposeMethod::kRdp: {
      DPCALC_TRY(answer.answer, compose_rdp(request));
      return answer;
    }
    default: {
      DPCALC_TRY(answer.answer, compose_closed(request, answer.overflow_field));
      return answer;
    }
  }
}

Value write_compose(const ComposeAnswer& answer) {
  Value result = Value::object();
  if (const auto* closed = std::get_if<ClosedComposition>(&answer.answer)) {
    write_closed(result, *closed);
  } else if (const auto* numeric = std::get_if<NumericAnswer>(&answer.answer)) {
    write_numeric(result, *numeric);
  } else if (const auto* renyi = std::get_if<RdpComposition>(&answer.answer)) {
    write_rdp_composition(result, *renyi);
  } else {
    write_solved(result, std::get<SolvedAnswer>(answer.answer));
    result.set("item", answer.solved_item);
  }
  return result;
}

Result<bool> compose_explainable(const ComposeRequest& request) {
  if (!request.unknown_item) return true;
  return invalid_argument(field_path(request.at, "unknown"),
                          "The trade-off is that of a forward request: give every count (for instance the one this "
                          "solve finds) instead of unknown.");
}

Result<Explained> explain_compose(const ComposeAnswer& answer, const tradeoff::TradeoffOptions& options,
                                  const Progress&) {
  if (const auto* numeric = std::get_if<NumericAnswer>(&answer.answer)) return explain_numeric(*numeric, options);
  // A tuning's trade-off is that of its own curve, not of the one run's μ.
  const auto* renyi = std::get_if<RdpComposition>(&answer.answer);
  if (renyi && renyi->repetitions) return explain_guarantee(renyi->curve, options);
  if (answer.mu) return explain_mu(*answer.mu, options);
  if (const auto* closed = std::get_if<ClosedComposition>(&answer.answer)) {
    return explain_guarantee(closed->guarantee, options);
  }
  return explain_guarantee(std::get<RdpComposition>(answer.answer).curve, options);
}

}  // namespace dpcalc::api
