// Truncated Poisson sampling as a sampler of DP-SGD (truncated_poisson.hpp: Ganesh 2025's pair, and the
// pair of one example at gradient 1 among zeros, the sampler's own lower bound). The analysis is not
// tight: its bracket is reported beside the sampler's bounds. Relations: zero-out and substitute (the
// batch's size does not follow the examples one by one under add/remove).
#include <vector>

#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/dpsgd/truncated_poisson.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kTruncatedUpperMethod{
    "Truncated Poisson sampling: the Poisson pair and a two-sided pair of the truncated batch, mixed by the "
    "probability of truncation, composed with privacy loss distributions",
    "Ganesh 2025 (arXiv 2508.15089); Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "ganesh2025tighter doroshenko2022connect"};
constexpr MethodInfo kTruncatedLowerMethod{
    "Truncated Poisson sampling: one example of gradient 1 among gradients 0, a Poisson-subsampled Gaussian at "
    "the truncated sampler's inclusion probability (optimistic privacy loss distribution)",
    "Ganesh 2025 (arXiv 2508.15089); Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "ganesh2025tighter doroshenko2022connect"};
constexpr const char* kTruncatedNote =
    "The lower bound is of the sampler (a pair its clipped gradients produce), not of the analysis; the "
    "analysis' own bracket (analysis_bracket) bounds its dominating pair only.";

class TruncatedPoissonSampler final : public Sampler {
 public:
  const char* name() const override { return "truncated_poisson"; }
  const char* title() const override { return "Truncated Poisson sampling"; }
  bool covers(Relation relation) const override { return relation != Relation::kAddRemove; }
  Relation default_relation() const override { return Relation::kZeroOut; }
  bool has_group_analysis() const override { return false; }
  bool has_phases() const override { return true; }

  Result<Batches> check(const Batches& batches) const override {
    Batches checked = batches;
    DPCALC_TRY(checked.dataset_size, required_dataset_size(batches));
    DPCALC_TRY(checked.sampling_rate, rate_or_batch_share(batches));
    if (!batches.max_batch_size) {
      return invalid_argument("max_batch_size", "max_batch_size is required: the cap C on a batch's size.");
    }
    DPCALC_TRY(checked.max_batch_size, check_count(*batches.max_batch_size, "max_batch_size"));
    return checked;
  }

  double steps_per_epoch(const Batches& checked) const override { return 1 / *checked.sampling_rate; }

  Result<SamplerBounds> bounds(const Training& training, double delta, const pld::AccountingOptions& options,
                               const pld::ProgressCallback& progress, BoundsWanted wanted) const override {
    std::vector<TruncatedPoissonPhase> phases;
    for (const Phase& phase : training.phases) {
      const Batches& b = phase.batches;
      phases.push_back({{*b.dataset_size, *b.sampling_rate, *b.max_batch_size, training.relation},
                        phase.noise_multiplier,
                        phase.steps});
    }
    Result<TruncatedPoissonEpsilon> answered =
        truncated_poisson_epsilon(phases, delta, options, progress, wanted == BoundsWanted::kBoth);
    if (!answered.ok()) return in_training_terms(std::move(answered).error());
    const TruncatedPoissonEpsilon& r = answered.value();
    SamplerBounds bounds;
    bounds.epsilon_upper = r.epsilon_upper;
    if (wanted == BoundsWanted::kBoth) bounds.epsilon_lower = r.epsilon_lower_sampler;
    bounds.analysis = r.analysis;
    bounds.engine = r.analysis;
    bounds.upper_method = kTruncatedUpperMethod;
    bounds.lower_method = kTruncatedLowerMethod;
    bounds.note = kTruncatedNote;
    return bounds;
  }
};

}  // namespace

const Sampler& truncated_poisson_sampler() {
  static const TruncatedPoissonSampler sampler;
  return sampler;
}

}  // namespace dpcalc::dpsgd
