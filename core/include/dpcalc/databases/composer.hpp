// Composing the releases of one footprint with any composition method of the calculator:
//   basic      (Dwork & Roth 2014, Thm 3.16)
//   advanced   (Dwork, Rothblum, Vadhan 2010, Thm III.3; Kairouz, Oh, Viswanath 2015, Thm 3.5)
//   optimal    (Kairouz, Oh, Viswanath 2015, Thm 3.3; identical releases only)
//   zCDP       (Bun & Steinke 2016, Lemma 2.3; converted by Canonne, Kamath, Steinke 2020, Cor 13)
//   PLD        (numeric; dpcalc/pld/accountant.hpp)
// Each answer is an upper bound for the releases it composes.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/databases/footprints.hpp"
#include "dpcalc/databases/releases.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::databases {

enum class CompositionMethod { kBasic, kAdvancedDrv, kAdvancedKov, kOptimal, kZcdp, kPld };

struct MethodOptions {
  CompositionMethod method = CompositionMethod::kBasic;
  std::optional<double> delta;  // total δ target in (0, 1): required except for basic and zCDP
  pld::AccountingOptions accounting;
  pld::ProgressCallback progress;
  // Method 'pld': when set, compose_footprint hands it each footprint's ε answer with the PLDs it was
  // read from (footprint_answer), for what reads more from them (the trade-off of the same request).
  std::function<void(const Footprint&, pld::AnsweredEpsilon)> answered_footprint;
};

const MethodInfo& method_info(CompositionMethod method);

// One composed guarantee.
struct Composed {
  ApproxDp approx;  // (ε, δ); absent meaning for zCDP without a δ target
  bool has_approx = true;
  bool pure = false;                           // basic composition of pure releases: δ is 0 and ε is pure ε-DP
  std::optional<Zcdp> zcdp;                    // zCDP method: the composed ρ
  std::optional<pld::EpsilonBracket> bracket;  // PLD: the bracket around the exact ε
};

// The releases of one class as (ε, δ) items (Laplace: Δ/b-DP, Dwork, McSherry, Nissim, Smith 2006).
// Errors: unsupported on the release (kRelease, or its "type") for Gaussian and zCDP releases; the
// caller, which knows the class's index, adds it (releases.hpp).
Result<ApproxDp> approx_release(const DatabaseClass& database_class);
// As zCDP: ε-DP is ε²/2-zCDP (Bun & Steinke 2016, Prop 1.4), Gaussian Δ²/(2σ²) (Prop 1.6).
Result<Zcdp> zcdp_release(const DatabaseClass& database_class);
// As a PLD mechanism (guarantees through their dominating randomized-response pair).
Result<pld::DominatingPair> pld_release(const DatabaseClass& database_class);

// Adds `count` uses of `pair` to `items`, into an item of the same pair when there is one, and
// returns that item's index. Identical releases of many classes (1000 classes of one release each)
// then reach the PLD engine as one item, which it composes by repeated squaring instead of one
// class at a time on a grid as wide as the whole composition.
std::size_t add_pld_item(std::vector<pld::CompositionItem>& items, const pld::DominatingPair& pair, double count);

// Checks that every class can be composed by the method (a release without noise needs none: it
// promises nothing) and that δ is present when needed
// (errors name a class as releases.hpp says, or "delta", or "classes" for all of them).
Result<bool> check_method(const std::vector<DatabaseClass>& classes, const MethodOptions& options);

// An error of the PLD engine on item i of its items, on class origin[i] (releases.hpp): its count is
// the class's (the releases of every class merged into the item), anything else about its pair is
// the release's. Other errors are returned as they are.
Error on_class(const Error& error, const std::vector<DatabaseClass>& classes, const std::vector<std::size_t>& origin);

// Composes the releases of `footprint` (how many databases of each class).
Result<Composed> compose_footprint(const std::vector<DatabaseClass>& classes, const Footprint& footprint,
                                   const MethodOptions& options);

// Method 'pld': the ε answer compose_footprint gives for a footprint of at least one database, with
// the PLDs it is read from (pld::epsilon_for_delta_with_plds), for what reads their whole profile
// (the trade-off curve). Errors as compose_footprint's, but an infinite ε is returned as it is.
Result<pld::AnsweredEpsilon> footprint_answer(const std::vector<DatabaseClass>& classes, const Footprint& footprint,
                                              const MethodOptions& options);

// True when every release of `footprint` is a Gaussian mechanism: they compose exactly to one
// Gaussian mechanism (Dong, Roth, Su 2019, Cor. 3.3), whose trade-off needs no PLD.
bool gaussian_footprint(const std::vector<DatabaseClass>& classes, const Footprint& footprint);

// Composes explicit (ε, δ) items (each `count` releases) with a closed-form method at the δ
// target of `options` (basic ignores it). Used for virtual release sets that bound many footprints.
Result<Composed> compose_approx_items(const std::vector<ComposedItem>& items, const MethodOptions& options);

// Composes ρ-zCDP items and converts at the δ target if there is one.
Composed compose_zcdp_items(const std::vector<ZcdpItem>& items, const MethodOptions& options);

// The number answers are ranked by: ε, or ρ for zCDP without a δ target.
double reported_epsilon(const Composed& composed);

// True when `a` is at least as large a guarantee as `b` in every component.
bool covers(const Composed& a, const Composed& b);

}  // namespace dpcalc::databases
