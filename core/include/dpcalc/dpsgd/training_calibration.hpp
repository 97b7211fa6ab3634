// Noise calibration of DP-SGD for any batch sampler: the smallest noise multiplier whose upper bound
// (Sampler::bounds) meets a target (ε, δ), by bracketing and bisection on that sound forward function
// (calibration/noise_search.hpp; ε decreases in σ: more noise is post-processing). For groups, also
// Sommer's (2021) rule of thumb: k times the noise multiplier calibrated for k = 1, with its bound.
#pragma once

#include <optional>

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

// Largest noise multiplier calibration searches.
inline constexpr double kMaxNoiseMultiplier = 1e4;

struct Calibration {
  double noise_multiplier = 0;                // smallest found whose upper bound is <= target epsilon
  SamplerBounds bounds;                       // at that noise multiplier (both ends)
  double rule_of_thumb_noise_multiplier = 0;  // k times the calibrated noise multiplier for k = 1
  // Its bounds at group size k; none when that noise is too little for the PLD engine to represent
  // the group's privacy loss (beyond ±700: its ε is in the hundreds).
  std::optional<SamplerBounds> rule_of_thumb;
};

// `training`: one phase, checked by check_training, whose noise multiplier is ignored. Errors:
// invalid_argument on "target_epsilon" (not > 0 finite); numeric on it when no noise multiplier up
// to kMaxNoiseMultiplier reaches it; the sampler's errors as Sampler::bounds. `options` for every bound.
Result<Calibration> calibrate(const Sampler& sampler, const Training& training, double delta, double target_epsilon,
                              const pld::ProgressCallback& progress = {}, const pld::AccountingOptions& options = {});

}  // namespace dpcalc::dpsgd
