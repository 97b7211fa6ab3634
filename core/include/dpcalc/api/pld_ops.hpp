// Requests answered by the numeric PLD engine (dpcalc/pld/accountant.hpp):
//   {op:'compose', method:'pld', delta | epsilon, items:[{mechanism | guarantee, count}], discretization?}
//   {op:'profile', items:[...], epsilons:[...], discretization?}
// `discretization` is either the grid step (a number) or {interval?, relative_accuracy?,
// tail_mass_truncation?}. Mechanisms: laplace, gaussian, poisson_subsampled {rate, mechanism},
// gaussian_mixture {sigma, shifts, weights}; pure and approx guarantees enter through their
// dominating pairs (Kairouz, Oh, Viswanath 2015).
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> compose_pld(const Value& request, const pld::ProgressCallback& progress);
Result<Value> privacy_profile_op(const Value& request, const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
