#include "dpcalc/databases/releases.hpp"

#include "dpcalc/result.hpp"

namespace dpcalc::databases {

double total_databases(const std::vector<DatabaseClass>& classes) {
  double total = 0;
  for (const DatabaseClass& database_class : classes) total += database_class.count;
  return total;
}

const mechanisms::Mechanism* release_mechanism(const DatabaseClass& database_class) {
  const auto* mechanism = std::get_if<mechanisms::MechanismPtr>(&database_class.release);
  return mechanism ? mechanism->get() : nullptr;
}

bool all_pure(const std::vector<DatabaseClass>& classes) {
  for (const DatabaseClass& database_class : classes) {
    const auto* approx = std::get_if<ApproxDp>(&database_class.release);
    const mechanisms::Mechanism* mechanism = release_mechanism(database_class);
    const bool pure = (mechanism && mechanism->pure_epsilon()) || (approx != nullptr && approx->delta == 0);
    if (!pure) return false;
  }
  return true;
}

}  // namespace dpcalc::databases
