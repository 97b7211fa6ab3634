// Shuffling as a sampler of DP-SGD (shuffling.hpp): each epoch walks a permutation of the data in
// batches of B, T = ⌊N/B⌋ steps; persistent (one permutation for all epochs) or re-shuffled. Upper
// bound without amplification (proven), lower bound of Chua et al. 2024. Steps that are not a whole
// number of epochs: the upper bound counts the epoch begun (⌈steps/T⌉ epochs: an example is used at
// most once in each), the lower bound the epochs completed (⌊steps/T⌋; fewer outputs are a
// post-processing). A group of k: the upper bound at kΔ (all k in one batch is the worst case), the
// lower bound of one example (a group contains one).
#include <cmath>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/dpsgd/shuffling.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kShuffleUpperMethod{
    "Shuffling without amplification: each epoch uses each example at most once, E Gaussian uses "
    "(μ = √E·k·Δ/σ), exact analytic Gaussian",
    "Balle, Wang 2018, Thm 8; Dong, Roth, Su 2019, Cor 3.3", "balle2018improving dong2019gaussian"};
constexpr MethodInfo kShuffleLowerMethod{
    "Shuffling, lower bound: the Gaussian mixtures over the hidden batch, post-processed to their largest "
    "coordinate",
    "Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang 2024 (ICML; NeurIPS)", "chua2024private chua2024scalable"};
constexpr const char* kShuffleNote =
    "No amplification by shuffling is proven for DP-SGD: the upper bound is that of a Gaussian used once per "
    "epoch.";
constexpr const char* kShuffleSubstituteNote =
    " Under substitute the lower bound uses the target's gradient +1 against −1 with the others at −1 (scaling "
    "the zero-out pair by 2 is not a pair clipped gradients produce).";

class ShuffleSampler final : public Sampler {
 public:
  const char* name() const override { return "shuffle"; }
  const char* title() const override { return "Shuffling (persistent or re-shuffled each epoch)"; }
  bool covers(Relation relation) const override { return relation != Relation::kAddRemove; }
  Relation default_relation() const override { return Relation::kZeroOut; }
  bool has_group_analysis() const override { return true; }

  Result<Batches> check(const Batches& batches) const override { return with_dataset_and_batch(batches); }

  double steps_per_epoch(const Batches& checked) const override {
    return std::floor(*checked.dataset_size / *checked.batch_size);
  }

  Result<SamplerBounds> bounds(const Training& training, double delta, const pld::AccountingOptions& options,
                               const pld::ProgressCallback& progress, BoundsWanted wanted) const override {
    const Phase& phase = training.phases.front();
    const double per_epoch = steps_per_epoch(phase.batches);
    ShuffleSetting setting{*phase.batches.dataset_size, *phase.batches.batch_size, std::ceil(phase.steps / per_epoch),
                           phase.batches.reshuffle ? ShuffleOrder::kReshuffled : ShuffleOrder::kPersistent,
                           training.relation};
    DPCALC_TRY(const ShuffleUpperBound upper,
               shuffle_epsilon_upper(setting, phase.noise_multiplier, delta, training.group_size));
    SamplerBounds bounds;
    bounds.epsilon_upper = upper.epsilon;
    bounds.upper_method = kShuffleUpperMethod;
    bounds.lower_method = kShuffleLowerMethod;
    bounds.note =
        std::string(kShuffleNote) + (training.relation == Relation::kSubstitute ? kShuffleSubstituteNote : "");
    const double completed = std::floor(phase.steps / per_epoch);
    if (wanted == BoundsWanted::kUpperOnly || completed < 1) {
      if (completed < 1) bounds.note += " Fewer steps than one epoch: no lower bound is computed.";
      return bounds;
    }
    if (completed != setting.epochs) {
      bounds.note += " The steps end inside an epoch: the upper bound counts " + format_number(setting.epochs) +
                     " epochs, the lower bound " + format_number(completed) + ".";
    }
    setting.epochs = completed;
    ShuffleLowerOptions lower_options;
    lower_options.discretization_interval = options.discretization_interval;
    lower_options.tail_mass_truncation = options.tail_mass_truncation;
    DPCALC_TRY(const ShuffleLowerBound lower,
               shuffle_epsilon_lower(setting, phase.noise_multiplier, delta, lower_options, progress));
    bounds.epsilon_lower = std::min(lower.epsilon_lower, upper.epsilon);
    return bounds;
  }
};

}  // namespace

const Sampler& shuffle_sampler() {
  static const ShuffleSampler sampler;
  return sampler;
}

}  // namespace dpcalc::dpsgd
