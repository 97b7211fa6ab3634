#include "dpcalc/databases/parallel.hpp"

#include <algorithm>

#include "dpcalc/databases/composer.hpp"

namespace dpcalc::databases {

std::optional<PureDp> merged_parallel(const std::vector<DatabaseClass>& classes, const AllowedFootprints& allowed) {
  if (!all_pure(classes)) return std::nullopt;
  double worst_database = 0;
  for (const DatabaseClass& database_class : classes) {
    // One database's releases compose by basic composition (McSherry's setting).
    worst_database = std::max(worst_database, database_class.queries * approx_release(database_class).value().epsilon);
  }
  return PureDp{databases_touched(allowed) * worst_database};
}

}  // namespace dpcalc::databases
