// Where a composition of discrete PLDs puts all but a given tail mass, before composing them: the
// composed loss index S = sum_t (sum of count_t independent copies of K_t), K_t the grid index of
// PLD t (finite part), satisfies the Chernoff bounds (Chernoff 1952)
//   P[S >= s] <= exp(sum_t count_t log M_t(lambda) - lambda s),   M_t(lambda) = E[e^{lambda K_t}],
//   P[S <= s] <= exp(sum_t count_t log M_t(-lambda) + lambda s),  for every lambda > 0,
// so the index range [lowest, highest] with both bounds at tail_mass / 2 holds all but tail_mass of
// the composed mass. The FFT size follows from it.
#pragma once

#include <functional>
#include <vector>

#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

struct IndexRange {
  double lowest = 0, highest = 0;  // whole numbers (possibly beyond any grid the engine allocates)
  double points() const { return highest - lowest + 1; }
};

// log M(lambda) of a PLD's finite part (K its grid index), rounded up: Horner's rule in
// e^{-|lambda|} from the end where e^{lambda K} is largest, so nothing overflows. -inf for a PLD
// without finite mass.
double log_index_mgf(const DiscretePld& pld, double lambda);

// The range above, each bound minimised over lambda (in index units) by a golden-section search
// (any lambda gives a valid bound; the search finds a good one) and clipped to the trivial range
// sum_t count_t [lowest index, highest index]. tail_mass > 0. `heartbeat` is called before each
// evaluation (every one sums over all terms' masses); returning false stops with kCancelled.
Result<IndexRange> composed_support(const std::vector<CompositionTerm>& terms, double tail_mass,
                                    const std::function<bool()>& heartbeat);

}  // namespace dpcalc::pld
