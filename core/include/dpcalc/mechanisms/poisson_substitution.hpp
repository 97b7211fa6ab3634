// Poisson subsampling under substitution, for an inner mechanism other than Gaussian noise (which has
// its exact ±Δ pair, poisson_subsampled.cpp). Record x replaced by x′, S the other records in the
// subsample: the outputs are (1 − q) M(S) + q M(S ∪ x) and (1 − q) M(S) + q M(S ∪ x′). Advanced joint
// convexity (Balle, Barthe, Gaboardi 2018, Thm 2) gives, for ε′ ≥ 0, e^ε = 1 + (e^{ε′} − 1)/q and
// β = e^{ε′ − ε},
//   δ′(ε′) = q H_{e^ε}(M(S ∪ x) ‖ (1 − β) M(S) + β M(S ∪ x′)) ≤ q [(1 − β) δ_A(ε) + β δ_S(ε)]
// by joint convexity in the second argument, with δ_A the profile of the inner add/remove pair
// (M(S ∪ x) against M(S)) and δ_S that of its group of two (S ∪ x and S ∪ x′ are two add/remove steps
// apart: Laplace and discrete noise at sensitivity 2Δ, the exponential mechanism and permute-and-flip
// at 2ε). It holds for every S, so (sup over S, joint convexity again) for the mechanism, in any
// dimension and both directions alike; at ε′ = ln(1 + q(e^{ε_S} − 1)), with ε_S the group's largest
// loss, it is 0: that is the mechanism's pure ε. The points (ε′, δ′) on a grid of [0, that ε′] give
// a dominating pair (pld/profile_pair.hpp). The pair dominates but is not attained: the ±Δ pair that
// dp_accounting uses for the Gaussian is believed to be the worst case for Laplace noise too (its
// documentation, Sec. 5.2) but is proven only for Gaussian noise (Lebeda, Regehr, Kamath, Steinke
// 2024, Prop. 13), so it is not used here.
#pragma once

#include <optional>

#include "dpcalc/mechanisms/mechanism.hpp"

namespace dpcalc::mechanisms {

// The mechanism above for `mechanism` when it is a Poisson-subsampled mechanism (nested rates
// multiply) without a substitution pair of its own whose innermost mechanism has an add/remove
// pair and a group of two with a bounded loss; nullopt otherwise. Its only relation is
// 'substitute'; its pure ε is ln(1 + q (e^{ε_S} − 1)).
std::optional<MechanismPtr> poisson_substitution(const MechanismPtr& mechanism);

}  // namespace dpcalc::mechanisms
