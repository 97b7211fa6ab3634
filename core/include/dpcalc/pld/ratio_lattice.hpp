// A pair (P, Q) given by the law of its likelihood ratio W = dP/dQ under Q on the lattice
// {k * step : k >= 0}, plus P-mass at W = +infinity (outcomes that Q never produces), and its two
// privacy loss distributions on the engine's loss grid {j h}:
//   remove direction (P, Q): the loss ln W under P, whose mass at ln w is w Q[W = w];
//   add direction (Q, P):    the loss -ln W under Q.
// Both PLDs are read from one law of W because delta_remove(eps) = E_Q[(W - e^eps)_+] + P[W = inf]
// and delta_add(eps) = E_Q[(1 - e^eps W)_+] are both expectations of convex functions of W
// (Blackwell 1953): a mean-preserving spread of W's law under Q (same Q-mass, same P-mass) gives a
// pair that dominates (P, Q) in both directions, and merging outcomes (a post-processing) gives one
// that (P, Q) dominates (Zhu, Dong, Wang 2022, Def 7, Thm 10). docs/random_allocation.md, eqs (6)-(9).
#pragma once

#include <cstdint>
#include <vector>

#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

struct RatioLattice {
  double step = 0;                // the lattice spacing (> 0): q_masses[i] is Q[W = (lowest_index + i) step]
  std::int64_t lowest_index = 0;  // >= 0
  std::vector<double> q_masses;   // >= 0
  double p_at_infinity = 0;       // P[W = +inf] (Q-mass 0)
  // Bounds on what a truncation left out (lost: the exact law has this much more mass outside the
  // lattice) and on what it may have added (junk: nonnegative mass at wrong points, as the circular
  // convolution wraps the mass outside its support onto it), in Q-mass and in P-mass.
  double q_lost = 0, p_lost = 0, q_junk = 0, p_junk = 0;
  // Upper bound on sum_i |computed q_masses[i] - exact q_masses[i]| (floating point).
  double rounding_error = 0;
};

// The remove and add PLDs of one pair, on one loss grid.
struct DirectionPlds {
  DiscretePld remove, add;
};

// Pessimistic: each lattice point w in (e^{jh}, e^{(j+1)h}) splits its Q-mass between the two grid
// ratios so that its Q-mass and P-mass are kept (a mean-preserving spread; "connect the dots" of
// Doroshenko et al. 2022 done in W). W = 0 is an infinite add loss. Lost P-mass (remove) and Q-mass
// (add) go to +infinity with p_at_infinity; junk stays (it can only raise delta). Both PLDs dominate
// the lattice pair's. rounding_error carries over, times the largest W for the remove PLD (its P-mass
// error is sum_w w |Q error|). Errors: numeric on kGridTooLarge when the loss grid needs more than
// kMaxGridPoints points. `loss_step` > 0.
Result<DirectionPlds> spread_onto_loss_grid(const RatioLattice& lattice, double loss_step);

// Optimistic: the lattice points are swept upwards and merged (a post-processing): a fraction of the
// next point is mixed into the running outcome so that its ratio is exactly the grid ratio e^{jh}
// (the sweep of the engine's optimistic discretisation, discretization.hpp, done in W). The last
// remainder, with nothing above it to mix with, is rounded the safe way in each direction (remove
// loss down, add loss down). Lost mass is dropped; junk is reported in truncated_mass (the queries add
// it to delta). Both PLDs are dominated by the lattice pair's. Errors as spread_onto_loss_grid.
Result<DirectionPlds> merge_onto_loss_grid(const RatioLattice& lattice, double loss_step);

}  // namespace dpcalc::pld
