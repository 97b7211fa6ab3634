#include "dpcalc/dpsgd/trivial_training.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "dpcalc/checks.hpp"

namespace dpcalc::dpsgd {
namespace {

constexpr MethodInfo kNothingRead{
    "Exact: no step samples an example (sampling rate 0), so the training reveals nothing",
    "Dwork & Roth 2014, Def. 2.4", "dwork2014algorithmic"};
constexpr MethodInfo kNoNoise{
    "Exact: without noise a step that samples one of the group's examples releases its clipped gradient as it is "
    "(infinite privacy loss); otherwise the output is the same on both datasets",
    "Dwork & Roth 2014, Def. 2.4", "dwork2014algorithmic"};
// Relative error bound of P computed by log1p, a product and expm1 (a few ulps each), widened.
constexpr double kProbabilityError = 1e-13;

bool adds_no_noise(const Phase& phase) { return phase.noise_multiplier == 0; }

SamplerBounds exact(double epsilon, const MethodInfo& method, std::string note) {
  SamplerBounds bounds;
  bounds.epsilon_upper = bounds.epsilon_lower = epsilon;
  bounds.upper_method = bounds.lower_method = method;
  bounds.note = std::move(note);
  return bounds;
}

struct Probability {
  double value, lower, upper;
};

// P = 1 − Π (1 − q)^(k·T) over the phases without noise, with its rounding bracket.
Probability group_sampled_probability(const Training& training) {
  double log_never = 0;  // ln Π (1 − q)^(k·T) ≤ 0
  for (const Phase& phase : training.phases) {
    if (!adds_no_noise(phase)) continue;
    log_never += training.group_size * phase.steps * std::log1p(-*phase.batches.sampling_rate);
  }
  const double p = -std::expm1(log_never);
  return {p, p * (1 - kProbabilityError), std::fmin(1.0, p * (1 + kProbabilityError))};
}

}  // namespace

bool reads_no_example(const Phase& phase) { return phase.batches.sampling_rate && *phase.batches.sampling_rate == 0; }

Training without_unread_phases(const Training& checked) {
  Training read = checked;
  read.phases.clear();
  for (const Phase& phase : checked.phases) {
    if (!reads_no_example(phase)) read.phases.push_back(phase);
  }
  return read;
}

bool reads_no_example(const Training& checked) {
  return std::all_of(checked.phases.begin(), checked.phases.end(),
                     [](const Phase& phase) { return reads_no_example(phase); });
}

Result<std::optional<SamplerBounds>> trivial_bounds(const Sampler& sampler, const Training& checked, double delta) {
  const Training read = without_unread_phases(checked);
  if (read.phases.empty()) {
    return std::optional(exact(0, kNothingRead, "With sampling rate 0 every batch is empty: ε = 0 at every δ."));
  }
  std::size_t noise_free = 0;
  for (const Phase& phase : read.phases) noise_free += adds_no_noise(phase) ? 1 : 0;
  if (noise_free == 0) return std::optional<SamplerBounds>();
  // Errors are about the first phase without noise (Error::item its index in `checked`).
  std::size_t first = 0;
  while (reads_no_example(checked.phases[first]) || !adds_no_noise(checked.phases[first])) ++first;
  if (std::string(sampler.name()) != "poisson") {
    return about_item(
        invalid_argument("noise_multiplier", std::string("A noise multiplier of 0 adds no noise; it is "
                                                         "answered for 'poisson' sampling, not for "
                                                         "sampling '") +
                                                 sampler.name() + "'. Give a noise multiplier greater than 0."),
        first);
  }
  const auto [p, lower, upper] = group_sampled_probability(read);
  const std::string chance =
      "The chance that a step without noise samples one of the group's examples is P = 1 − Π (1 − q)^(k·T) = " +
      format_number(p) + ".";
  if (noise_free < read.phases.size()) {
    if (delta < lower) {
      SamplerBounds vacuous = exact(std::numeric_limits<double>::infinity(), kNoNoise, chance);
      vacuous.note += " The phases without noise alone give no finite ε at δ below P.";
      return std::optional(vacuous);
    }
    return about_item(invalid_argument("noise_multiplier",
                                       "A schedule that mixes phases without noise and phases with noise is answered "
                                       "only for δ below the chance P that a noise-free phase samples the group (no "
                                       "finite ε): " +
                                           chance + " Give every phase a noise multiplier greater than 0."),
                      first);
  }
  if (delta >= upper) {
    return std::optional(exact(0, kNoNoise, chance + " δ ≥ P, so ε = 0: δ(ε) = P at every ε ≥ 0."));
  }
  // Between the two ends of P's rounding bracket no side is proven: no finite ε is the safe answer.
  SamplerBounds vacuous = exact(std::numeric_limits<double>::infinity(), kNoNoise,
                                chance + " δ < P, so no finite ε holds: δ(ε) = P at every ε ≥ 0.");
  if (!(delta < lower)) vacuous.epsilon_lower.reset();
  return std::optional(vacuous);
}

}  // namespace dpcalc::dpsgd
