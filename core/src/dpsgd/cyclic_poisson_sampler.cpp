// Cyclic Poisson sampling as a sampler of DP-SGD (cyclic_poisson.hpp): T steps over b bands are
// Poisson DP-SGD with ⌈T/b⌉ steps at the rate inside a band, q = b·B/N for an expected batch of B.
// The composition is attained by an example of the first band (at gradient 1, the others at 0), so
// its lower end bounds the sampler. Groups may spread over bands, which no analysis here covers.
#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/cyclic_poisson.hpp"
#include "dpcalc/dpsgd/pair_bounds.hpp"
#include "dpcalc/dpsgd/samplers.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kMethod{"Cyclic Poisson sampling: Poisson DP-SGD over the ⌈T/b⌉ steps that use one band",
                             "Choquette-Choo, Ganesh, McKenna, McMahan, Rush, Thakurta, Xu 2023, Thms 4–5",
                             "choquettechoo2023amplified"};

class CyclicPoissonSampler final : public Sampler {
 public:
  const char* name() const override { return "cyclic_poisson"; }
  const char* title() const override { return "Cyclic Poisson sampling"; }
  bool covers(Relation) const override { return true; }
  Relation default_relation() const override { return Relation::kAddRemove; }
  bool has_group_analysis() const override { return false; }
  bool has_privacy_loss_distributions() const override { return true; }

  Result<Batches> check(const Batches& batches) const override {
    Batches checked = batches;
    if (!batches.bands) return invalid_argument("bands", "bands is required: the parts the data is split into.");
    DPCALC_TRY(checked.bands, check_count(*batches.bands, "bands"));
    DPCALC_CHECK(dataset_size_only_with_batch(batches));
    DPCALC_TRY(checked.sampling_rate, rate_or_batch_share(batches, *checked.bands));
    return checked;
  }

  // An epoch sees every example once on average: b/q steps (N/B at q = b·B/N).
  double steps_per_epoch(const Batches& checked) const override { return *checked.bands / *checked.sampling_rate; }

  Result<SamplerBounds> bounds(const Training& training, double delta, const pld::AccountingOptions& options,
                               const pld::ProgressCallback& progress, BoundsWanted wanted) const override {
    const Phase& phase = training.phases.front();
    const Relation pair_relation =
        training.relation == Relation::kSubstitute ? Relation::kSubstitute : Relation::kAddRemove;
    Result<pld::CompositionItem> item = cyclic_poisson_item(*phase.batches.sampling_rate, phase.noise_multiplier,
                                                            phase.steps, *phase.batches.bands, pair_relation);
    if (!item.ok()) return about_item(std::move(item).error(), 0);
    DPCALC_TRY(SamplerBounds bounds, composed_bounds({item.value()}, delta, options, progress, wanted));
    bounds.upper_method = bounds.lower_method = kMethod;
    return bounds;
  }
};

}  // namespace

const Sampler& cyclic_poisson_sampler() {
  static const CyclicPoissonSampler sampler;
  return sampler;
}

}  // namespace dpcalc::dpsgd
