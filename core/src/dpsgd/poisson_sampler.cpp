// Poisson sampling (Abadi et al. 2016): every example joins each batch independently with
// probability q (= B/N for an expected batch of B). One step of a group of k examples is the
// worst-case Gaussian mixture of group_pair.hpp with J ~ Binomial(k, q), tight for Poisson sampling
// (Schuchardt, Stoian, Kosmala, Günnemann 2024; for k = 1 Zhu, Dong, Wang 2022, Thm 11); its steps,
// phase by phase, are composed by the PLD engine. Zero-out has the add/remove pair (the zeroed
// example's inclusion changes nothing). The pair is attained by clipped gradients (the group's at
// +1, the others' at 0), so the composition's lower end bounds the sampler.
#include <vector>

#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/pair_bounds.hpp"
#include "dpcalc/dpsgd/samplers.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kPoissonMethod{"Poisson-subsampled Gaussian composed with privacy loss distributions",
                                    "Zhu, Dong, Wang 2022, Thm 11; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
                                    "zhu2022optimal doroshenko2022connect"};

class PoissonSampler final : public Sampler {
 public:
  const char* name() const override { return "poisson"; }
  const char* title() const override { return "Poisson sampling"; }
  bool covers(Relation) const override { return true; }
  Relation default_relation() const override { return Relation::kAddRemove; }
  bool has_group_analysis() const override { return true; }
  bool has_phases() const override { return true; }
  bool has_privacy_loss_distributions() const override { return true; }

  std::optional<GroupSetting> group_setting(const Phase& phase, double group_size, Relation relation) const override {
    return GroupSetting{SampleDraw::poisson(*phase.batches.sampling_rate), group_size,
                        relation == Relation::kSubstitute ? Relation::kSubstitute : Relation::kAddRemove};
  }

  Result<Batches> check(const Batches& batches) const override {
    Batches checked = batches;
    DPCALC_CHECK(dataset_size_only_with_batch(batches));
    DPCALC_TRY(checked.sampling_rate, rate_or_batch_share(batches));
    return checked;
  }

  double steps_per_epoch(const Batches& checked) const override {
    if (checked.batch_size) return *checked.dataset_size / *checked.batch_size;
    return 1 / *checked.sampling_rate;
  }

  Result<SamplerBounds> bounds(const Training& training, double delta, const pld::AccountingOptions& options,
                               const pld::ProgressCallback& progress, BoundsWanted wanted) const override {
    DPCALC_TRY(const std::vector<pld::CompositionItem> items, phase_items(*this, training, training.relation));
    DPCALC_TRY(SamplerBounds bounds, composed_bounds(items, delta, options, progress, wanted));
    bounds.upper_method = bounds.lower_method = training.group_size > 1 ? kTightMethod : kPoissonMethod;
    return bounds;
  }
};

}  // namespace

const Sampler& poisson_sampler() {
  static const PoissonSampler sampler;
  return sampler;
}

}  // namespace dpcalc::dpsgd
