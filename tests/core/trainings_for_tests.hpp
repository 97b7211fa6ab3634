// DP-SGD trainings for the tests: one phase of Poisson sampling or fixed batches, checked and bounded
// through the samplers (dpcalc/dpsgd/samplers.hpp), as op 'dpsgd' does.
#pragma once

#include "dpcalc/dpsgd/samplers.hpp"

namespace test_trainings {

using namespace dpcalc;
using namespace dpcalc::dpsgd;

inline GroupSetting poisson(double rate, double k) {
  return GroupSetting{SampleDraw::poisson(rate), k, Relation::kAddRemove};
}

inline GroupSetting fixed_batch(double n, double b, double k) {
  return GroupSetting{SampleDraw::without_replacement(n, b), k, Relation::kAddRemove};
}

// The sampler of the setting's draw, and its training of `steps` steps at noise `sigma`.
inline const Sampler& sampler_of(const GroupSetting& setting) {
  return is_fixed_batch(setting) ? fixed_batch_sampler() : poisson_sampler();
}

// Its batches checked by the sampler, then the training by check_training.
inline Result<Training> training_of(const GroupSetting& setting, double sigma, double steps) {
  Batches batches;
  if (is_fixed_batch(setting)) {
    batches.dataset_size = setting.draw.population;
    batches.batch_size = setting.draw.sample_size;
  } else {
    batches.sampling_rate = setting.draw.rate;
  }
  DPCALC_TRY(batches, sampler_of(setting).check(batches));
  return check_training(sampler_of(setting),
                        Training{{Phase{batches, sigma, steps}}, setting.group_size, setting.relation});
}

// The sampler's bounds (both ends) of the training, or the first error of checking or bounding it.
inline Result<SamplerBounds> bounds_of(const GroupSetting& setting, double sigma, double steps, double delta,
                                       const pld::AccountingOptions& options = {}) {
  DPCALC_TRY(const Training checked, training_of(setting, sigma, steps));
  return sampler_of(setting).bounds(checked, delta, options, {}, BoundsWanted::kBoth);
}

}  // namespace test_trainings
