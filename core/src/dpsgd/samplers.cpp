#include "dpcalc/dpsgd/samplers.hpp"

#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/dpsgd/group_pair.hpp"

namespace dpcalc::dpsgd {
namespace {

bool has_groups(const Sampler& sampler) { return sampler.has_group_analysis(); }
bool has_schedules(const Sampler& sampler) { return sampler.has_phases(); }

std::string relations_of(const Sampler& sampler) {
  std::string names;
  for (const Relation relation : {Relation::kAddRemove, Relation::kZeroOut, Relation::kSubstitute}) {
    if (!sampler.covers(relation)) continue;
    names += std::string(names.empty() ? "'" : ", '") + mechanisms::relation_name(relation) + "'";
  }
  return names;
}

Result<Phase> check_phase(const Phase& phase) {
  Phase checked = phase;
  DPCALC_TRY(checked.noise_multiplier, check_nonnegative(phase.noise_multiplier, "noise_multiplier"));
  DPCALC_TRY(checked.steps, check_count(phase.steps, "steps"));
  return checked;
}

}  // namespace

bool is_phase_parameter(const std::string& name) {
  for (const char* parameter : {"dataset_size", "batch_size", "sampling_rate", "max_batch_size", "bands", "reshuffle",
                                "noise_multiplier", "steps"}) {
    if (name == parameter) return true;
  }
  return false;
}

BoundStatus bound_status(const SamplerBounds& bounds, double relative_accuracy) {
  if (!bounds.proven || !bounds.epsilon_upper) return BoundStatus::kNotProven;
  if (!bounds.epsilon_lower) return BoundStatus::kBracket;
  const double upper = *bounds.epsilon_upper;
  if (*bounds.epsilon_lower >= upper) return BoundStatus::kTight;  // exact, infinite ε included
  return upper - *bounds.epsilon_lower <= 4 * relative_accuracy * upper ? BoundStatus::kTight : BoundStatus::kBracket;
}

const char* bound_status_name(BoundStatus status) {
  switch (status) {
    case BoundStatus::kTight:
      return "tight";
    case BoundStatus::kBracket:
      return "bracket";
    case BoundStatus::kNotProven:
      break;
  }
  return "not_proven";
}

Result<double> Sampler::steps_for_epochs(const Batches& checked, double epochs) const {
  if (checked.sampling_rate && *checked.sampling_rate == 0) {
    return invalid_argument("epochs", "At sampling rate 0 every batch is empty and an epoch never ends: give steps.");
  }
  // Rounded up; the relative slack absorbs the rounding of the product (60 · 512/256 is 120).
  const double steps = std::max(1.0, std::ceil(epochs * steps_per_epoch(checked) * (1 - 1e-12)));
  if (!(steps <= kMaxCount)) {
    return invalid_argument("epochs",
                            "epochs give " + format_number(steps) + " steps, more than 2^53; use fewer epochs.");
  }
  return steps;
}

Result<double> required_dataset_size(const Batches& batches) {
  if (!batches.dataset_size)
    return invalid_argument("dataset_size", "dataset_size is required: N, the training examples.");
  return check_whole_number(*batches.dataset_size, 1, kMaxCount, "dataset_size");
}

Result<double> required_batch_size(const Batches& batches, double dataset_size) {
  if (!batches.batch_size) return invalid_argument("batch_size", "batch_size is required: B, the examples of a batch.");
  return check_whole_number(*batches.batch_size, 1, dataset_size, "batch_size");
}

Result<Batches> with_dataset_and_batch(const Batches& batches) {
  Batches checked = batches;
  DPCALC_TRY(checked.dataset_size, required_dataset_size(batches));
  DPCALC_TRY(checked.batch_size, required_batch_size(batches, *checked.dataset_size));
  return checked;
}

Result<double> rate_or_batch_share(const Batches& batches, double bands) {
  if (batches.sampling_rate) {
    if (batches.batch_size) {
      return invalid_argument("batch_size",
                              "Give sampling_rate, or batch_size with dataset_size (the rate is then B/N), not both.");
    }
    return check_rate_or_zero(*batches.sampling_rate, "sampling_rate");
  }
  if (!batches.batch_size) {
    return invalid_argument("sampling_rate",
                            "sampling_rate is required (or batch_size with dataset_size: the rate is then B/N).");
  }
  DPCALC_TRY(const double n, required_dataset_size(batches));
  DPCALC_TRY(const double b, required_batch_size(batches, n));
  const double rate = divide_up(bands * b, n);  // rounded up: ε grows with the rate
  if (!(rate <= 1)) {
    return invalid_argument("batch_size", "With " + format_number(bands) + " bands of the " + format_number(n) +
                                              " examples, a band holds fewer than the batch size B = " +
                                              format_number(b) + "; use fewer bands or a smaller batch.");
  }
  return rate;
}

Result<bool> dataset_size_only_with_batch(const Batches& batches) {
  if (batches.dataset_size && batches.sampling_rate && !batches.batch_size) {
    return invalid_argument("dataset_size",
                            "dataset_size turns batch_size into the rate (q = B/N); with "
                            "sampling_rate it is not used: leave it out.");
  }
  return true;
}

const std::vector<const Sampler*>& samplers() {
  static const std::vector<const Sampler*> all{&poisson_sampler(),           &fixed_batch_sampler(),
                                               &truncated_poisson_sampler(), &shuffle_sampler(),
                                               &balls_and_bins_sampler(),    &cyclic_poisson_sampler()};
  return all;
}

const Sampler* find_sampler(const std::string& name) {
  for (const Sampler* sampler : samplers()) {
    if (name == sampler->name()) return sampler;
  }
  return nullptr;
}

std::string sampler_names(bool (*which)(const Sampler&)) {
  std::vector<std::string> names;
  for (const Sampler* sampler : samplers()) {
    if (which(*sampler)) names.push_back(std::string("'") + sampler->name() + "'");
  }
  std::string joined;
  for (std::size_t i = 0; i < names.size(); ++i) {
    joined += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  }
  return joined;
}

Result<Training> check_training(const Sampler& sampler, const Training& training) {
  if (!sampler.covers(training.relation)) {
    return invalid_argument("relation", std::string("Sampling '") + sampler.name() + "' is analysed under " +
                                            relations_of(sampler) + " only, not under '" +
                                            mechanisms::relation_name(training.relation) + "'.");
  }
  Training checked = training;
  DPCALC_TRY(checked.group_size, check_whole_number(training.group_size, 1, kMaxGroupSize, "group_size"));
  if (checked.group_size > 1 && !sampler.has_group_analysis()) {
    return invalid_argument("group_size", std::string("No analysis of groups is known for sampling '") +
                                              sampler.name() + "'; " + sampler_names(has_groups) +
                                              " have one (or use group_size 1).");
  }
  if (training.phases.empty()) return invalid_argument("phases", "Give at least one phase of training.");
  if (training.phases.size() > 1 && !sampler.has_phases()) {
    return invalid_argument("phases", std::string("Sampling '") + sampler.name() +
                                          "' is accounted for one noise and one batch setting; schedules of "
                                          "phases are composed for " +
                                          sampler_names(has_schedules) + ".");
  }
  for (std::size_t i = 0; i < training.phases.size(); ++i) {
    Result<Phase> phase = check_phase(training.phases[i]);
    if (!phase.ok()) return about_item(std::move(phase).error(), i);
    checked.phases[i] = phase.value();
  }
  return checked;
}

}  // namespace dpcalc::dpsgd
