// Fixed batches: each step draws B of the N examples without replacement, independently of the other
// steps. One step of a group of k examples is Sommer's (2021) Gaussian mixture with
// J ~ Hypergeometric(N, k, B) (group_pair.hpp), "assuming the worst-case property": proven for one
// example under substitution (the batch is drawn alike on both sides and differs in the replaced
// example's seat only: Zhu, Dong, Wang 2022, Thm 11, with the two gradients at ±1 the worst case),
// assumed for groups and for add/remove (where the two datasets differ in size). Zero-out is one
// substitution: its upper bound is the substitute pair's (the add/remove pair is not: with the
// others' gradients at −1 the step's pair exceeds it, docs/samplers.md). Every pair composed here is
// attained by clipped gradients (the group at +1 against absent, at −1, or at 0, the others at 0), so
// the lower end of the add/remove or substitute composition bounds the sampler; under zero-out the
// add/remove pair's does (the zeroed example then moves nothing but its own term).
#include <vector>

#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/pair_bounds.hpp"
#include "dpcalc/dpsgd/samplers.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kFixedBatchMethod{
    "Sommer's hypergeometric Gaussian mixture composed with privacy loss "
    "distributions",
    "Sommer 2021; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022", "sommer2021group doroshenko2022connect"};
constexpr const char* kZeroOutNote =
    "Zero-out is one substitution: the upper bound is the substitute pair's, proven for one example; the "
    "lower bound is the pair of the example at +1 against 0 with the others at 0.";

class FixedBatchSampler final : public Sampler {
 public:
  const char* name() const override { return "fixed_batch"; }
  const char* title() const override { return "Fixed batches drawn without replacement"; }
  bool covers(Relation) const override { return true; }
  Relation default_relation() const override { return Relation::kAddRemove; }
  bool has_group_analysis() const override { return true; }
  bool has_phases() const override { return true; }
  bool has_privacy_loss_distributions() const override { return true; }

  std::optional<GroupSetting> group_setting(const Phase& phase, double group_size, Relation relation) const override {
    return GroupSetting{SampleDraw::without_replacement(*phase.batches.dataset_size, *phase.batches.batch_size),
                        group_size, relation == Relation::kZeroOut ? Relation::kSubstitute : relation};
  }

  Result<Batches> check(const Batches& batches) const override { return with_dataset_and_batch(batches); }

  double steps_per_epoch(const Batches& checked) const override { return *checked.dataset_size / *checked.batch_size; }

  Result<SamplerBounds> bounds(const Training& training, double delta, const pld::AccountingOptions& options,
                               const pld::ProgressCallback& progress, BoundsWanted wanted) const override {
    const bool zero_out = training.relation == Relation::kZeroOut;
    DPCALC_TRY(const std::vector<pld::CompositionItem> upper, phase_items(*this, training, training.relation));
    DPCALC_TRY(SamplerBounds bounds,
               composed_bounds(upper, delta, options, zero_out ? first_half(progress) : progress, wanted));
    bounds.proven = training.group_size == 1 && training.relation != Relation::kAddRemove;
    bounds.upper_method = bounds.lower_method = kFixedBatchMethod;
    if (!bounds.proven) bounds.note = kFixedBatchAssumption;
    if (zero_out) {
      if (bounds.proven) bounds.note = kZeroOutNote;
      bounds.epsilon_lower.reset();
      if (wanted == BoundsWanted::kBoth) {
        DPCALC_TRY(const std::vector<pld::CompositionItem> lower, phase_items(*this, training, Relation::kAddRemove));
        DPCALC_TRY(bounds.epsilon_lower,
                   composed_lower(lower, delta, *bounds.epsilon_upper, options, second_half(progress)));
      }
    }
    return bounds;
  }
};

}  // namespace

const Sampler& fixed_batch_sampler() {
  static const FixedBatchSampler sampler;
  return sampler;
}

}  // namespace dpcalc::dpsgd
