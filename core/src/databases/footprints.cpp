#include "dpcalc/databases/footprints.hpp"

#include <algorithm>
#include <string>

#include "dpcalc/checks.hpp"

namespace dpcalc::databases {
namespace {

using ClassSet = std::vector<bool>;

// The families as sets of classes (Constraint: at least one, each a non-empty list of distinct
// class indices).
std::vector<ClassSet> family_sets(const std::vector<DatabaseClass>& classes, const Constraint& constraint) {
  std::vector<ClassSet> families;
  for (const std::vector<std::size_t>& members : constraint.families) {
    ClassSet family(classes.size(), false);
    for (std::size_t index : members) family[index] = true;
    families.push_back(std::move(family));
  }
  return families;
}

bool is_subset(const ClassSet& a, const ClassSet& b) {
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i] && !b[i]) return false;
  }
  return true;
}

// Drops duplicates and sets contained in another: they can never be the worst.
std::vector<ClassSet> maximal_sets(const std::vector<ClassSet>& sets) {
  std::vector<ClassSet> kept;
  for (std::size_t i = 0; i < sets.size(); ++i) {
    bool dominated = false;
    for (std::size_t j = 0; j < sets.size() && !dominated; ++j) {
      if (i == j || !is_subset(sets[i], sets[j])) continue;
      // Equal sets: keep the first copy only.
      dominated = sets[i] != sets[j] || j < i;
    }
    if (!dominated) kept.push_back(sets[i]);
  }
  return kept;
}

Footprint footprint_of(const std::vector<DatabaseClass>& classes, const ClassSet& set) {
  Footprint footprint(classes.size(), 0.0);
  for (std::size_t c = 0; c < classes.size(); ++c) footprint[c] = set[c] ? classes[c].count : 0.0;
  return footprint;
}

}  // namespace

Result<AllowedFootprints> allowed_footprints(const std::vector<DatabaseClass>& classes, const Constraint& constraint,
                                             Neighbours neighbours) {
  const double pairs = neighbours == Neighbours::kBounded ? 2 : 1;
  const double total = total_databases(classes);
  AllowedFootprints allowed;
  switch (constraint.type) {
    case ConstraintType::kNone:
      allowed.capacity = total;
      return allowed;
    case ConstraintType::kAtMost:
      allowed.capacity = std::min(pairs * constraint.at_most, total);
      return allowed;
    case ConstraintType::kExactlyOne:
      allowed.capacity = std::min(pairs, total);
      return allowed;
    case ConstraintType::kFamilies: {
      const std::vector<ClassSet> families = family_sets(classes, constraint);
      std::vector<ClassSet> candidates = families;
      if (neighbours == Neighbours::kBounded) {
        candidates.clear();
        for (std::size_t i = 0; i < families.size(); ++i) {
          for (std::size_t j = i; j < families.size(); ++j) {
            ClassSet both = families[i];
            for (std::size_t c = 0; c < both.size(); ++c) both[c] = both[c] || families[j][c];
            candidates.push_back(std::move(both));
          }
        }
      }
      for (const ClassSet& set : maximal_sets(candidates)) allowed.footprints.push_back(footprint_of(classes, set));
      return allowed;
    }
  }
  return allowed;
}

double databases_touched(const AllowedFootprints& allowed) {
  if (allowed.capacity) return *allowed.capacity;
  double most = 0;
  for (const Footprint& footprint : allowed.footprints) most = std::max(most, footprint_databases(footprint));
  return most;
}

Footprint all_databases(const std::vector<DatabaseClass>& classes) {
  Footprint footprint;
  for (const DatabaseClass& database_class : classes) footprint.push_back(database_class.count);
  return footprint;
}

double footprint_databases(const Footprint& footprint) {
  double total = 0;
  for (double count : footprint) total += count;
  return total;
}

double footprint_releases(const std::vector<DatabaseClass>& classes, const Footprint& footprint) {
  double total = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) total += footprint[c] * classes[c].queries;
  return total;
}

}  // namespace dpcalc::databases
