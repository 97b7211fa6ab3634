#include "dpcalc/databases/releases.hpp"

#include "dpcalc/result.hpp"

namespace dpcalc::databases {

double total_databases(const std::vector<DatabaseClass>& classes) {
  double total = 0;
  for (const DatabaseClass& database_class : classes) total += database_class.count;
  return total;
}

std::string release_field(const DatabaseClass& database_class) {
  return field_path(database_class.field, database_class.from_mechanism ? "mechanism" : "guarantee");
}

bool all_pure(const std::vector<DatabaseClass>& classes) {
  for (const DatabaseClass& database_class : classes) {
    const auto* approx = std::get_if<ApproxDp>(&database_class.release);
    const bool pure =
        std::holds_alternative<LaplaceRelease>(database_class.release) || (approx != nullptr && approx->delta == 0);
    if (!pure) return false;
  }
  return true;
}

}  // namespace dpcalc::databases
