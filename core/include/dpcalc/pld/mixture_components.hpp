// What the mixture losses share (gaussian_mixture_loss.hpp, laplace_mixture_loss.hpp): weighted
// components, the masses of a sublevel set of the loss, and the pruning of negligible components.
//
// Negligible components. One distribution of a pair (the one whose law the privacy loss L is taken
// under in the direction being accounted) may drop components of total weight at most
// kPrunedMassLimit. The dropped mass m is accounted soundly: the pessimistic PLD puts it at loss
// +infinity (the pair (P_kept + m·delta_top, Q) dominates (P, Q): for every event S,
// P(S) - e^eps Q(S) <= P_kept(S) + m - e^eps Q(S)), and the optimistic PLD leaves it out (P_kept <= P
// setwise, so every hockey-stick value, also after composition, can only fall). The other
// distribution keeps every component: dropping mass there is only sound for one of the two bounds.
#pragma once

#include <vector>

namespace dpcalc::pld {

// Largest total weight dropped from the first distribution: 1e-30 moves delta by at most 1e-30 per
// composition (below 1e-14 even after 2^53 compositions).
inline constexpr double kPrunedMassLimit = 1e-30;

struct MixtureComponent {
  double shift = 0;
  double weight = 0;  // > 0
};

// Masses of {l <= t} (inside) and its complement (outside) under P and Q (kept components only;
// each computed directly, not as one minus the other, so that small tails keep their accuracy).
struct SublevelMasses {
  double p_inside = 0, p_outside = 0, q_inside = 0, q_outside = 0;
};

// Drops the lightest components while their total stays within kPrunedMassLimit (never the last
// one); returns the dropped weight. The components come back sorted by increasing weight.
double prune_lightest(std::vector<MixtureComponent>& components);

}  // namespace dpcalc::pld
