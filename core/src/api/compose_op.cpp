// {op:'compose', method, items, ...} for the closed-form methods: see docs/API.md. Method 'pld'
// is answered by pld_ops.cpp.
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/items_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/ops.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/advanced_composition.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

namespace dpcalc::api {
namespace {

enum class Method { kBasic, kParallel, kAdvanced, kOptimal, kZcdp };

Result<Method> read_method(const Value& request) {
  DPCALC_TRY(std::string name, string_field(request, "", "method"));
  if (name == "basic") return Method::kBasic;
  if (name == "parallel") return Method::kParallel;
  if (name == "advanced") return Method::kAdvanced;
  if (name == "optimal") return Method::kOptimal;
  if (name == "zcdp") return Method::kZcdp;
  return unknown_choice("method", name, {"basic", "parallel", "advanced", "optimal", "zcdp", "pld", "rdp"});
}

// An item's mechanism lacks what a closed-form method needs: said on the mechanism when it has
// other closed forms (a Gaussian under basic composition), on its type when it has none at all.
Error lacks(const RequestItem& item, const std::string& what, const std::string& methods) {
  const mechanisms::Mechanism& mechanism = *item.mechanism;
  if (mechanism.pure_epsilon() || mechanism.zcdp()) {
    return Error{kUnsupported, item.field(),
                 "The " + mechanism.type().title + " has no " + what + "; compose it with method " + methods + "."};
  }
  return Error{kUnsupported, field_path(item.field(), "type"),
               "A mechanism of type '" + mechanism.type().name + "' has no closed form here; use method 'pld'."};
}

// Items as (ε, δ) guarantees, for basic, parallel, advanced and optimal composition.
Result<std::vector<ComposedItem>> as_approx_items(const std::vector<RequestItem>& items) {
  std::vector<ComposedItem> result;
  for (const RequestItem& item : items) {
    if (item.mechanism) {
      const auto epsilon = item.mechanism->pure_epsilon();
      if (!epsilon) return lacks(item, "pure ε", "'zcdp' or 'pld'");
      result.push_back({ApproxDp{*epsilon, 0}, item.count});
    } else if (const auto* pure = std::get_if<PureDp>(&*item.guarantee)) {
      result.push_back({ApproxDp{pure->epsilon, 0}, item.count});
    } else if (const auto* approx = std::get_if<ApproxDp>(&*item.guarantee)) {
      result.push_back({*approx, item.count});
    } else {
      return Error{kUnsupported, field_path(item.path, "guarantee.type"),
                   "zCDP and RDP guarantees compose with method 'zcdp' (convert RDP curves first)."};
    }
  }
  return result;
}

// Items as zCDP guarantees: ε-DP is ε²/2-zCDP (Bun & Steinke 2016, Prop 1.4); a mechanism's own
// bound (the Gaussian's Δ²/(2σ²), Prop 1.6).
Result<std::vector<ZcdpItem>> as_zcdp_items(const std::vector<RequestItem>& items) {
  std::vector<ZcdpItem> result;
  for (const RequestItem& item : items) {
    if (item.mechanism) {
      const auto zcdp = item.mechanism->zcdp();
      if (!zcdp) return lacks(item, "zCDP bound", "'pld'");
      result.push_back({*zcdp, item.count});
    } else if (const auto* pure = std::get_if<PureDp>(&*item.guarantee)) {
      result.push_back({pure_to_zcdp(*pure), item.count});
    } else if (const auto* zcdp = std::get_if<Zcdp>(&*item.guarantee)) {
      result.push_back({*zcdp, item.count});
    } else if (const auto* approx = std::get_if<ApproxDp>(&*item.guarantee); approx && approx->delta == 0) {
      result.push_back({pure_to_zcdp(PureDp{approx->epsilon}), item.count});
    } else {
      return Error{kUnsupported, field_path(item.path, "guarantee.type"),
                   "Only pure DP, zCDP and Gaussian items have a zCDP bound; an (ε, δ) guarantee with δ > 0 "
                   "does not. Use method 'basic', 'advanced' or 'pld'."};
    }
  }
  return result;
}

// The field that sets an item's size: its mechanism's noise, or its guarantee's ε or ρ.
std::string item_magnitude_field(const RequestItem& item) {
  if (item.mechanism) return noise_field(*item.mechanism);
  return magnitude_field(*item.guarantee, field_path(item.path, "guarantee"));
}

// For overflow errors: the field of the item with the largest count × `magnitude` (ε or ρ).
template <class Item, class Magnitude>
std::string dominant_field(const std::vector<RequestItem>& request_items, const std::vector<Item>& items,
                           const Magnitude& magnitude) {
  std::size_t largest = 0;
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (!(magnitude(items[i]) * items[i].count <= magnitude(items[largest]) * items[largest].count)) largest = i;
  }
  return item_magnitude_field(request_items[largest]);
}

Value approx_result(const ApproxDp& guarantee, const MethodInfo& info, bool all_pure) {
  Value result = Value::object();
  result.set("guarantee", all_pure ? to_value(PureDp{guarantee.epsilon}) : to_value(guarantee));
  if (is_vacuous(guarantee)) result.set("vacuous", true);
  set_method(result, info);
  return result;
}

bool all_pure(const std::vector<ComposedItem>& items) {
  for (const ComposedItem& item : items) {
    if (item.guarantee.delta != 0) return false;
  }
  return true;
}

Result<Value> compose_advanced_op(const Value& request, const std::vector<ComposedItem>& items) {
  DPCALC_TRY(auto variant_name, optional_string_field(request, "", "variant"));
  AdvancedVariant variant = AdvancedVariant::kKairouzOhViswanath;
  if (variant_name && *variant_name == "dwork_rothblum_vadhan") {
    variant = AdvancedVariant::kDworkRothblumVadhan;
  } else if (variant_name && *variant_name != "kairouz") {
    return unknown_choice("variant", *variant_name, {"dwork_rothblum_vadhan", "kairouz"});
  }
  DPCALC_TRY(auto delta_slack, optional_number_field(request, "", "delta_slack"));
  DPCALC_TRY(auto delta, optional_number_field(request, "", "delta"));
  if (delta_slack && delta) {
    return invalid_argument("delta_slack", "Give either delta_slack (δ') or delta (the total δ target), not both.");
  }
  AdvancedResult answer;
  if (delta_slack) {
    DPCALC_TRY(double slack, check_positive_delta(*delta_slack, "delta_slack"));
    answer = compose_advanced(variant, items, slack);
  } else {
    if (!delta) return invalid_argument("delta", "delta (the total δ target) or delta_slack (δ') is required.");
    DPCALC_TRY(double target, check_positive_delta(*delta, "delta"));
    DPCALC_TRY(answer, compose_advanced_for_total_delta(variant, items, target, "delta"));
  }
  Value result = approx_result(answer.guarantee,
                               variant == AdvancedVariant::kKairouzOhViswanath ? kAdvancedKov : kAdvancedDrv, false);
  result.set("delta_slack", answer.delta_slack);
  return result;
}

// The request field an item's per-step ε comes from: the guarantee's ε, or the mechanism's noise.
std::string epsilon_field(const RequestItem& item) {
  return item.mechanism ? noise_field(*item.mechanism) : field_path(item.path, "guarantee.epsilon");
}

Result<Value> compose_optimal_op(const Value& request, const std::vector<RequestItem>& request_items,
                                 const std::vector<ComposedItem>& items) {
  DPCALC_TRY(double delta, number_field(request, "", "delta"));
  DPCALC_TRY(double target, check_positive_delta(delta, "delta"));
  double count = 0;
  for (const ComposedItem& item : items) {
    if (item.guarantee.epsilon != items[0].guarantee.epsilon || item.guarantee.delta != items[0].guarantee.delta) {
      return Error{kUnsupported, "items",
                   "Optimal composition in closed form needs identical items; for different items use method "
                   "'pld', which brackets the optimal heterogeneous composition."};
    }
    count += item.count;
  }
  const std::string count_field = items.size() == 1 ? field_path(request_items[0].path, "count") : "items";
  DPCALC_TRY(double count_total, check_count(count, count_field));
  DPCALC_TRY(count_total, check_optimal_composition_size(items[0].guarantee.epsilon, count_total, count_field,
                                                         epsilon_field(request_items[0])));
  DPCALC_TRY(double epsilon, optimal_composition_epsilon(items[0].guarantee, count_total, target, "delta"));
  return approx_result(ApproxDp{epsilon, target}, kOptimalComposition, false);
}

Result<Value> compose_zcdp_op(const Value& request, const std::vector<ZcdpItem>& items) {
  const Zcdp total = compose_zcdp(items);
  Value result = Value::object();
  result.set("guarantee", to_value(total));
  set_method(result, kZcdpComposition);
  DPCALC_TRY(auto delta, optional_number_field(request, "", "delta"));
  if (!delta) return result;
  DPCALC_TRY(double target, check_positive_delta(*delta, "delta"));
  DPCALC_TRY(auto conversion, optional_string_field(request, "", "conversion"));
  const bool bun_steinke = conversion && *conversion == "bun_steinke";
  if (conversion && !bun_steinke && *conversion != "canonne_kamath_steinke") {
    return unknown_choice("conversion", *conversion, {"bun_steinke", "canonne_kamath_steinke"});
  }
  const ApproxDp approx =
      bun_steinke ? zcdp_to_approx_bun_steinke(total, target) : zcdp_to_approx_canonne_kamath_steinke(total, target);
  result.set("approx", to_value(approx));
  const MethodInfo& info = bun_steinke ? kZcdpBunSteinke : kZcdpCanonneKamathSteinke;
  Value conversion_method = Value::object();
  set_method(conversion_method, info);
  result.set("conversion", std::move(conversion_method));
  return result;
}

Result<Value> compose_zcdp_checked(const Value& request, const std::vector<RequestItem>& request_items) {
  DPCALC_TRY(std::vector<ZcdpItem> items, as_zcdp_items(request_items));
  DPCALC_TRY(Value result, compose_zcdp_op(request, items));
  return finite_or_overflow(
      std::move(result), dominant_field(request_items, items, [](const ZcdpItem& item) { return item.guarantee.rho; }));
}

Result<Value> compose_approx(Method method, const Value& request, const std::vector<ComposedItem>& items) {
  switch (method) {
    case Method::kBasic:
      return approx_result(compose_basic(items), kBasicComposition, all_pure(items));
    case Method::kParallel:
      return approx_result(compose_parallel(items), kParallelComposition, all_pure(items));
    default:
      return compose_advanced_op(request, items);
  }
}

}  // namespace

Result<Value> compose_op(const Value& request) {
  DPCALC_TRY(Method method, read_method(request));
  DPCALC_TRY(std::vector<RequestItem> request_items, read_items(request));
  if (method == Method::kZcdp) return compose_zcdp_checked(request, request_items);
  DPCALC_TRY(std::vector<ComposedItem> items, as_approx_items(request_items));
  if (method == Method::kOptimal) return compose_optimal_op(request, request_items, items);
  DPCALC_TRY(Value result, compose_approx(method, request, items));
  return finite_or_overflow(std::move(result), dominant_field(request_items, items, [](const ComposedItem& item) {
                              return item.guarantee.epsilon;
                            }));
}

}  // namespace dpcalc::api
