// {op:'tradeoff', of, alphas?, fpr?, prior?, reconstruction_baselines?}: what the answer to another
// request means to an attacker who tests whether a record (or a group of k records) was in the data
// (dpcalc/tradeoff/): the trade-off curve beta = f(alpha) and what follows from it. `of` is a forward
// request of op group, compose (any method), profile, convert, dpsgd or databases, or a bare
// {guarantee}. The curve comes from the tightest source the request has:
//  * exactly Gaussian noise (every item a Gaussian mechanism, mu^2 = sum count (Delta/sigma)^2, Dong,
//    Roth, Su 2019, Cor. 3.3; a group of k records of one at k Delta): the exact mu-GDP curve;
//  * numeric answers (compose 'pld', profile, dpsgd, databases 'pld') and a group of a mechanism
//    that is not Gaussian (a Laplace mechanism at k Delta): its privacy loss distributions, composed
//    once with the request's discretization, read in both directions;
//  * zCDP and RDP answers (compose 'zcdp' and 'rdp', zcdp and rdp guarantees): their whole privacy
//    profile;
//  * the other closed forms: the (eps, delta) they answer.
// Each reported beta is at most the true trade-off of what the request analyses (sound for the data
// subject). `source` says which: 'gaussian', 'pld', 'pure', 'approx', 'zcdp' or 'rdp'. Errors of `of`
// come back on its fields ("of.items.0.mechanism.sigma"); an op without a trade-off on "of.op".
// See docs/API.md.
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// `progress` is passed to the numeric sources (the composition of the PLDs); the others never call it.
Result<Value> tradeoff_op(const Value& request, const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
