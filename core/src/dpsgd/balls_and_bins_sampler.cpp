// Balls-and-bins batches (Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang 2025, AISTATS): each
// epoch of T = ⌊N/B⌋ steps puts every example in one uniformly random step, independently of the
// others (random_allocation.hpp: Feldman & Shenfeld's pair, bounded from both sides). Zero-out has the
// add/remove pair: the zeroed example adds nothing to the step it is put in. Steps that are not a
// whole number of epochs: the upper bound counts the epoch begun, the lower bound the epochs completed
// (as for shuffling). A group of k, with no amplification proven: each epoch moves the sums by
// (n_1, …, n_T) with Σ n_t = k, whose norm is at most k, so E epochs are μ-GDP with μ = √E·k/σ (Dong,
// Roth, Su 2019, Cor 3.3), ε exact by the analytic Gaussian; the lower bound is one example's.
#include <cmath>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/dpsgd/random_allocation.hpp"
#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/floating_point.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kGroupMethod{
    "Balls-and-bins for a group of k without amplification: E Gaussian uses of sensitivity k (μ = √E·k/σ), exact "
    "analytic Gaussian",
    "Balle, Wang 2018, Thm 8; Dong, Roth, Su 2019, Cor 3.3", "balle2018improving dong2019gaussian"};

// The random-allocation bound's errors in the training's terms: its steps of an epoch are set by the
// batch size, its epochs by the steps, its loss grid by the noise.
Error in_sampler_terms(Error error) {
  if (error.field == "steps_per_epoch") error.field = "batch_size";
  if (error.field == "epochs") error.field = "steps";
  if (error.field == "loss_step") error.field = "noise_multiplier";
  return error;
}

Result<RandomAllocationEpsilon> allocation_epsilon(const Phase& phase, double per_epoch, double epochs, double delta,
                                                   const pld::AccountingOptions& options,
                                                   const pld::ProgressCallback& progress) {
  Result<RandomAllocationEpsilon> answered =
      random_allocation_epsilon(per_epoch, phase.noise_multiplier, epochs, delta, options.relative_accuracy);
  if (!answered.ok()) return in_sampler_terms(std::move(answered).error());
  // The computation reports no progress of its own (about 50 ms native for ten epochs of 234 steps):
  // a cancel is honoured between its parts.
  if (progress && !progress(0.5)) return Error{pld::kCancelled, "", "The computation was cancelled."};
  return answered;
}

class BallsAndBinsSampler final : public Sampler {
 public:
  const char* name() const override { return "balls_and_bins"; }
  const char* title() const override { return "Balls-and-bins batches (random allocation)"; }
  bool covers(Relation relation) const override { return relation != Relation::kSubstitute; }
  Relation default_relation() const override { return Relation::kAddRemove; }
  bool has_group_analysis() const override { return true; }

  Result<Batches> check(const Batches& batches) const override { return with_dataset_and_batch(batches); }

  double steps_per_epoch(const Batches& checked) const override {
    return std::floor(*checked.dataset_size / *checked.batch_size);
  }

  Result<SamplerBounds> bounds(const Training& training, double delta, const pld::AccountingOptions& options,
                               const pld::ProgressCallback& progress, BoundsWanted wanted) const override {
    const Phase& phase = training.phases.front();
    const double per_epoch = steps_per_epoch(phase.batches);
    const double begun = std::ceil(phase.steps / per_epoch), completed = std::floor(phase.steps / per_epoch);
    SamplerBounds bounds;
    bounds.lower_method = kRandomAllocationMethod;
    if (training.group_size > 1) {
      // Rounded up: √E (one ulp), the product and the quotient (u each); ε grows with μ.
      const double mu = std::sqrt(begun) * training.group_size / phase.noise_multiplier * (1 + 8 * kUnitRoundoff);
      bounds.epsilon_upper = gaussian_epsilon_for_delta(mu, delta);
      if (!std::isfinite(*bounds.epsilon_upper)) {
        return Error{kNumeric, "noise_multiplier",
                     "With μ = " + format_number(mu) +
                         " the Gaussian's ε exceeds the range of a double; give more "
                         "noise."};
      }
      bounds.upper_method = kGroupMethod;
      bounds.note =
          "No amplification is proven for groups under balls-and-bins: the upper bound is that of a "
          "Gaussian of sensitivity k used once per epoch; the lower bound is one example's.";
    } else {
      DPCALC_TRY(const RandomAllocationEpsilon upper,
                 allocation_epsilon(phase, per_epoch, begun, delta, options, progress));
      bounds.epsilon_upper = upper.bracket.epsilon_upper;
      bounds.engine = upper.bracket;
      bounds.upper_method = kRandomAllocationMethod;
      if (begun == completed) bounds.epsilon_lower = upper.bracket.epsilon_lower;
    }
    if (wanted == BoundsWanted::kUpperOnly || bounds.epsilon_lower || completed < 1) return bounds;
    if (completed != begun) {
      bounds.note += std::string(bounds.note.empty() ? "" : " ") + "The steps end inside an epoch: the upper bound " +
                     "counts " + format_number(begun) + " epochs, the lower bound " + format_number(completed) + ".";
    }
    DPCALC_TRY(const RandomAllocationEpsilon lower,
               allocation_epsilon(phase, per_epoch, completed, delta, options, progress));
    bounds.epsilon_lower = std::min(lower.bracket.epsilon_lower, *bounds.epsilon_upper);
    return bounds;
  }
};

}  // namespace

const Sampler& balls_and_bins_sampler() {
  static const BallsAndBinsSampler sampler;
  return sampler;
}

}  // namespace dpcalc::dpsgd
