#include "dpcalc/api/rdp_op.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/repeat_and_select_rdp.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::api {
namespace {

// Items of mechanisms whose Rényi DP curve is known under the request's relation.
Result<std::vector<mechanisms::Use>> rdp_uses(const std::vector<RequestItem>& items) {
  std::vector<mechanisms::Use> uses;
  for (const RequestItem& item : items) {
    if (!item.mechanism) {
      return Error{kUnsupported, item.field(),
                   "The RDP accountant composes mechanisms; give the mechanism (or use op 'convert' and method "
                   "'zcdp' for guarantees)."};
    }
    const mechanisms::Mechanism& mechanism = *item.mechanism->mechanism;
    if (const auto [reason, parameter] = mechanism.unbounded_loss(); !reason.empty()) {
      return Error{kUnsupported, field_path(item.field(), parameter), reason};
    }
    if (!mechanism.rdp_epsilon(2)) {
      return Error{kUnsupported, field_path(item.field(), "type"),
                   "The calculator knows no Rényi DP curve for this " + mechanism.type().title +
                       " (docs/rdp.md lists the curves it has); use method 'pld'."};
    }
    if (!mechanism.has_rdp_under(item.relation)) {
      return Error{kUnsupported, field_path(item.field(), "type"),
                   std::string("The Rényi DP curve of this ") + mechanism.type().title +
                       " is known under relation 'add_remove' (and 'zero_out') only, not '" +
                       mechanisms::relation_name(item.relation) + "'; use method 'pld' for this relation."};
    }
    uses.push_back({item.mechanism->mechanism, item.count});
  }
  return uses;
}

// The methods joined as one: "A; B", their citations "a; b", their keys each once. The joined
// strings live as long as the program (one entry per set of curves cited: finitely many), since a
// MethodInfo holds pointers.
MethodInfo joined_methods(const std::vector<MethodInfo>& methods) {
  if (methods.size() == 1) return methods.front();
  static std::map<std::string, std::array<std::string, 3>> joined;
  std::string method, citation, keys;
  for (const MethodInfo& info : methods) {
    method += (method.empty() ? "" : "; ") + std::string(info.method);
    citation += (citation.empty() ? "" : "; ") + std::string(info.citation);
    for (std::size_t start = 0; info.citation_key[start] != '\0';) {
      const char* space = std::strchr(info.citation_key + start, ' ');
      const std::size_t end =
          space ? static_cast<std::size_t>(space - info.citation_key) : std::strlen(info.citation_key);
      const std::string key(info.citation_key + start, end - start);
      if (!key.empty() && (" " + keys + " ").find(" " + key + " ") == std::string::npos) {
        keys += (keys.empty() ? "" : " ") + key;
      }
      start = space ? end + 1 : end;
    }
  }
  const auto& entry = joined.emplace(method, std::array<std::string, 3>{method, citation, keys}).first->second;
  return MethodInfo{entry[0].c_str(), entry[1].c_str(), entry[2].c_str()};
}

bool any_finite(const std::vector<double>& values) {
  for (double value : values) {
    if (std::isfinite(value)) return true;
  }
  return false;
}

// No order is finite: an item whose own curve is infinite at every finite order has too little noise
// (ε(α) = α count Δ²/(2σ²) overflows, Mironov 2017, Prop. 7); otherwise the orders given (or the
// items together) are at fault.
Error no_finite_order(const std::vector<RequestItem>& items, const std::vector<mechanisms::Use>& uses,
                      const OrdersAt& orders, const std::string& at) {
  // Order ∞ is infinite for every mechanism with an unbounded privacy loss, whatever its noise.
  std::vector<double> finite_orders;
  for (double order : orders.orders) {
    if (std::isfinite(order)) finite_orders.push_back(order);
  }
  for (std::size_t i = 0; i < uses.size() && !finite_orders.empty(); ++i) {
    if (any_finite(rdp::compose({uses[i]}, finite_orders))) continue;
    const std::string field = noise_path(*items[i].mechanism);
    return invalid_argument(field, describe_name(field) +
                                       " is too small for the RDP accountant: ε(α) of this "
                                       "mechanism exceeds the largest number a double can hold at every order, so "
                                       "it would promise nothing. Use a larger σ (or fewer uses).");
  }
  return Error{kNumeric, orders.given ? orders.path : field_path(at, "items"),
               orders.given ? "No order gives a finite Rényi divergence for these mechanisms; add finite orders "
                              "above 1."
                            : "No order gives a finite Rényi divergence for these mechanisms together; use larger "
                              "noise or fewer uses."};
}

// The curve at the orders, its finite part kept apart for conversions and trade-offs.
RdpComposition composition_of(const std::vector<double>& orders, std::vector<double> epsilons,
                              const MethodInfo& method) {
  RdpComposition composed;
  composed.orders = orders;
  composed.method = method;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    if (!std::isfinite(epsilons[i])) continue;
    composed.curve.orders.push_back(orders[i]);
    composed.curve.epsilons.push_back(epsilons[i]);
  }
  composed.epsilons = std::move(epsilons);
  return composed;
}

// Σ count · ε(α) of the uses at one order (the tuning's base curve as a function of the order).
double composed_at(const std::vector<mechanisms::Use>& uses, double order) {
  return rdp::compose(uses, {order}).front();
}

// The composed curve of the uses (those of `items`) at the orders; an error when none is finite.
Result<RdpComposition> curve_of_uses(const std::vector<mechanisms::Use>& uses, const std::vector<RequestItem>& items,
                                     const OrdersAt& orders, const std::string& at) {
  RdpComposition composed =
      composition_of(orders.orders, rdp::compose(uses, orders.orders), joined_methods(rdp::methods_cited(uses)));
  if (composed.curve.orders.empty()) return no_finite_order(items, uses, orders, at);
  return composed;
}

// The error of a curve that no order converts to a finite ε, on a field the request has: its
// orders when it gives them (the message suggests orders closer to 1), else the tuning's law or the
// items (the default orders already reach down to 1.1).
Error conversion_error(Error error, const ComposeRequest& request) {
  if (request.orders.given) return at_path(std::move(error), request.at);
  if (request.repetitions) {
    return Error{kNumeric, request.repetitions->path,
                 "No Rényi order gives a finite bound for the tuning at these parameters: its curve overflows at "
                 "every order. Use fewer runs (a smaller mean), larger noise or fewer uses."};
  }
  return Error{kNumeric, field_path(request.at, "items"),
               "No Rényi order gives a finite bound for these mechanisms together: their curve overflows at every "
               "order. Use larger noise or fewer uses."};
}

}  // namespace

Result<RdpComposition> composed_curve(const std::vector<RequestItem>& items, const OrdersAt& orders,
                                      const std::string& at) {
  DPCALC_TRY(const std::vector<mechanisms::Use> uses, rdp_uses(items));
  return curve_of_uses(uses, items, orders, at);
}

Result<RdpComposition> compose_rdp(const ComposeRequest& request) {
  DPCALC_CHECK(check_positive_delta(*request.delta, field_path(request.at, "delta")));
  DPCALC_TRY(const std::vector<mechanisms::Use> uses, rdp_uses(request.items));
  DPCALC_TRY(RdpComposition composed, curve_of_uses(uses, request.items, request.orders, request.at));
  if (request.repetitions) {
    // The composition is one run (Papernot & Steinke 2022, Thms 2 and 6): its curve at every order the
    // auxiliary order may take, and the tuned curve at the orders asked.
    const rdp::RdpFunction run = [&uses](double order) { return composed_at(uses, order); };
    Result<std::vector<double>> tuned =
        rdp::repeat_and_select_rdp(request.repetitions->repetitions, request.orders.orders, run);
    if (!tuned.ok()) return at_path(std::move(tuned).error(), request.repetitions->path);
    FixedRuns fixed;
    fixed.runs = fixed_runs_of(request.repetitions->repetitions);
    std::vector<double> runs_curve = composed.curve.epsilons;
    for (double& epsilon : runs_curve) epsilon = multiply_up(fixed.runs, epsilon);
    // The comparison may have no finite bound where the tuned curve has one (runs times a large ε(α)
    // overflows): it is then the vacuous guarantee, not an error of the request.
    Result<rdp::RdpToApprox> fixed_converted = rdp::to_approx(composed.curve.orders, runs_curve, *request.delta);
    if (fixed_converted.ok()) {
      fixed.approx = fixed_converted.value().guarantee;
      fixed.order = fixed_converted.value().order;
    } else {
      fixed.approx = ApproxDp{0, 1};
    }
    composed = composition_of(request.orders.orders, std::move(tuned).value(),
                              joined_methods({rdp::kRepeatAndSelectRdp, composed.method}));
    if (composed.curve.orders.empty()) {
      return Error{kNumeric, request.repetitions->path,
                   "No order gives a finite Rényi bound for the tuning: the runs' curve is infinite at every order "
                   "the theorem needs; add orders (or use fewer runs)."};
    }
    composed.repetitions = request.repetitions;
    composed.fixed_runs = fixed;
  }
  Result<rdp::RdpToApprox> converted = rdp::to_approx(composed.curve.orders, composed.curve.epsilons, *request.delta);
  if (!converted.ok()) return conversion_error(std::move(converted).error(), request);
  composed.approx = converted.value().guarantee;
  composed.order = converted.value().order;
  return composed;
}

Result<RdpRequest> read_rdp(const Value& request, const std::string& at) {
  const Shape& shape = request_shapes().rdp;
  RdpRequest read;
  read.at = at;
  DPCALC_TRY(read.items, read_items(request, at, shape));
  DPCALC_TRY(read.orders, read_orders(request, at, declared(shape, "orders")));
  return read;
}

Result<RdpAnswer> answer_rdp(const RdpRequest& request, const Progress&) {
  RdpAnswer answer;
  DPCALC_TRY(answer.composition, composed_curve(request.items, request.orders, request.at));
  return answer;
}

Value write_rdp(const RdpAnswer& answer) {
  Value result = Value::object();
  result.set("orders", renyi_values(answer.composition.orders));
  result.set("epsilons", renyi_values(answer.composition.epsilons));
  set_method(result, answer.composition.method);
  return result;
}

}  // namespace dpcalc::api
