// The closed-form methods of op 'compose': basic, parallel, advanced, optimal and zCDP composition
// of the items' guarantees (what each item's mechanism guarantees in closed form).
#include <cmath>
#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/compose_op.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/advanced_composition.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

namespace dpcalc::api {
namespace {

// An item's mechanism lacks what a closed-form method needs: said on the mechanism when it has
// other closed forms (a Gaussian under basic composition), on its type when it has none at all.
Error lacks(const RequestItem& item, const std::string& what, const std::string& methods) {
  const mechanisms::Mechanism& mechanism = *item.mechanism->mechanism;
  if (const auto [reason, parameter] = mechanism.unbounded_loss(); !reason.empty()) {
    return Error{kUnsupported, field_path(item.field(), parameter), reason};
  }
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
      const auto epsilon = item.mechanism->mechanism->pure_epsilon();
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
      const auto zcdp = item.mechanism->mechanism->zcdp();
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

// For overflow errors: the path of the item with the largest count × `magnitude` (ε or ρ).
template <class Item, class Magnitude>
std::string dominant_path(const std::vector<RequestItem>& request_items, const std::vector<Item>& items,
                          const Magnitude& magnitude) {
  std::size_t largest = 0;
  for (std::size_t i = 1; i < items.size(); ++i) {
    if (!(magnitude(items[i]) * items[i].count <= magnitude(items[largest]) * items[largest].count)) largest = i;
  }
  return magnitude_path(request_items[largest]);
}

ClosedComposition approx_composition(const ApproxDp& guarantee, const MethodInfo& info, bool all_pure) {
  ClosedComposition composed;
  composed.guarantee = all_pure ? Guarantee{PureDp{guarantee.epsilon}} : Guarantee{guarantee};
  composed.vacuous = is_vacuous(guarantee);
  composed.method = info;
  return composed;
}

bool all_pure(const std::vector<ComposedItem>& items) {
  for (const ComposedItem& item : items) {
    if (item.guarantee.delta != 0) return false;
  }
  return true;
}

// The δ of the request's answer, "delta" in the code below.
Error on_total_delta(Error error, const std::string& at) {
  if (error.field == "total_delta") error.field = field_path(at, "delta");
  return error;
}

Result<ClosedComposition> advanced(const ComposeRequest& request, const std::vector<ComposedItem>& items) {
  AdvancedResult answer;
  if (request.delta_slack) {
    DPCALC_TRY(double slack, check_positive_delta(*request.delta_slack, field_path(request.at, "delta_slack")));
    answer = compose_advanced(request.variant, items, slack);
  } else {
    if (!request.delta) {
      return invalid_argument(field_path(request.at, "delta"),
                              "delta (the total δ target) or delta_slack (δ') is required.");
    }
    DPCALC_TRY(double target, check_positive_delta(*request.delta, field_path(request.at, "delta")));
    Result<AdvancedResult> composed = compose_advanced_for_total_delta(request.variant, items, target);
    if (!composed.ok()) return on_total_delta(std::move(composed).error(), request.at);
    answer = composed.value();
  }
  ClosedComposition composed = approx_composition(
      answer.guarantee, request.variant == AdvancedVariant::kKairouzOhViswanath ? kAdvancedKov : kAdvancedDrv, false);
  composed.delta_slack = answer.delta_slack;
  return composed;
}

// The path an item's per-step ε comes from: the guarantee's ε, or the mechanism's noise.
std::string epsilon_path(const RequestItem& item) {
  return item.mechanism ? noise_path(*item.mechanism) : field_path(item.path, "guarantee.epsilon");
}

Result<ClosedComposition> optimal(const ComposeRequest& request, const std::vector<ComposedItem>& items) {
  DPCALC_TRY(const double target, check_positive_delta(*request.delta, field_path(request.at, "delta")));
  double count = 0;
  for (const ComposedItem& item : items) {
    if (item.guarantee.epsilon != items[0].guarantee.epsilon || item.guarantee.delta != items[0].guarantee.delta) {
      return Error{kUnsupported, field_path(request.at, "items"),
                   "Optimal composition in closed form needs identical items; for different items use method "
                   "'pld', which brackets the optimal heterogeneous composition."};
    }
    count += item.count;
  }
  const std::string count_path =
      items.size() == 1 ? field_path(request.items[0].path, "count") : field_path(request.at, "items");
  DPCALC_TRY(double count_total, check_count(count, count_path));
  Result<double> size = check_optimal_composition_size(items[0].guarantee.epsilon, count_total);
  if (!size.ok()) {
    Error error = std::move(size).error();
    error.field = error.field == "count" ? count_path : epsilon_path(request.items[0]);
    return error;
  }
  Result<double> epsilon = optimal_composition_epsilon(items[0].guarantee, count_total, target);
  if (!epsilon.ok()) return on_total_delta(std::move(epsilon).error(), request.at);
  return approx_composition(ApproxDp{epsilon.value(), target}, kOptimalComposition, false);
}

Result<ClosedComposition> zcdp(const ComposeRequest& request, std::string& overflow_field) {
  DPCALC_TRY(std::vector<ZcdpItem> items, as_zcdp_items(request.items));
  overflow_field = dominant_path(request.items, items, [](const ZcdpItem& item) { return item.guarantee.rho; });
  const Zcdp total = compose_zcdp(items);
  if (request.delta) DPCALC_CHECK(check_positive_delta(*request.delta, field_path(request.at, "delta")));
  ClosedComposition composed;
  composed.guarantee = total;
  composed.method = kZcdpComposition;
  if (!request.delta) return composed;
  composed.approx = request.bun_steinke ? zcdp_to_approx_bun_steinke(total, *request.delta)
                                        : zcdp_to_approx_canonne_kamath_steinke(total, *request.delta);
  composed.conversion = request.bun_steinke ? kZcdpBunSteinke : kZcdpCanonneKamathSteinke;
  return composed;
}

}  // namespace

Result<ClosedComposition> compose_closed(const ComposeRequest& request, std::string& overflow_field) {
  if (request.method == ComposeMethod::kZcdp) return zcdp(request, overflow_field);
  DPCALC_TRY(std::vector<ComposedItem> items, as_approx_items(request.items));
  if (request.method == ComposeMethod::kOptimal) return optimal(request, items);
  overflow_field = dominant_path(request.items, items, [](const ComposedItem& item) { return item.guarantee.epsilon; });
  switch (request.method) {
    case ComposeMethod::kBasic:
      return approx_composition(compose_basic(items), kBasicComposition, all_pure(items));
    case ComposeMethod::kParallel:
      return approx_composition(compose_parallel(items), kParallelComposition, all_pure(items));
    default:
      return advanced(request, items);
  }
}

}  // namespace dpcalc::api
