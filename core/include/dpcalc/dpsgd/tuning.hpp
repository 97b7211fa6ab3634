// Hyperparameter tuning of DP-SGD by random repetition (Papernot & Steinke 2022, Thms 2 and 6;
// rdp/repeat_and_select_rdp.hpp): the training is one run, run K times (K random, independent of
// the data) and only the best model kept. The theorems need the run's Rényi DP curve: under Poisson
// sampling, for one example under add/remove (or zero-out, the same pair), it is the sum over the
// phases of steps × the Poisson-subsampled Gaussian's curve (Mironov, Talwar, Zhang 2019), exact at
// every order (rdp/subsampled_gaussian_rdp.hpp).
#pragma once

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/rdp/repeat_and_select_rdp.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

inline constexpr MethodInfo kTunedTrainingMethod{
    "Rényi DP of hyperparameter tuning (the best of a random number of runs), each run's Rényi DP by the "
    "Poisson-subsampled Gaussian",
    "Papernot & Steinke 2022, Thms 2 and 6; Mironov, Talwar, Zhang 2019, Sec. 3",
    "papernot2022hyperparameter mironov2019renyi"};

struct TunedTraining {
  double epsilon = 0;  // upper bound at the δ asked
  double order = 0;    // the order it was converted at (+infinity: the pure ε)
};

// ε(δ) of the tuned training, an upper bound, at the default orders (and 1 and ∞). Errors:
// unsupported on "sampling" (a sampler other than Poisson), "group_size" (k > 1) or "relation"
// (substitution): no Rényi curve of the run is known there; those of check_repetitions; numeric on
// "noise_multiplier" when no order gives a finite bound.
Result<TunedTraining> tuned_training(const Sampler& sampler, const Training& training,
                                     const rdp::Repetitions& repetitions, double delta);

// The training run `runs` times in a row (each phase's steps times `runs`): the fixed runs a tuning
// is compared with. Errors: invalid_argument on "steps" beyond 2^53.
Result<Training> repeated_training(const Training& training, double runs);

}  // namespace dpcalc::dpsgd
