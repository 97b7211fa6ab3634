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

namespace dpcalc::databases {

// Laplace noise of scale b on a query of l1 sensitivity Δ: (Δ/b)-DP.
struct LaplaceRelease {
  double scale = 1;
  double sensitivity = 1;
};

// Gaussian noise of standard deviation σ on a query of l2 sensitivity Δ.
struct GaussianRelease {
  double sigma = 1;
  double sensitivity = 1;
};

// What one query releases: a guarantee (pure ε-DP is ApproxDp with δ = 0, or zCDP) or a mechanism.
// The guarantee (or sensitivity) must hold for one record changing in the queried database:
// added, removed or (for bounded neighbours) replaced.
using Release = std::variant<ApproxDp, Zcdp, LaplaceRelease, GaussianRelease>;

struct DatabaseClass {
  Release release;
  double count = 1;             // identical databases in the class, a whole number >= 1
  double queries = 1;           // releases per database, a whole number >= 1
  std::string field;            // dotted path of the class in the request ("databases.2"), for errors
  bool from_mechanism = false;  // the release was given as a mechanism (errors name ".mechanism")
};

// Σ count: the number of databases.
double total_databases(const std::vector<DatabaseClass>& classes);

// The field naming a class's release in errors: "<field>.mechanism" or "<field>.guarantee".
std::string release_field(const DatabaseClass& database_class);

// True when every release is pure ε-DP (ApproxDp with δ = 0 or Laplace).
bool all_pure(const std::vector<DatabaseClass>& classes);

}  // namespace dpcalc::databases
