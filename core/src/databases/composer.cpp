#include "dpcalc/databases/composer.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/advanced_composition.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

namespace dpcalc::databases {
namespace {

const char* method_name(CompositionMethod method) {
  switch (method) {
    case CompositionMethod::kBasic:
      return "basic";
    case CompositionMethod::kAdvancedDrv:
    case CompositionMethod::kAdvancedKov:
      return "advanced";
    case CompositionMethod::kOptimal:
      return "optimal";
    case CompositionMethod::kZcdp:
      return "zcdp";
    case CompositionMethod::kPld:
      return "pld";
  }
  return "";
}

bool needs_delta(CompositionMethod method) {
  return method != CompositionMethod::kBasic && method != CompositionMethod::kZcdp;
}

// The releases of a footprint as items of `count` releases each (classes it misses are left out).
template <class Item, class Convert>
Result<std::vector<Item>> footprint_items(const std::vector<DatabaseClass>& classes, const Footprint& footprint,
                                          Convert convert) {
  std::vector<Item> items;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (footprint[c] == 0) continue;
    auto release = convert(classes[c]);
    if (!release.ok()) return about_item(release.error(), c);
    items.push_back({release.value(), footprint[c] * classes[c].queries});
  }
  return items;
}

bool same_pair(const pld::DominatingPair& a, const pld::DominatingPair& b) {
  if (a.sampling_rate != b.sampling_rate) return false;
  if (const auto* x = std::get_if<pld::ApproxDpPair>(&a.base)) {
    const auto* y = std::get_if<pld::ApproxDpPair>(&b.base);
    return y != nullptr && x->epsilon == y->epsilon && x->delta == y->delta;
  }
  if (const auto* x = std::get_if<pld::LaplacePair>(&a.base)) {
    const auto* y = std::get_if<pld::LaplacePair>(&b.base);
    return y != nullptr && x->scale == y->scale && x->sensitivity == y->sensitivity;
  }
  if (const auto* x = std::get_if<pld::GaussianPair>(&a.base)) {
    const auto* y = std::get_if<pld::GaussianPair>(&b.base);
    return y != nullptr && x->sigma == y->sigma && x->sensitivity == y->sensitivity;
  }
  return false;
}

// The PLD items of a footprint and, for each, the class it comes from (for errors). Composing
// Gaussian mechanisms of μ_i = Δ_i/σ_i gives the Gaussian mechanism of μ² = Σ μ_i² exactly (Dong,
// Roth, Su 2019, Cor. 3.3): one item instead of thousands makes the PLD fast; it is attributed to
// the class contributing most to μ². A μ² beyond the largest double is refused on that class's σ
// (fuzz seed 2: the merged σ came out as 0 and the error named an item that was not in the request).
struct PldItems {
  std::vector<pld::CompositionItem> items;
  std::vector<std::size_t> origin;
};

Result<PldItems> footprint_pld_items(const std::vector<DatabaseClass>& classes, const Footprint& footprint) {
  PldItems result;
  double mu_squared = 0;
  double largest_share = -1;
  std::size_t gaussian_origin = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (footprint[c] == 0) continue;
    DPCALC_TRY(pld::DominatingPair mechanism, pld_release(classes[c]));
    const double count = footprint[c] * classes[c].queries;
    const auto* gaussian = std::get_if<pld::GaussianPair>(&mechanism.base);
    if (gaussian == nullptr) {
      // The first class of a merged item is the one errors name.
      if (add_pld_item(result.items, mechanism, count) == result.origin.size()) result.origin.push_back(c);
      continue;
    }
    const double mu = gaussian->sensitivity / gaussian->sigma;
    const double share = count * mu * mu;
    mu_squared += share;
    if (!(share <= largest_share)) {
      largest_share = share;
      gaussian_origin = c;
    }
  }
  if (largest_share < 0) return result;
  if (!std::isfinite(mu_squared)) {
    return about_item(invalid_argument("sigma",
                                       "σ is too small for this computation: Σ count·(Δ/σ)² of "
                                       "the Gaussian releases would exceed the largest number a double can "
                                       "hold (about 1.8e308), so it would promise nothing. Use a larger σ."),
                      gaussian_origin);
  }
  result.items.push_back({pld::DominatingPair{pld::GaussianPair{1 / std::sqrt(mu_squared), 1}, 1.0}, 1});
  result.origin.push_back(gaussian_origin);
  return result;
}

bool same_release(const ApproxDp& a, const ApproxDp& b) { return a.epsilon == b.epsilon && a.delta == b.delta; }

}  // namespace

std::size_t add_pld_item(std::vector<pld::CompositionItem>& items, const pld::DominatingPair& pair, double count) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (!same_pair(items[i].pair, pair)) continue;
    items[i].count += count;
    return i;
  }
  items.push_back({pair, count});
  return items.size() - 1;
}

const MethodInfo& method_info(CompositionMethod method) {
  switch (method) {
    case CompositionMethod::kBasic:
      return kBasicComposition;
    case CompositionMethod::kAdvancedDrv:
      return kAdvancedDrv;
    case CompositionMethod::kAdvancedKov:
      return kAdvancedKov;
    case CompositionMethod::kOptimal:
      return kOptimalComposition;
    case CompositionMethod::kZcdp:
      return kZcdpComposition;
    case CompositionMethod::kPld:
      return pld::kPldMethod;
  }
  return kBasicComposition;
}

Result<ApproxDp> approx_release(const DatabaseClass& database_class) {
  if (const auto* approx = std::get_if<ApproxDp>(&database_class.release)) return *approx;
  if (const mechanisms::Mechanism* mechanism = release_mechanism(database_class)) {
    if (const auto epsilon = mechanism->pure_epsilon()) return ApproxDp{*epsilon, 0};
    return Error{kUnsupported, kRelease,
                 "The " + mechanism->type().title + " has no pure ε; compose it with method 'zcdp' or 'pld'."};
  }
  return Error{kUnsupported, "type", "A zCDP guarantee composes with method 'zcdp' only."};
}

Result<Zcdp> zcdp_release(const DatabaseClass& database_class) {
  if (const auto* zcdp = std::get_if<Zcdp>(&database_class.release)) return *zcdp;
  if (const mechanisms::Mechanism* mechanism = release_mechanism(database_class)) {
    if (const auto zcdp = mechanism->zcdp()) return *zcdp;
    return Error{kUnsupported, kRelease, "The " + mechanism->type().title + " has no zCDP bound; use method 'pld'."};
  }
  const ApproxDp approx = std::get<ApproxDp>(database_class.release);
  if (approx.delta != 0) {
    return Error{kUnsupported, "type",
                 "An (ε, δ) guarantee with δ > 0 has no zCDP bound; use method 'basic', 'advanced' or 'pld'."};
  }
  return pure_to_zcdp(PureDp{approx.epsilon});
}

Result<pld::DominatingPair> pld_release(const DatabaseClass& database_class) {
  if (const auto* approx = std::get_if<ApproxDp>(&database_class.release)) {
    return pld::DominatingPair{pld::ApproxDpPair{approx->epsilon, approx->delta}, 1.0};
  }
  if (const mechanisms::Mechanism* mechanism = release_mechanism(database_class)) {
    return mechanism->pair(database_class.relation);
  }
  return Error{kUnsupported, "type",
               "Method 'pld' composes mechanisms and pure or approx guarantees; a zCDP guarantee has no single "
               "dominating pair. Use method 'zcdp' or give the mechanism."};
}

Result<bool> check_method(const std::vector<DatabaseClass>& classes, const MethodOptions& options) {
  if (needs_delta(options.method) && !options.delta) {
    return invalid_argument(
        "delta", std::string("The total δ target is required for method '") + method_name(options.method) + "'.");
  }
  if (options.delta) DPCALC_CHECK(check_positive_delta(*options.delta, "delta"));
  std::optional<ApproxDp> first_release;  // optimal composition: every release the same as this one
  for (std::size_t c = 0; c < classes.size(); ++c) {
    const DatabaseClass& database_class = classes[c];
    // Releases without noise promise nothing under any method: the answer says so (no composition).
    if (const mechanisms::Mechanism* mechanism = release_mechanism(database_class);
        mechanism && mechanism->reveals_input()) {
      continue;
    }
    if (options.method == CompositionMethod::kZcdp) {
      if (auto checked = zcdp_release(database_class); !checked.ok()) return about_item(checked.error(), c);
    } else if (options.method == CompositionMethod::kPld) {
      if (auto checked = pld_release(database_class); !checked.ok()) return about_item(checked.error(), c);
    } else {
      Result<ApproxDp> release = approx_release(database_class);
      if (!release.ok()) return about_item(release.error(), c);
      if (!first_release) first_release = release.value();
      if (options.method == CompositionMethod::kOptimal && !same_release(release.value(), *first_release)) {
        return Error{kUnsupported, "classes",
                     "Optimal composition in closed form needs the same guarantee on every release; for different "
                     "releases use method 'pld', which brackets the optimal heterogeneous composition."};
      }
    }
  }
  return true;
}

namespace {

// The composition theorems' total δ is the δ of these options.
Error as_options_delta(Error error) {
  if (error.field == "total_delta") error.field = "delta";
  return error;
}

}  // namespace

Result<Composed> compose_approx_items(const std::vector<ComposedItem>& items, const MethodOptions& options) {
  Composed composed;
  switch (options.method) {
    case CompositionMethod::kBasic: {
      composed.approx = compose_basic(items);
      composed.pure = composed.approx.delta == 0;
      return composed;
    }
    case CompositionMethod::kAdvancedDrv:
    case CompositionMethod::kAdvancedKov: {
      const AdvancedVariant variant = options.method == CompositionMethod::kAdvancedDrv
                                          ? AdvancedVariant::kDworkRothblumVadhan
                                          : AdvancedVariant::kKairouzOhViswanath;
      Result<AdvancedResult> composed_advanced = compose_advanced_for_total_delta(variant, items, *options.delta);
      if (!composed_advanced.ok()) return as_options_delta(std::move(composed_advanced).error());
      const AdvancedResult& advanced = composed_advanced.value();
      composed.approx = advanced.guarantee;
      return composed;
    }
    case CompositionMethod::kOptimal: {
      double count = 0;
      for (const ComposedItem& item : items) count += item.count;
      if (items.empty()) {
        composed.approx = ApproxDp{0, *options.delta};
        return composed;
      }
      DPCALC_TRY(double checked, check_count(count, "classes"));
      Result<double> epsilon_at = optimal_composition_epsilon(items[0].guarantee, checked, *options.delta);
      if (!epsilon_at.ok()) return as_options_delta(std::move(epsilon_at).error());
      const double epsilon = epsilon_at.value();
      composed.approx = ApproxDp{epsilon, *options.delta};
      return composed;
    }
    default:
      return Error{kUnsupported, "method", "This method does not compose (ε, δ) items."};
  }
}

Composed compose_zcdp_items(const std::vector<ZcdpItem>& items, const MethodOptions& options) {
  Composed composed;
  composed.zcdp = compose_zcdp(items);
  composed.has_approx = options.delta.has_value();
  if (options.delta) composed.approx = zcdp_to_approx_canonne_kamath_steinke(*composed.zcdp, *options.delta);
  return composed;
}

Result<Composed> compose_footprint(const std::vector<DatabaseClass>& classes, const Footprint& footprint,
                                   const MethodOptions& options) {
  if (footprint_databases(footprint) == 0) {  // no release differs: nothing is learnt
    Composed nothing;
    nothing.approx = ApproxDp{0, options.delta.value_or(0)};
    nothing.pure = options.method == CompositionMethod::kBasic;
    if (options.method == CompositionMethod::kZcdp) {
      nothing.zcdp = Zcdp{0};
      nothing.has_approx = options.delta.has_value();
    }
    return nothing;
  }
  if (options.method == CompositionMethod::kZcdp) {
    DPCALC_TRY(std::vector<ZcdpItem> items, footprint_items<ZcdpItem>(classes, footprint, zcdp_release));
    return compose_zcdp_items(items, options);
  }
  if (options.method == CompositionMethod::kPld) {
    DPCALC_TRY(pld::AnsweredEpsilon answered, footprint_answer(classes, footprint, options));
    const pld::EpsilonBracket bracket = answered.bracket;
    if (options.answered_footprint) options.answered_footprint(footprint, std::move(answered));
    if (!std::isfinite(bracket.epsilon_upper)) {
      return Error{kNumeric, "delta", "The composition has no finite ε at this δ."};
    }
    Composed composed;
    composed.approx = ApproxDp{bracket.epsilon_upper, *options.delta};
    composed.bracket = bracket;
    return composed;
  }
  DPCALC_TRY(std::vector<ComposedItem> items, footprint_items<ComposedItem>(classes, footprint, approx_release));
  return compose_approx_items(items, options);
}

Result<pld::AnsweredEpsilon> footprint_answer(const std::vector<DatabaseClass>& classes, const Footprint& footprint,
                                              const MethodOptions& options) {
  DPCALC_TRY(PldItems pld_items, footprint_pld_items(classes, footprint));
  Result<pld::AnsweredEpsilon> answered =
      pld::epsilon_for_delta_with_plds(pld_items.items, *options.delta, options.accounting, options.progress);
  if (!answered.ok()) return on_class(answered.error(), classes, pld_items.origin);
  return answered;
}

bool gaussian_footprint(const std::vector<DatabaseClass>& classes, const Footprint& footprint) {
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (footprint[c] == 0) continue;
    const mechanisms::Mechanism* mechanism = release_mechanism(classes[c]);
    if (mechanism == nullptr || !mechanism->gaussian()) return false;
  }
  return true;
}

Error on_class(const Error& error, const std::vector<DatabaseClass>& classes, const std::vector<std::size_t>& origin) {
  if (error.item == Error::kNoItem || error.item >= origin.size() || origin[error.item] >= classes.size()) {
    return error;
  }
  Error restated = error;
  restated.item = origin[error.item];
  // An item's count is the releases of every class merged into it (add_pld_item): the class is what
  // to change.
  if (restated.field == "count") restated.field = "";
  return restated;
}

double reported_epsilon(const Composed& composed) {
  return composed.has_approx ? composed.approx.epsilon : composed.zcdp->rho;
}

bool covers(const Composed& a, const Composed& b) {
  if (!a.has_approx) return a.zcdp->rho >= b.zcdp->rho;
  return a.approx.epsilon >= b.approx.epsilon && a.approx.delta >= b.approx.delta;
}

}  // namespace dpcalc::databases
