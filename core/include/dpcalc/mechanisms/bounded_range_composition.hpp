// The optimal non-adaptive composition of k ε-bounded-range (ε-BR) mechanisms (Dong, Durfee,
// Rogers 2020, "Optimal differential privacy composition for exponential mechanisms", ICML, Sec. 5),
// as a finite pair that the PLD engine composes with any other item.
//
// Every ε-BR pair is dominated by a two-outcome pair with losses s and s − ε, s ∈ [0, ε], whose
// outcome at loss s has P-probability p_s = (e^ε − e^s)/(e^ε − 1). When the k mechanisms are fixed in
// advance, the worst case of their composition is k copies of one such pair (ibid.), so
//     δ_k(x) = sup_s δ_s^{⊗k}(x),   δ_s^{⊗k}(x) = Σ_{i: L_i > x} C(k,i) p_s^i (1 − p_s)^{k−i} (1 − e^{x − L_i}),
// with L_i = ks − (k − i)ε. For x ≥ 0 the sum over i ≥ i0 alone is unimodal in e^s with its peak at
// s = (x + (k − i0 + 1)ε)/(k + 1), where exactly the terms i ≥ i0 are positive; so δ_k(x) is the
// largest of these k + 1 candidates (ibid., the homogeneous case), each a sum of positive terms.
#pragma once

#include <optional>

#include "dpcalc/pld/privacy_loss.hpp"

namespace dpcalc::mechanisms {

// A symmetric finite pair whose hockey-stick curve is at least δ_k at every ε (both signs), so that
// it dominates every non-adaptive composition of `count` (a whole number ≥ 1) ε-BR mechanisms. Its
// atoms sit at x_j = jε/r (r nodes per ε: spacing at most 1/32, up to 256 per ε as the work budget
// allows); between them its curve is the chord of δ_k in e^x, above δ_k because δ_k is convex in e^x
// (a supremum of hockey-stick curves). nullopt when the evaluation would cost more than the
// calculator allows (r (k + 1)² > 2^22 at the fewest nodes, about 500 selections at ε ≤ 0.5) or its
// losses leave the engine's range: the adaptive pair then stands in.
std::optional<pld::FinitePair> nonadaptive_bounded_range_pair(double epsilon, double count);

}  // namespace dpcalc::mechanisms
