// The footprints a person can have (Hartmann, Bindschaedler, West 2022, Sec. V-A) and the neighbouring
// relation.
// A footprint F is the set of databases holding the person's record. The worst case composes
//   unbounded neighbours (record present or absent):  max over allowed F of Compose(F)
//   bounded neighbours (record replaced):              max over allowed F, F' of Compose(F ∪ F')
// (Hartmann et al. 2022, Thm 1: the worst pair of hypotheses is a pair of membership vectors, and releases on
// databases where the two vectors agree cost nothing).
#pragma once

#include <cstddef>
#include <optional>
#include <vector>

#include "dpcalc/databases/releases.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::databases {

// Limits that keep every request fast: the worst case compares families pairwise.
inline constexpr std::size_t kMaxFamilies = 64;

enum class ConstraintType { kNone, kAtMost, kExactlyOne, kFamilies };

// A valid constraint (the request reader checks it): m a whole number from 1 to 2^53; 1 to
// kMaxFamilies families, each a non-empty list of distinct indices of classes.
struct Constraint {
  ConstraintType type = ConstraintType::kNone;
  double at_most = 1;  // m (kAtMost)
  // kFamilies: each family is a set of class indices; a person in a family is in every database
  // of those classes (e.g. the common and the ads-only columns of a free user).
  std::vector<std::vector<std::size_t>> families;
};

enum class Neighbours { kUnbounded, kBounded };

// How many databases of each class a footprint (or a union of two) holds.
using Footprint = std::vector<double>;

// What the worst case ranges over, after the neighbouring relation is applied:
//  * a capacity: every footprint of at most `capacity` databases, of any classes (no constraint:
//    all databases; at most m: m or 2m; exactly one: 1 or 2 — two single databases together hold
//    at most two, and any two can be the pair);
//  * or explicit footprints of whole classes (families, or unions of two families), keeping only
//    the maximal ones: composing more releases never lowers a guarantee.
struct AllowedFootprints {
  std::optional<double> capacity;
  std::vector<Footprint> footprints;
};

// What the constraint allows under the neighbouring relation (no errors: the constraint is valid).
Result<AllowedFootprints> allowed_footprints(const std::vector<DatabaseClass>& classes, const Constraint& constraint,
                                             Neighbours neighbours);

// The most databases one footprint (or union of two) can hold: what parallel composition of the
// merged database charges for (Hartmann et al. 2022, Sec. V-A1).
double databases_touched(const AllowedFootprints& allowed);

// Every database of every class.
Footprint all_databases(const std::vector<DatabaseClass>& classes);

// Number of databases and of releases of a footprint.
double footprint_databases(const Footprint& footprint);
double footprint_releases(const std::vector<DatabaseClass>& classes, const Footprint& footprint);

}  // namespace dpcalc::databases
