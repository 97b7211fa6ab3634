// Bounds of a training whose steps have a dominating pair each, composed by the PLD engine (Poisson,
// fixed batches, truncated Poisson, cyclic Poisson): the upper bound from the pessimistic PLDs, and the
// lower end of the same bracket, the exact ε of the composed pairs bounded from below (Doroshenko,
// Ghazi, Kamath, Kumar, Manurangsi 2022). That lower end bounds the sampler only where clipped
// gradients produce the pairs; a sampler whose analysis is not tight bounds itself from below with
// pairs its gradients do produce (composed_lower).
#pragma once

#include <vector>

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

// Each phase's pair under `relation` for the training's group (the sampler's group_setting, which it
// has) composed over the phase's steps; errors about the phase (Error::item its index).
Result<std::vector<pld::CompositionItem>> phase_items(const Sampler& sampler, const Training& training,
                                                      Relation relation);

// epsilon_upper, epsilon_lower (the bracket's), engine, and (BoundsWanted::kBoth) plds; the rest
// is the caller's. `items` one per phase; errors as Sampler::bounds (in_training_terms).
Result<SamplerBounds> composed_bounds(const std::vector<pld::CompositionItem>& items, double delta,
                                      const pld::AccountingOptions& options, const pld::ProgressCallback& progress,
                                      BoundsWanted wanted);

// The lower end of the composition's bracket, never above `upper` (a pair dominated by the upper
// bound's). Errors as composed_bounds.
Result<double> composed_lower(const std::vector<pld::CompositionItem>& items, double delta, double upper,
                              const pld::AccountingOptions& options, const pld::ProgressCallback& progress);

// Progress for the first and the second of two computations: [0, 1/2] and [1/2, 1] of `progress`.
pld::ProgressCallback first_half(const pld::ProgressCallback& progress);
pld::ProgressCallback second_half(const pld::ProgressCallback& progress);

}  // namespace dpcalc::dpsgd
