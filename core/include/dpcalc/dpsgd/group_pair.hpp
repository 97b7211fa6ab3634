// The one-step worst-case pair of DP-SGD for a group of k training examples (Sommer 2021, "Group
// Privacy for Deep Learning with Differential Privacy"; Schuchardt, Stoian, Kosmala, Günnemann 2024, "Unified
// mechanism-specific amplification by subsampling and group privacy amplification", NeurIPS). In units of the clipping
// norm C, with noise multiplier sigma and J the number of the group's examples in the batch, each moving the noisy
// gradient sum by at most 1:
//   add/remove:   P = sum_j Pr[J = j] N(j, sigma^2)   against  Q = N(0, sigma^2)
//   substitution: P = sum_j Pr[J = j] N(+j, sigma^2)  against  Q = sum_j Pr[J = j] N(-j, sigma^2)
// Poisson sampling at rate q: J ~ Binomial(k, q); this pair is the tight dominating pair for groups
// (Schuchardt et al. 2024). Fixed batches of B drawn without replacement from N examples:
// J ~ Hypergeometric(N, k, B), Sommer's pair, "assuming the worst-case property" (not proven).
// k = 1 with Poisson sampling is the ordinary Poisson-subsampled Gaussian of DP-SGD (Abadi et al. 2016).
#pragma once

#include <string>
#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/mechanisms/sampled_group.hpp"
#include "dpcalc/mechanisms/sampling.hpp"
#include "dpcalc/pld/privacy_loss.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

using mechanisms::Relation;
using mechanisms::SampleDraw;

struct GroupSetting {
  // Poisson at rate q in (0, 1], or fixed batches of B (an integer in [1, N]) drawn without
  // replacement from N (an integer >= 1): mechanisms/sampling.hpp.
  SampleDraw draw = SampleDraw::poisson(0);
  double group_size = 1;                     // k, an integer >= 1 (<= N for fixed batches)
  Relation relation = Relation::kAddRemove;  // the pair's: add/remove or substitute
};

// A fixed-batch setting: batches of `batch_size` out of `dataset_size`.
inline bool is_fixed_batch(const GroupSetting& setting) {
  return setting.draw.draw == mechanisms::Draw::kWithoutReplacement;
}

// What a result with Sommer's fixed-batch pair must say.
inline constexpr const char* kFixedBatchAssumption =
    "Fixed batches without replacement: the pair with Hypergeometric(N, k, B) weights is Sommer's (2021), "
    "\"assuming the worst-case property\" (not proven for this sampling).";

// Largest group handled, as for any subsampled group (the pair has k + 1 components).
inline constexpr double kMaxGroupSize = mechanisms::kMaxSampledGroupSize;

// Validates the setting; errors are invalid_argument on the names of what it is made of (group_size,
// sampling_rate, dataset_size, batch_size).
Result<GroupSetting> check_setting(const GroupSetting& setting);

// log Pr[J = j] for j = 0..k (-infinity outside the support): mechanisms::group_inclusion_log_pmf.
std::vector<double> log_inclusion_pmf(const GroupSetting& setting);

// 1 - Pr[J = 0]: the probability that the batch holds at least one of the group's examples.
double group_sampling_probability(const GroupSetting& setting);

// The pair above (mechanisms::sampled_group_pair with Δ = 1, the clipping norm, and σ the noise
// multiplier; sampling rate 1: the sampling is inside the mixture).
pld::DominatingPair worst_case_pair(const GroupSetting& setting, double noise_multiplier);

}  // namespace dpcalc::dpsgd
