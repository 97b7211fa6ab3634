// {op:'rdp', items:[{mechanism, count}], orders?, relation?}: the Rényi DP curve of a composition
// (Mironov 2017, Prop 1), each item's curve from its mechanism (Mechanism::rdp_epsilon, cited by its
// rdp_method); method 'rdp' of op 'compose' converts the same curve to (ε, δ), or that of tuning it by
// random repetition (compose_op.hpp: compose_rdp). See docs/API.md.
#pragma once

#include <string>
#include <vector>

#include "dpcalc/api/compose_op.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/op.hpp"

namespace dpcalc::api {

struct RdpRequest {
  std::string at;
  std::vector<RequestItem> items;
  OrdersAt orders;
};

struct RdpAnswer : AnswerBase {
  RdpComposition composition;
};

Result<RdpRequest> read_rdp(const Value& request, const std::string& at);
Result<RdpAnswer> answer_rdp(const RdpRequest& request, const Progress& progress);
Value write_rdp(const RdpAnswer& answer);

// The composed curve of the items at the orders. Errors: unsupported on an item's mechanism type
// without a curve under the request's relation; invalid_argument on its noise, or numeric on the
// orders, when no order is finite.
Result<RdpComposition> composed_curve(const std::vector<RequestItem>& items, const OrdersAt& orders,
                                      const std::string& at);

}  // namespace dpcalc::api
