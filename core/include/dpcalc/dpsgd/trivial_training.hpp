// Trainings that need no accounting, the trivial events other accountants accept (dp_accounting
// composes a Gaussian of noise 0 and a sampling rate of 0): a phase sampled at rate 0 reads no
// example, so it reveals nothing (0-DP, Dwork & Roth 2014, Def. 2.4) and drops out of the
// composition; a Poisson-sampled phase with noise multiplier 0 releases the clipped gradient sum as
// it is, so the output tells two neighbouring datasets apart exactly when a step samples one of the
// group's examples.
#pragma once

#include <optional>

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

// Whether `phase` reads no example (sampled at rate 0).
bool reads_no_example(const Phase& phase);

// `checked` without its phases that read no example (at least one phase must read one).
Training without_unread_phases(const Training& checked);
// Whether no phase of `checked` reads an example.
bool reads_no_example(const Training& checked);

// The answer of a training that needs no accounting, or nullopt when the sampler's analysis answers:
//  - every phase reads no example: ε = 0, exact;
//  - Poisson sampling whose phases that read examples all add no noise: with P the probability that
//    a step samples one of the group's k examples, 1 − Π (1 − q)^(k·T) over the phases, the output
//    has infinite privacy loss with probability P and none otherwise, in both directions, so
//    δ(ε) = P at every ε ≥ 0: ε = 0 when δ ≥ P, no finite ε (epsilon_upper infinite) when δ < P.
// Errors (field "noise_multiplier", Error::item the first noise-free phase) for a noise-free phase of
// another sampler, or beside phases with noise, whose bounds this does not give.
Result<std::optional<SamplerBounds>> trivial_bounds(const Sampler& sampler, const Training& checked, double delta);

}  // namespace dpcalc::dpsgd
