// Discretisation of a privacy loss pair onto the grid {k h} with sound bounds.
// Let x = e^eps; delta(x) = E_Q[(e^L - x)_+] + P[L = inf] is convex in x, and a grid-supported PLD
// dominates (resp. is dominated by) the pair exactly when its delta(x) lies above (below) the
// pair's for every x (Blackwell; Zhu, Dong, Wang 2022, Thm 10 for composition).
//  * Pessimistic, "connect the dots" (Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022, Alg. 1):
//    the piecewise-linear interpolation of delta(x) at the grid points, which lies above the convex
//    curve and equals it on the grid. Equivalently each grid cell (e_{k-1}, e_k] splits its masses
//    (P_k, Q_k) between its two end points so that both P- and Q-mass are kept; the mass below
//    the grid goes to its lowest point; the P-mass above the highest point goes to +infinity.
//  * Optimistic: the continuous part of each grid cell is merged into one outcome (a
//    post-processing), and adjacent outcomes are mixed so that each lands exactly on a grid point
//    (another post-processing); point masses (PrivacyLossPair::atoms) that sit on a grid point
//    stay there, the others take part in the mixing as outcomes of their own; only the last
//    remainder is rounded down. Q-mass where P = 0 (loss -infinity) carries no P-mass and is left
//    out: it adds nothing to delta. Post-processing can only lower delta(x), and so can rounding
//    losses down, so this is a lower bound that survives composition.
//    The optimistic grid of a pair with atoms is shifted to {k h + c}, 0 <= c < h, so that its
//    highest weighty atom sits on a grid point: that atom has nothing above it to mix with and would
//    otherwise be rounded down by up to h in every copy (an error linear in h and in the count).
//    Shifted PLDs compose by their indices, the offsets adding up (see DiscretizedPair).
#pragma once

#include "dpcalc/pld/pld.hpp"
#include "dpcalc/pld/privacy_loss.hpp"

namespace dpcalc::pld {

struct DiscretizedPair {
  DiscretePld pessimistic;  // upper bound: delta never below the pair's
  DiscretePld optimistic;   // lower bound: delta never above the pair's, with its losses lowered by
                            // optimistic_offset (which is also a lower bound: delta grows with the loss)
  // In [0, h): optimistic.masses[i] sits at the loss (optimistic.lowest_index + i) h + optimistic_offset.
  // A composition of such PLDs sits at the sum of the offsets (times the counts) above its indices.
  double optimistic_offset = 0;
};

// Discretises `pair` on the grid of step discretization_interval (> 0), cutting the P-mass above
// the grid at most tail_mass (> 0; the cut mass goes to +infinity in the pessimistic PLD and is
// reported in its truncated_mass; the optimistic PLD keeps it). Errors: "numeric" on
// kGridTooLarge when the grid would need more than kMaxGridPoints points, on kLossTooLarge for
// losses beyond +-kMaxLoss (see pld.hpp). `progress` (optional) hears the fraction of grid points
// evaluated every kProgressPoints points, so that a fine grid can be cancelled (kCancelled).
inline constexpr std::size_t kProgressPoints = 1024;
Result<DiscretizedPair> discretize(const PrivacyLossPair& pair, double discretization_interval, double tail_mass,
                                   const ProgressCallback& progress = {});

}  // namespace dpcalc::pld
