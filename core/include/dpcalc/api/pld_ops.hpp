// Requests answered by the numeric PLD engine (dpcalc/pld/accountant.hpp):
//   {op:'compose', method:'pld', delta | epsilon, items:[{mechanism | guarantee, count}], discretization?}
//   {op:'profile', items:[...], epsilons:[...], discretization?}
// `discretization` is either the grid step (a number) or {interval?, relative_accuracy?,
// tail_mass_truncation?}. Mechanisms: laplace, gaussian, poisson_subsampled {rate, mechanism},
// gaussian_mixture {sigma, shifts, weights}; pure and approx guarantees enter through their
// dominating pairs (Kairouz, Oh, Viswanath 2015).
#pragma once

#include <memory>
#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> compose_pld(const Value& request, const pld::ProgressCallback& progress);
Result<Value> privacy_profile_op(const Value& request, const pld::ProgressCallback& progress);

// For the trade-off of such a request (tradeoff_op.hpp), which reads its PLDs instead of querying
// them. Both check the request as the op does (its items, discretization, and δ, ε or epsilons),
// with the op's errors.
// The items it composes, each with its dominating pair (nothing is composed).
Result<std::vector<pld::CompositionItem>> pld_request_items(const Value& request);
// The PLDs its answer is read from: with delta, those of its ε answer, with that answer
// (pld::epsilon_for_delta_with_plds: nothing composed beyond what the answer composes; the ones
// compose_pld kept when it answered this very request, kept_answer.hpp); with epsilon or epsilons,
// one composition with the request's discretization (pld::compose_items; bracket left empty).
Result<std::shared_ptr<const pld::AnsweredEpsilon>> answered_pld_request(const Value& request,
                                                                         const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
