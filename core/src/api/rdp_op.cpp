// {op:'rdp', items, orders?} and {op:'compose', method:'rdp', delta, items, orders?}: see docs/API.md.
#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::api {
namespace {

// A Gaussian, or a Gaussian inside (possibly nested) Poisson subsampling: rates multiply.
Result<rdp::RdpItem> read_rdp_mechanism(const Value& value, const std::string& path, double rate, int depth = 0) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "gaussian") {
    DPCALC_TRY(double sigma, number_field(*object, path, "sigma"));
    DPCALC_TRY(double checked_sigma, check_positive(sigma, field_path(path, "sigma")));
    DPCALC_TRY(auto sensitivity, optional_number_field(*object, path, "sensitivity"));
    DPCALC_TRY(double checked_sensitivity, check_positive(sensitivity.value_or(1.0), field_path(path, "sensitivity")));
    return rdp::RdpItem{rate, checked_sigma / checked_sensitivity, 1};
  }
  if (type == "poisson_subsampled") {
    DPCALC_TRY(double inner_rate, number_field(*object, path, "rate"));
    DPCALC_TRY(double checked_rate, check_rate(inner_rate, field_path(path, "rate")));
    const std::string inner_path = field_path(path, "mechanism");
    if (depth > 8) return invalid_argument(inner_path, inner_path + " nests subsampling too deeply.");
    DPCALC_TRY(const Value* inner, member(*object, path, "mechanism"));
    return read_rdp_mechanism(*inner, inner_path, rate * checked_rate, depth + 1);
  }
  if (type == "laplace" || type == "gaussian_mixture") {
    return Error{kUnsupported, field_path(path, "type"),
                 "The RDP accountant handles 'gaussian' and 'poisson_subsampled' Gaussian mechanisms; use method "
                 "'pld' for " +
                     type + "."};
  }
  return unknown_choice(field_path(path, "type"), type, {"gaussian", "poisson_subsampled"});
}

struct RequestItems {
  std::vector<rdp::RdpItem> items;
  std::vector<std::string> sigma_fields;  // where each item's σ is in the request
};

// The path of the Gaussian's σ inside a mechanism already read by read_rdp_mechanism.
std::string sigma_field(const Value& mechanism, const std::string& path) {
  const Value* type = mechanism.find("type");
  if (type->as_string() == "gaussian") return field_path(path, "sigma");
  return sigma_field(*mechanism.find("mechanism"), field_path(path, "mechanism"));
}

Result<RequestItems> read_rdp_items(const Value& request) {
  DPCALC_TRY(const Value* items, member(request, "", "items"));
  if (!items->is_array() || items->as_array().empty()) {
    return invalid_argument("items", "items must be a non-empty array of {mechanism, count}.");
  }
  RequestItems result;
  for (std::size_t i = 0; i < items->as_array().size(); ++i) {
    const std::string path = "items." + std::to_string(i);
    DPCALC_TRY(const Value* item, require_object(items->as_array()[i], path));
    DPCALC_TRY(double count, number_field(*item, path, "count"));
    DPCALC_TRY(double checked_count, check_count(count, field_path(path, "count")));
    DPCALC_TRY(const Value* mechanism, member(*item, path, "mechanism"));
    DPCALC_TRY(rdp::RdpItem parsed, read_rdp_mechanism(*mechanism, field_path(path, "mechanism"), 1.0));
    parsed.count = checked_count;
    result.items.push_back(parsed);
    result.sigma_fields.push_back(sigma_field(*mechanism, field_path(path, "mechanism")));
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
};

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
  for (std::size_t i = 0; i < request_items.items.size(); ++i) {
    if (any_finite(rdp::compose({request_items.items[i]}, orders))) continue;
    const std::string& field = request_items.sigma_fields[i];
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
  const std::vector<double> epsilons = rdp::compose(request_items.items, orders);
  ComposedCurve curve;
  for (std::size_t i = 0; i < orders.size(); ++i) {
    (std::isfinite(epsilons[i]) ? curve.orders : curve.dropped).push_back(orders[i]);
    if (std::isfinite(epsilons[i])) curve.epsilons.push_back(epsilons[i]);
  }
  if (curve.orders.empty()) return no_finite_order(request, request_items, orders);
  return curve;
}

void describe(Value& result, const ComposedCurve& curve) {
  if (!curve.dropped.empty()) result.set("dropped_orders", Value::numbers(curve.dropped));
  set_method(result, rdp::kSubsampledGaussianRdp);
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
