// The pure part of a dominating pair: where its privacy loss is bounded in both directions, the pair
// is (ε, δ)-DP with δ its ApproxDp mass, and a composition of such pairs is (Σ count ε, Σ count δ)-DP by
// basic composition (Dwork & Roth 2014, Thm 3.16). The numeric engine answers from the same pairs, so
// this bound is never looser than it needs to be and caps the engine where its grid cannot hold the
// losses of every item (a mix of Laplace scales whose lattices differ).
#pragma once

#include <optional>
#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/privacy_loss.hpp"

namespace dpcalc::pld {

// (ε, δ) of one use of the pair, ε rounded up. Its sampling rate q mixes one side with the other,
// (1 − q)A + qB against A, which is (log(1 + q(e^ε − 1)), qδ)-indistinguishable in both directions
// when A and B are (ε, δ) (Balle, Barthe, Gaboardi 2018, Thm 2, advanced joint convexity). nullopt
// where its loss is unbounded (Gaussian noise, a lattice whose truncated mass has infinite loss).
std::optional<ApproxDp> pure_bound(const DominatingPair& pair);

// Basic composition of the items' pure bounds, rounded up; nullopt when an item has none.
std::optional<ApproxDp> basic_composition_bound(const std::vector<CompositionItem>& items);

}  // namespace dpcalc::pld
