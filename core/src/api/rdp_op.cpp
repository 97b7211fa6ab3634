// {op:'rdp', items, orders?} and {op:'compose', method:'rdp', delta, items, orders?}: see docs/API.md.
#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::api {
namespace {

struct RequestItems {
  std::vector<mechanisms::Use> uses;
  std::vector<std::string> noise_fields;           // where each item's noise is in the request
  bool any_plain = false, any_subsampled = false;  // which curves the result cites
};

// Items of mechanisms whose Rényi DP curve is known: the Gaussian (Mironov 2017, Prop 7) and the
// Poisson-subsampled Gaussian (Mironov, Talwar, Zhang 2019).
Result<RequestItems> read_rdp_items(const Value& request) {
  DPCALC_TRY(std::vector<RequestItem> items, read_items(request));
  RequestItems result;
  for (const RequestItem& item : items) {
    if (!item.mechanism) {
      return Error{kUnsupported, item.field(),
                   "The RDP accountant composes mechanisms; give the mechanism (or use op 'convert' and method "
                   "'zcdp' for guarantees)."};
    }
    if (!item.mechanism->rdp_epsilon(2)) {
      const std::string& type = innermost(*item.mechanism).type().name;
      return Error{kUnsupported, field_path(item.field(), "type"),
                   "The RDP accountant handles 'gaussian' and 'poisson_subsampled' Gaussian mechanisms; use method "
                   "'pld' for " +
                       type + "."};
    }
    const bool subsampled = item.mechanism->pair(mechanisms::Relation::kAddRemove).sampling_rate < 1;
    (subsampled ? result.any_subsampled : result.any_plain) = true;
    result.uses.push_back({item.mechanism, item.count});
    result.noise_fields.push_back(noise_field(*item.mechanism));
  }
  return result;
}

Result<std::vector<double>> read_orders(const Value& request) {
  if (request.find("orders") == nullptr || request.find("orders")->is_null()) return rdp::default_orders();
  DPCALC_TRY(std::vector<double> orders, number_array_field(request, "", "orders"));
  return rdp::check_orders(orders, "orders");
}

struct ComposedCurve {
  std::vector<double> orders, epsilons, dropped;
  const MethodInfo* method = &rdp::kSubsampledGaussianRdp;
};

// The curves the items use: a plain Gaussian is Mironov 2017's, not the subsampled one's.
const MethodInfo& curves_cited(const RequestItems& items) {
  if (!items.any_subsampled) return rdp::kGaussianRdp;
  return items.any_plain ? rdp::kGaussianAndSubsampledGaussianRdp : rdp::kSubsampledGaussianRdp;
}

bool any_finite(const std::vector<double>& values) {
  for (double value : values) {
    if (std::isfinite(value)) return true;
  }
  return false;
}

// No order is finite (fuzz seed 1 found this named `orders` when the request had none): an item
// whose own curve is infinite at every order has too little noise (ε(α) = α count Δ²/(2σ²)
// overflows, Mironov 2017, Prop. 7); otherwise the orders given (or the items together) are at fault.
Error no_finite_order(const Value& request, const RequestItems& request_items, const std::vector<double>& orders) {
  for (std::size_t i = 0; i < request_items.uses.size(); ++i) {
    if (any_finite(rdp::compose({request_items.uses[i]}, orders))) continue;
    const std::string& field = request_items.noise_fields[i];
    return invalid_argument(field, describe_field(field) +
                                       " is too small for the RDP accountant: ε(α) of this "
                                       "mechanism exceeds the largest number a double can hold at every order, so "
                                       "it would promise nothing. Use a larger σ (or fewer uses).");
  }
  const bool has_orders = request.find("orders") != nullptr && !request.find("orders")->is_null();
  return Error{kNumeric, has_orders ? "orders" : "items",
               has_orders ? "No order gives a finite Rényi divergence for these mechanisms; add integer orders."
                          : "No order gives a finite Rényi divergence for these mechanisms together; use larger "
                            "noise or fewer uses."};
}

// Orders whose fractional series did not converge (infinite eps) are reported apart.
Result<ComposedCurve> composed_curve(const Value& request) {
  DPCALC_TRY(RequestItems request_items, read_rdp_items(request));
  DPCALC_TRY(std::vector<double> orders, read_orders(request));
  const std::vector<double> epsilons = rdp::compose(request_items.uses, orders);
  ComposedCurve curve;
  curve.method = &curves_cited(request_items);
  for (std::size_t i = 0; i < orders.size(); ++i) {
    (std::isfinite(epsilons[i]) ? curve.orders : curve.dropped).push_back(orders[i]);
    if (std::isfinite(epsilons[i])) curve.epsilons.push_back(epsilons[i]);
  }
  if (curve.orders.empty()) return no_finite_order(request, request_items, orders);
  return curve;
}

void describe(Value& result, const ComposedCurve& curve) {
  if (!curve.dropped.empty()) result.set("dropped_orders", Value::numbers(curve.dropped));
  set_method(result, *curve.method);
}

}  // namespace

Result<Value> rdp_op(const Value& request) {
  DPCALC_TRY(ComposedCurve curve, composed_curve(request));
  Value result = Value::object();
  result.set("orders", Value::numbers(curve.orders));
  result.set("epsilons", Value::numbers(curve.epsilons));
  describe(result, curve);
  return result;
}

Result<Value> compose_rdp(const Value& request) {
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double checked_delta, check_positive_delta(delta, "delta"));
  DPCALC_TRY(ComposedCurve curve, composed_curve(request));
  DPCALC_TRY(rdp::RdpToApprox converted, rdp::to_approx(curve.orders, curve.epsilons, checked_delta, "orders"));
  Value result = Value::object();
  result.set("guarantee", to_value(converted.guarantee));
  result.set("order", converted.order);
  describe(result, curve);
  result.set("conversion", std::string(kRdpToApprox.method) + " (" + kRdpToApprox.citation + ")");
  return result;
}

}  // namespace dpcalc::api
