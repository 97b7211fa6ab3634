// {op:'databases', method, delta?, variant?, databases:[{guarantee | mechanism, count?, queries?}],
//  constraint?:{type:'none'} | {type:'at_most', m} | {type:'exactly_one'} | {type:'families', families:[[i, …], …]},
//  neighbours?:'unbounded'|'bounded', adversary?:'worst_case'|'uninformative', relation?, discretization?}
// → {guarantee, footprint:{databases, releases, classes}, classic:{guarantee}, parallel:{guarantee}?,
//    method, citation, vacuous?, exact, note?}. See docs/API.md and dpcalc/databases/.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/op.hpp"
#include "dpcalc/databases/composer.hpp"
#include "dpcalc/databases/footprints.hpp"
#include "dpcalc/databases/uninformative.hpp"

namespace dpcalc::api {

struct DatabasesRequest {
  std::string at;
  std::vector<databases::DatabaseClass> classes;
  std::vector<std::string> class_paths;              // "databases.<i>"
  std::vector<std::optional<MechanismAt>> releases;  // each class's mechanism, where it releases one
  databases::AllowedFootprints allowed;
  databases::MethodOptions options;  // method, δ, grid; no progress
  Discretization discretization;
  bool uninformed = false;  // adversary 'uninformative'
};

struct DatabasesAnswer : AnswerBase {
  DatabasesRequest request;
  databases::Composed guarantee;
  databases::Footprint footprint;
  std::string method, citation, citation_key;
  bool exact = false;
  std::string note;
  std::optional<PureDp> parallel;              // parallel composition of the merged database, where it applies
  std::optional<databases::Composed> classic;  // every database composed
  std::optional<Error> classic_error;          // ... or why it could not be
  bool delta_unused = false;                   // basic composition: the request's δ is not used
  // Method 'pld' against the worst case: the ε answer of each footprint composed numerically, with
  // its PLDs, by footprint (for the trade-off).
  std::map<databases::Footprint, pld::AnsweredEpsilon> answered;
};

Result<DatabasesRequest> read_databases(const Value& request, const std::string& at);
Result<DatabasesAnswer> answer_databases(const DatabasesRequest& request, const Progress& progress);
Value write_databases(const DatabasesAnswer& answer);
Result<Explained> explain_databases(const DatabasesAnswer& answer, const tradeoff::TradeoffOptions& options,
                                    const Progress& progress);

}  // namespace dpcalc::api
