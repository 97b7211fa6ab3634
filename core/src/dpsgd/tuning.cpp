#include "dpcalc/dpsgd/tuning.hpp"

#include <cstring>
#include <string>
#include <vector>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::dpsgd {

Result<TunedTraining> tuned_training(const Sampler& sampler, const Training& training,
                                     const rdp::Repetitions& repetitions, double delta) {
  if (std::strcmp(sampler.name(), "poisson") != 0) {
    return Error{kUnsupported, "sampling",
                 "Tuning by random repetition needs the Rényi DP curve of one run, known here for Poisson sampling "
                 "only; use sampling 'poisson'."};
  }
  if (training.group_size != 1) {
    return Error{kUnsupported, "group_size",
                 "Tuning by random repetition needs the Rényi DP curve of one run, known here for one example "
                 "(group_size 1) only."};
  }
  if (training.relation == Relation::kSubstitute) {
    return Error{kUnsupported, "relation",
                 "Tuning by random repetition needs the Rényi DP curve of one run, known here under 'add_remove' "
                 "and 'zero_out' only."};
  }
  DPCALC_TRY(const rdp::Repetitions checked, rdp::check_repetitions(repetitions));
  // One run: Σ over the phases of steps · ε(α) of the subsampled Gaussian (Mironov 2017, Prop. 1),
  // each product and sum rounded up.
  const rdp::RdpFunction run = [&training](double order) {
    double total = 0;
    for (const Phase& phase : training.phases) {
      const double step = rdp::subsampled_gaussian_rdp(*phase.batches.sampling_rate, phase.noise_multiplier, order);
      total = add_up(total, multiply_up(phase.steps, step));
    }
    return total;
  };
  const std::vector<double> orders = rdp::default_orders();
  DPCALC_TRY(const std::vector<double> tuned, rdp::repeat_and_select_rdp(checked, orders, run));
  Result<rdp::RdpToApprox> converted = rdp::to_approx(orders, tuned, delta);
  if (!converted.ok()) {
    return Error{kNumeric, "noise_multiplier",
                 "No Rényi order gives a finite bound for the tuned training: use more noise, fewer steps or "
                 "fewer runs."};
  }
  return TunedTraining{converted.value().guarantee.epsilon, converted.value().order};
}

Result<Training> repeated_training(const Training& training, double runs) {
  Training repeated = training;
  for (Phase& phase : repeated.phases) {
    DPCALC_TRY(phase.steps, check_count(multiply_up(phase.steps, runs), "steps"));
  }
  return repeated;
}

}  // namespace dpcalc::dpsgd
