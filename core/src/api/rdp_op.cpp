#include "dpcalc/api/rdp_op.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::api {
namespace {

// Items of mechanisms whose Rényi DP curve is known.
Result<std::vector<mechanisms::Use>> rdp_uses(const std::vector<RequestItem>& items, bool& any_plain,
                                              bool& any_subsampled) {
  std::vector<mechanisms::Use> uses;
  for (const RequestItem& item : items) {
    if (!item.mechanism) {
      return Error{kUnsupported, item.field(),
                   "The RDP accountant composes mechanisms; give the mechanism (or use op 'convert' and method "
                   "'zcdp' for guarantees)."};
    }
    const mechanisms::Mechanism& mechanism = *item.mechanism->mechanism;
    if (!mechanism.rdp_epsilon(2)) {
      const mechanisms::Mechanism* inner = &mechanism;
      while (!inner->arguments().mechanisms.empty()) inner = inner->arguments().mechanisms.begin()->second.get();
      return Error{kUnsupported, field_path(item.field(), "type"),
                   "The RDP accountant handles 'gaussian' and 'poisson_subsampled' Gaussian mechanisms; use method "
                   "'pld' for " +
                       inner->type().name + "."};
    }
    const bool subsampled = mechanism.pair(mechanisms::Relation::kAddRemove).sampling_rate < 1;
    (subsampled ? any_subsampled : any_plain) = true;
    uses.push_back({item.mechanism->mechanism, item.count});
  }
  return uses;
}

// The curves the items use: a plain Gaussian is Mironov 2017's, not the subsampled one's.
const MethodInfo& curves_cited(bool any_plain, bool any_subsampled) {
  if (!any_subsampled) return rdp::kGaussianRdp;
  return any_plain ? rdp::kGaussianAndSubsampledGaussianRdp : rdp::kSubsampledGaussianRdp;
}

bool any_finite(const std::vector<double>& values) {
  for (double value : values) {
    if (std::isfinite(value)) return true;
  }
  return false;
}

// No order is finite: an item whose own curve is infinite at every order has too little noise
// (ε(α) = α count Δ²/(2σ²) overflows, Mironov 2017, Prop. 7); otherwise the orders given (or the
// items together) are at fault.
Error no_finite_order(const std::vector<RequestItem>& items, const std::vector<mechanisms::Use>& uses,
                      const OrdersAt& orders, const std::string& at) {
  for (std::size_t i = 0; i < uses.size(); ++i) {
    if (any_finite(rdp::compose({uses[i]}, orders.orders))) continue;
    const std::string field = noise_path(*items[i].mechanism);
    return invalid_argument(field, describe_name(field) +
                                       " is too small for the RDP accountant: ε(α) of this "
                                       "mechanism exceeds the largest number a double can hold at every order, so "
                                       "it would promise nothing. Use a larger σ (or fewer uses).");
  }
  return Error{kNumeric, orders.given ? orders.path : field_path(at, "items"),
               orders.given ? "No order gives a finite Rényi divergence for these mechanisms; add integer orders."
                            : "No order gives a finite Rényi divergence for these mechanisms together; use larger "
                              "noise or fewer uses."};
}

}  // namespace

Result<RdpComposition> composed_curve(const std::vector<RequestItem>& items, const OrdersAt& orders,
                                      const std::string& at) {
  bool any_plain = false, any_subsampled = false;
  DPCALC_TRY(const std::vector<mechanisms::Use> uses, rdp_uses(items, any_plain, any_subsampled));
  const std::vector<double> epsilons = rdp::compose(uses, orders.orders);
  RdpComposition composed;
  composed.method = curves_cited(any_plain, any_subsampled);
  for (std::size_t i = 0; i < orders.orders.size(); ++i) {
    (std::isfinite(epsilons[i]) ? composed.curve.orders : composed.dropped).push_back(orders.orders[i]);
    if (std::isfinite(epsilons[i])) composed.curve.epsilons.push_back(epsilons[i]);
  }
  if (composed.curve.orders.empty()) return no_finite_order(items, uses, orders, at);
  return composed;
}

Result<RdpComposition> compose_rdp(const ComposeRequest& request) {
  DPCALC_CHECK(check_positive_delta(*request.delta, field_path(request.at, "delta")));
  DPCALC_TRY(RdpComposition composed, composed_curve(request.items, request.orders, request.at));
  Result<rdp::RdpToApprox> converted = rdp::to_approx(composed.curve.orders, composed.curve.epsilons, *request.delta);
  if (!converted.ok()) return at_path(std::move(converted).error(), request.at);
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
  result.set("orders", Value::numbers(answer.composition.curve.orders));
  result.set("epsilons", Value::numbers(answer.composition.curve.epsilons));
  if (!answer.composition.dropped.empty()) result.set("dropped_orders", Value::numbers(answer.composition.dropped));
  set_method(result, answer.composition.method);
  return result;
}

}  // namespace dpcalc::api
