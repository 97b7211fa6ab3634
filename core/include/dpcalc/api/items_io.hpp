// Reading the list of items that compose, profile and rdp compose: {guarantee | mechanism, count}.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// One item of a request: exactly one of a guarantee and a mechanism, used `count` times.
struct RequestItem {
  std::string path;  // "items.<i>"
  double count = 1;  // a whole number from 1 to 2^53
  std::optional<Guarantee> guarantee;
  std::optional<MechanismAt> mechanism;  // absent when the item is a guarantee
  // The request's neighbouring relation, which the mechanism supports.
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;

  // "items.<i>.mechanism" or "items.<i>.guarantee".
  std::string field() const;
};

// The non-empty array `items` of `request` (at path `at`), each under the request's `relation` as
// `shape` declares it (an error on the relation when a mechanism has no dominating pair under it).
// With `count_optional`, an item may leave its count out (the one an op solves for): its count is 0.
Result<std::vector<RequestItem>> read_items(const Value& request, const std::string& at, const Shape& shape,
                                            bool count_optional = false);

// An error of the code below the api layer about one item, in its words (Error::field; its
// Error::item is the item's place in the callee's list, which this replaces): its "count", "" for
// the item, or a parameter of its mechanism (mechanism_io.hpp: parameter_path) or of its guarantee
// ("epsilon", "delta", "rho", "type").
Error on_item(Error error, const RequestItem& item);

// The path of the field that sets the item's size: its mechanism's noise, or its guarantee's ε or ρ
// (the largest ε of an RDP curve).
std::string magnitude_path(const RequestItem& item);

}  // namespace dpcalc::api
