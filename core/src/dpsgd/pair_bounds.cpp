#include "dpcalc/dpsgd/pair_bounds.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "dpcalc/dpsgd/group_accountant.hpp"

namespace dpcalc::dpsgd {

Result<std::vector<pld::CompositionItem>> phase_items(const Sampler& sampler, const Training& training,
                                                      Relation relation) {
  std::vector<pld::CompositionItem> items;
  for (std::size_t i = 0; i < training.phases.size(); ++i) {
    const Phase& phase = training.phases[i];
    const GroupSetting setting = *sampler.group_setting(phase, training.group_size, relation);
    Result<pld::CompositionItem> item = group_item(setting, phase.noise_multiplier, phase.steps);
    if (!item.ok()) return about_item(std::move(item).error(), i);
    items.push_back(std::move(item).value());
  }
  return items;
}

Result<SamplerBounds> composed_bounds(const std::vector<pld::CompositionItem>& items, double delta,
                                      const pld::AccountingOptions& options, const pld::ProgressCallback& progress,
                                      BoundsWanted wanted) {
  SamplerBounds bounds;
  pld::EpsilonBracket bracket;
  if (wanted == BoundsWanted::kBoth) {
    Result<pld::AnsweredEpsilon> answered = pld::epsilon_for_delta_with_plds(items, delta, options, progress);
    if (!answered.ok()) return in_training_terms(std::move(answered).error());
    bracket = answered.value().bracket;
    bounds.plds = std::make_shared<const pld::ComposedPlds>(std::move(answered.value().plds));
  } else {
    Result<pld::EpsilonBracket> answered = pld::epsilon_for_delta(items, delta, options, progress);
    if (!answered.ok()) return in_training_terms(std::move(answered).error());
    bracket = answered.value();
  }
  bounds.epsilon_upper = bracket.epsilon_upper;
  bounds.epsilon_lower = bracket.epsilon_lower;
  bounds.engine = bracket;
  return bounds;
}

Result<double> composed_lower(const std::vector<pld::CompositionItem>& items, double delta, double upper,
                              const pld::AccountingOptions& options, const pld::ProgressCallback& progress) {
  Result<pld::EpsilonBracket> answered = pld::epsilon_for_delta(items, delta, options, progress);
  if (!answered.ok()) return in_training_terms(std::move(answered).error());
  return std::min(answered.value().epsilon_lower, upper);
}

pld::ProgressCallback first_half(const pld::ProgressCallback& progress) {
  if (!progress) return {};
  return [progress](double f) { return progress(0.5 * f); };
}

pld::ProgressCallback second_half(const pld::ProgressCallback& progress) {
  if (!progress) return {};
  return [progress](double f) { return progress(0.5 + 0.5 * f); };
}

}  // namespace dpcalc::dpsgd
