// Releases over several databases (the generalized composition experiment of Hartmann, Bindschaedler,
// West 2022, "On the Choice of Databases in Differential Privacy Composition", Sec. IV): the databases fall into
// classes of identical databases; every database of class c is queried `queries` times, each
// query releasing the class's mechanism or guarantee. A person's footprint is the set of databases
// that hold their record; only the releases on databases where two hypotheses differ are composed
// (ibid., Thm 1 and Sec. V).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"

namespace dpcalc::databases {

// What one query releases: a guarantee (pure ε-DP is ApproxDp with δ = 0, or zCDP) or a mechanism.
// The guarantee (or sensitivity) must hold for one record changing in the queried database:
// added, removed or (for bounded neighbours) replaced.
using Release = std::variant<ApproxDp, Zcdp, mechanisms::MechanismPtr>;

struct DatabaseClass {
  Release release;
  double count = 1;    // identical databases in the class, a whole number >= 1
  double queries = 1;  // releases per database, a whole number >= 1
  // The neighbouring relation each release is accounted under (one its mechanism supports).
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;
};

// The release's mechanism, or null when it is a guarantee.
const mechanisms::Mechanism* release_mechanism(const DatabaseClass& database_class);

// Σ count: the number of databases.
double total_databases(const std::vector<DatabaseClass>& classes);

// Errors about a class carry its index among the classes as Error::item, and name the class's own
// "count" or "queries", "release" for what it releases, "" for the class as a whole, or a parameter
// of the release (a mechanism's, such as "sigma" or "type"; a guarantee's "epsilon", "rho", "type").
inline constexpr const char* kRelease = "release";

// True when every release is pure ε-DP (ApproxDp with δ = 0, or a pure mechanism such as Laplace).
bool all_pure(const std::vector<DatabaseClass>& classes);

}  // namespace dpcalc::databases
