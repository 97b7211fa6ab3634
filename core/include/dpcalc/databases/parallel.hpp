// Parallel composition of the merged database, the comparison of Hartmann, Bindschaedler, West
// (2022, "On the Choice of Databases in Differential Privacy Composition"), Sec. V-A1: merge the
// databases (with a column naming the database), partition by that column, and apply McSherry's
// parallel composition (McSherry 2009, Thm 4) with his symmetric-difference neighbours: a person
// changes up to M partitions (M = the most databases one footprint, or union of two, holds), so the
// merged release is (M · max_c ε_c)-DP, ε_c the per-database guarantee (queries · ε). Pure ε-DP only
// in McSherry's form.
#pragma once

#include <optional>
#include <vector>

#include "dpcalc/databases/footprints.hpp"
#include "dpcalc/method_info.hpp"

namespace dpcalc::databases {

inline constexpr MethodInfo kMergedParallel{"Parallel composition of the merged database",
                                            "McSherry 2009, Thm 4; Hartmann, Bindschaedler, West 2022, Sec. V-A1",
                                            "mcsherry2009privacy hartmann2022choice"};

// The ε of the merged database, or nothing when some release is not pure ε-DP.
std::optional<PureDp> merged_parallel(const std::vector<DatabaseClass>& classes, const AllowedFootprints& allowed);

}  // namespace dpcalc::databases
