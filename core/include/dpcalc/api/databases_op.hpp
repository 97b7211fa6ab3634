// {op:'databases', method, delta?, variant?, databases:[{guarantee | mechanism, count?, queries?}],
//  constraint?:{type:'none'} | {type:'at_most', m} | {type:'exactly_one'} | {type:'families', families:[[i, …], …]},
//  neighbours?:'unbounded'|'bounded', adversary?:'worst_case'|'uninformative'}
// → {guarantee, footprint:{databases, releases, classes}, classic:{guarantee}, parallel:{guarantee}?,
//    method, citation, vacuous?, exact, note?}. See docs/API.md and dpcalc/databases/.
#pragma once

#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/databases/composer.hpp"
#include "dpcalc/databases/footprints.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

Result<Value> databases_op(const Value& request, const pld::ProgressCallback& progress);

// A databases request, read and checked as databases_op checks it before composing anything (for
// the trade-off, tradeoff_op.hpp, which composes the footprints itself).
struct DatabasesRequest {
  std::vector<databases::DatabaseClass> classes;
  databases::AllowedFootprints allowed;
  databases::MethodOptions options;  // method, δ and classes_field set; no progress
  bool uninformed = false;           // adversary 'uninformative'
};
Result<DatabasesRequest> read_databases_request(const Value& request);

}  // namespace dpcalc::api
