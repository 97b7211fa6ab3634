// The guarantee for the worst allowed footprint (Hartmann, Bindschaedler, West 2022, Sec. V-A): an upper bound on
// Compose(F) for every footprint F the constraint allows (F ∪ F' for bounded neighbours).
// How the maximum is taken, by method (each answer is sound; `exact` says when it is attained):
//  * explicit footprints (families): every maximal footprint is composed; the largest ε wins
//    (basic: ε and δ are maximised separately);
//  * at most M databases of any classes —
//    basic: Σ ε and Σ δ are each maximised by filling the M slots greedily with the databases of
//           largest per-database ε (resp. δ): exact per component;
//    zCDP:  Σ ρ likewise, exact;
//    advanced: exact when the classes are ordered (per release and in number of queries: the M
//           most revealing databases) or when at most kMaxClosedFormFootprints footprints are
//           not beaten by a swap (each is composed). Otherwise: the bounds are increasing
//           symmetric functions of the releases' ε and, separately, of their δ, so they are
//           evaluated on the envelope whose k-th largest ε (δ) is the largest k-th largest ε (δ)
//           any footprint of M databases can have, an upper bound for all of them;
//    optimal: identical releases only; the footprint with the most releases, exact;
//    PLD:   when the classes are ordered by domination (Gaussians by Δ/σ, Laplace by Δ/b,
//           (ε, δ) by both; more queries dominates fewer) the M most revealing databases, exact
//           (composition preserves domination: Zhu, Dong, Wang 2022, Thm 10); otherwise every
//           footprint that is not beaten by a swap, when there are at most kMaxPldFootprints of
//           them; otherwise `unsupported`.
#pragma once

#include <string>

#include "dpcalc/databases/composer.hpp"
#include "dpcalc/databases/footprints.hpp"

namespace dpcalc::databases {

inline constexpr std::size_t kMaxPldFootprints = 16;
inline constexpr std::size_t kMaxClosedFormFootprints = 8;

struct WorstCase {
  Composed guarantee;
  Footprint footprint;  // the worst footprint (for a bound that no single footprint attains: the
                        // one with the most releases)
  bool exact = true;    // false: an upper bound that no single footprint may attain
  std::string note;     // why it is not exact
};

Result<WorstCase> worst_case(const std::vector<DatabaseClass>& classes, const AllowedFootprints& allowed,
                             const MethodOptions& options);

// The footprints among which method 'pld' takes the worst (above): every allowed footprint is
// dominated by one of them, so what holds for all of them holds for every person. Errors as
// worst_case's for method 'pld'.
Result<std::vector<Footprint>> pld_worst_footprints(const std::vector<DatabaseClass>& classes,
                                                    const AllowedFootprints& allowed);

}  // namespace dpcalc::databases
