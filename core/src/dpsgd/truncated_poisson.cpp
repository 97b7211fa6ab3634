#include "dpcalc/dpsgd/truncated_poisson.hpp"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"

namespace dpcalc::dpsgd {
namespace {

// Pr[Binomial(n, q) >= k] for 1 <= k <= n is the regularised incomplete beta I_q(k, n − k + 1), and
// Pr[Binomial(n, q) <= k − 1] its complement, which Boost computes directly (no cancellation).
struct BinomialTail {
  double at_least = 0, below = 0;
};

Result<BinomialTail> binomial_tail(double n, double k, double q) {
  BinomialTail tail{boost::math::ibeta(k, n - k + 1, q), boost::math::ibetac(k, n - k + 1, q)};
  if (!(tail.at_least >= 0 && tail.at_least <= 1 && tail.below >= 0 && tail.below <= 1)) {
    return Error{kNumeric, "max_batch_size",
                 "The probability that a batch is truncated could not be computed for these sizes (got " +
                     format_number(tail.at_least) +
                     "); please report the dataset size, sampling rate and maximum "
                     "batch size."};
  }
  return tail;
}

double tail_lower_end(double value) { return std::max(0.0, value * (1 - kBinomialTailTolerance)); }
double tail_upper_end(double value) { return std::min(1.0, value * (1 + kBinomialTailTolerance)); }

// a·b + c·d rounded down (both products >= 0): each operation is within a relative u.
double sum_of_products_down(double a, double b, double c, double d) {
  return (a * b + c * d) * (1 - 4 * kUnitRoundoff);
}
double sum_of_products_up(double a, double b, double c, double d) {
  return std::min(1.0, (a * b + c * d) * (1 + 4 * kUnitRoundoff));
}

pld::MixtureVsMixturePair shifted_mixture_pair(double sigma, double rate, double p_shift, double q_shift) {
  pld::MixtureVsMixturePair pair;
  pair.sigma = sigma;
  pair.p_shifts = {0.0, p_shift};
  pair.p_weights = {1 - rate, rate};
  if (q_shift == 0) {
    pair.q_shifts = {0.0};
    pair.q_weights = {1.0};
  } else {
    pair.q_shifts = {0.0, q_shift};
    pair.q_weights = {1 - rate, rate};
  }
  return pair;
}

// The Poisson part of the revealed mixture, as a mixture pair (the part type it holds).
pld::MixtureVsMixturePair poisson_part(double rate, double sigma, Relation relation) {
  return shifted_mixture_pair(sigma, rate, 1.0, relation == Relation::kZeroOut ? 0.0 : -1.0);
}

// The truncated part: the example's seat taken from another example of gradient −1 (shift 2), against
// the replacement's 0 (zero-out: −1 from the same origin) or −1 (substitute: −2).
pld::MixtureVsMixturePair truncated_part(double rate, double sigma, Relation relation) {
  return shifted_mixture_pair(sigma, rate, 2.0, relation == Relation::kZeroOut ? -1.0 : -2.0);
}

}  // namespace

Result<TruncatedPoissonSetting> check_truncated_poisson(const TruncatedPoissonSetting& setting) {
  DPCALC_TRY(const double n, check_count(setting.dataset_size, "dataset_size"));
  DPCALC_TRY(const double q, check_rate(setting.sampling_rate, "sampling_rate"));
  DPCALC_TRY(const double cap, check_count(setting.max_batch_size, "max_batch_size"));
  return TruncatedPoissonSetting{n, q, cap, setting.relation};
}

Result<TruncationProbabilities> truncation_probabilities(const TruncatedPoissonSetting& s) {
  const double n = s.dataset_size, q = s.sampling_rate, cap = s.max_batch_size;
  TruncationProbabilities p;
  if (cap >= n) {
    p.inclusion_lower = p.inclusion_upper = q;
    return p;
  }
  // w = Pr[Binomial(N − 1, q) >= C] and its complement; A = Pr[Binomial(N, q) >= C + 1] (C + 1 <= N).
  DPCALC_TRY(const BinomialTail others, binomial_tail(n - 1, cap, q));
  DPCALC_TRY(const BinomialTail all, binomial_tail(n, cap + 1, q));
  const double cap_share_down = cap / n * (1 - kUnitRoundoff), cap_share_up = cap / n * (1 + kUnitRoundoff);
  p.inclusion_lower =
      sum_of_products_down(q, tail_lower_end(others.below), cap_share_down, tail_lower_end(all.at_least));
  p.inclusion_upper = sum_of_products_up(q, tail_upper_end(others.below), cap_share_up, tail_upper_end(all.at_least));
  if (!(tail_upper_end(others.at_least) >= kSmallestTruncation)) {
    // Underflow: w and its truncated part are below anything a double resolves here; the whole
    // bracket [0, kSmallestTruncation] goes to infinite loss.
    p.truncation_upper = kSmallestTruncation;
    return p;
  }
  p.truncation_lower = tail_lower_end(others.at_least);
  p.truncation_upper = tail_upper_end(others.at_least);
  if (p.truncation_lower > 0) {
    // ρ = C A / (N w) < C/(C + 1); rounded up at each step.
    p.conditional_inclusion_upper =
        std::min(1.0, divide_up(multiply_up(cap_share_up, tail_upper_end(all.at_least)), p.truncation_lower));
  }
  return p;
}

pld::DominatingPair poisson_step_pair(double sampling_rate, double noise_multiplier, Relation relation) {
  // Add/remove and zero-out share the Poisson pair (the zeroed example's inclusion moves nothing).
  if (relation != Relation::kSubstitute)
    return pld::DominatingPair{pld::GaussianPair{noise_multiplier, 1.0}, sampling_rate};
  return pld::DominatingPair{poisson_part(sampling_rate, noise_multiplier, relation), 1.0};
}

pld::DominatingPair truncated_poisson_pair(const TruncatedPoissonSetting& s, const TruncationProbabilities& p,
                                           double noise_multiplier) {
  if (p.truncation_upper == 0) return poisson_step_pair(s.sampling_rate, noise_multiplier, s.relation);
  pld::RevealedMixturePair mixture_pair;
  mixture_pair.parts = {poisson_part(s.sampling_rate, noise_multiplier, s.relation),
                        truncated_part(p.conditional_inclusion_upper, noise_multiplier, s.relation)};
  // A truncated part of rate 0 (w unresolved) has weight 0: the engine leaves it out.
  const double truncated_weight = p.conditional_inclusion_upper > 0 ? p.truncation_lower : 0.0;
  mixture_pair.weights = {1 - p.truncation_upper, truncated_weight};
  mixture_pair.infinite_loss_weight = p.truncation_upper - truncated_weight;
  return pld::DominatingPair{mixture_pair, 1.0};
}

pld::DominatingPair truncated_poisson_sampler_pair(const TruncatedPoissonSetting& s, const TruncationProbabilities& p,
                                                   double noise_multiplier) {
  return poisson_step_pair(p.inclusion_lower, noise_multiplier, s.relation);
}

Result<TruncatedPoissonEpsilon> truncated_poisson_epsilon(const std::vector<TruncatedPoissonPhase>& phases,
                                                          double delta, const pld::AccountingOptions& options,
                                                          const pld::ProgressCallback& progress,
                                                          bool with_sampler_bound) {
  DPCALC_TRY(const double target, check_positive_delta(delta, "delta"));
  TruncatedPoissonEpsilon result;
  std::vector<pld::CompositionItem> analysis, sampler;
  for (std::size_t i = 0; i < phases.size(); ++i) {
    const auto phase_items = [&]() -> Result<bool> {
      DPCALC_TRY(const TruncatedPoissonSetting checked, check_truncated_poisson(phases[i].setting));
      DPCALC_TRY(const double sigma, check_positive(phases[i].noise_multiplier, "noise_multiplier"));
      DPCALC_TRY(const double count, check_count(phases[i].steps, "steps"));
      DPCALC_TRY(const TruncationProbabilities p, truncation_probabilities(checked));
      if (i == 0) result.probabilities = p;
      analysis.push_back({truncated_poisson_pair(checked, p, sigma), count});
      sampler.push_back({truncated_poisson_sampler_pair(checked, p, sigma), count});
      return true;
    };
    Result<bool> added = phase_items();
    if (!added.ok()) return about_item(std::move(added).error(), i);
  }
  pld::ProgressCallback first = progress, second;
  if (progress && with_sampler_bound) {
    first = [&](double f) { return progress(0.5 * f); };
    second = [&](double f) { return progress(0.5 + 0.5 * f); };
  }
  DPCALC_TRY(result.analysis, pld::epsilon_for_delta(analysis, target, options, first));
  result.epsilon_upper = result.analysis.epsilon_upper;
  result.epsilon_lower_analysis = result.analysis.epsilon_lower;
  if (!with_sampler_bound) return result;
  DPCALC_TRY(result.sampler, pld::epsilon_for_delta(sampler, target, options, second));
  // The sampler's pair is dominated by the analysis' pair, so its lower end is also below epsilon_upper.
  result.epsilon_lower_sampler = std::min(result.sampler.epsilon_lower, result.epsilon_upper);
  return result;
}

}  // namespace dpcalc::dpsgd
