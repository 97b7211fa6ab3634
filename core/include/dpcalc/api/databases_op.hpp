// {op:'databases', method, delta?, variant?, databases:[{guarantee | mechanism, count?, queries?}],
//  constraint?:{type:'none'} | {type:'at_most', m} | {type:'exactly_one'} | {type:'families', families:[[i, …], …]},
//  neighbours?:'unbounded'|'bounded', adversary?:'worst_case'|'uninformative'}
// → {guarantee, footprint:{databases, releases, classes}, classic:{guarantee}, parallel:{guarantee}?,
//    method, citation, vacuous?, exact, note?}. See docs/API.md and dpcalc/databases/.
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> databases_op(const Value& request, const pld::ProgressCallback& progress);

}  // namespace dpcalc::api
