// Reading the list of items that compose, profile and rdp compose: {guarantee | mechanism, count}.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// One item of a request: exactly one of a guarantee and a mechanism, used `count` times.
struct RequestItem {
  std::string path;  // "items.<i>"
  double count = 1;  // a whole number from 1 to 2^53
  std::optional<Guarantee> guarantee;
  mechanisms::MechanismPtr mechanism;  // null when the item is a guarantee
  // The request's neighbouring relation (`relation`), which the mechanism supports.
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;

  // "items.<i>.mechanism" or "items.<i>.guarantee".
  std::string field() const;
};

// The non-empty array `items` of `request`, each under the request's `relation` (an error on
// "relation" when a mechanism has no dominating pair under it).
Result<std::vector<RequestItem>> read_items(const Value& request);

}  // namespace dpcalc::api
