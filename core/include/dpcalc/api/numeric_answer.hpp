// The answer of the PLD engine to a composition (compose with method 'pld', profile, the groups and
// DP-SGD trainings it composes): ε at a δ, δ at an ε, or δ at each of several ε, with the bracket
// and the composed PLDs it was read from (for its trade-off, which composes nothing again), or the
// exact answer of a composition of Gaussian noise (one Gaussian, no grid).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/explain.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::api {

struct NumericAnswer {
  PldQueries asked;                            // what was asked (and the ε answer, when one was)
  std::optional<pld::DeltaBracket> delta;      // δ at asked.epsilon
  std::optional<pld::PrivacyProfile> profile;  // δ at each of asked.epsilons
  // The PLDs the answer was read from; null for an exact Gaussian answer (then `mu` is set).
  std::shared_ptr<const pld::ComposedPlds> plds;
  std::optional<double> mu;  // exactly μ-GDP: μ rounded up
  MethodInfo method{"", "", ""};
  std::string note;  // the accuracy note and what the items' pairs rest on ("" when none)
  // The lower ends bound the composition of the items' dominating pairs, not the mechanisms: an
  // item's pair is not attained by any known inputs (Mechanism::pair_is_attained).
  bool lower_of_pairs = false;
  // The cheaper route that proved a smaller ε than the engine and replaced its upper end ("rdp",
  // "zcdp"; "" when the engine's stands).
  std::string capped_by;
};

// The answer's fields of a result: guarantee (and vacuous), epsilon_upper and epsilon_lower, or
// delta_upper and delta_lower, or epsilons with delta_upper and delta_lower; discretization,
// grid_size, truncated_mass (0 for an exact answer); method, citation, citation_key; note;
// lower_bound_of: 'dominating_pairs' when the lower ends bound the pairs, not the mechanisms;
// capped_by when a cheaper route replaced the upper end.
void write_numeric(Value& result, const NumericAnswer& answer);

// The answer where no finite ε holds at the δ asked and δ = 1 at every ε asked (an item without
// noise): vacuous, with `note` saying why (pld_ops.cpp).
NumericAnswer no_guarantee_answer(const PldQueries& asked, const std::string& note);
// A lower bound on the probability that the composition of `items` has privacy loss +∞ (in its worse
// direction), from the pairs' own masses there: below it no δ has a finite ε.
double infinite_loss_lower(const std::vector<pld::CompositionItem>& items);

// Its trade-off: the μ-GDP curve of an exact answer, else the curve of its PLDs through its points.
Result<Explained> explain_numeric(const NumericAnswer& answer, const tradeoff::TradeoffOptions& options);

}  // namespace dpcalc::api
