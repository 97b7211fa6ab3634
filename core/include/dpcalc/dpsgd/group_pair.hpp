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
#include "dpcalc/pld/privacy_loss.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

enum class Sampling { kPoisson, kFixedBatch };
using mechanisms::Relation;

struct GroupSetting {
  Sampling sampling = Sampling::kPoisson;
  double sampling_rate = 0;  // Poisson: in (0, 1]
  double dataset_size = 0;   // fixed batch: N, an integer >= 1
  double batch_size = 0;     // fixed batch: B, an integer in [1, N]
  double group_size = 1;     // k, an integer >= 1 (<= N for fixed batches)
  Relation relation = Relation::kAddRemove;
};

// Largest group handled, as for any subsampled group (the pair has k + 1 components).
inline constexpr double kMaxGroupSize = mechanisms::kMaxSampledGroupSize;

// Validates the setting; errors are invalid_argument on its members' names (group_size,
// sampling_rate, dataset_size, batch_size).
Result<GroupSetting> check_setting(const GroupSetting& setting);

// log Pr[J = j] for j = 0..k (-infinity outside the support). Poisson: the binomial recursion from
// Pr[J = 0] = (1 - q)^k; fixed batch: Pr[J = 0] = prod_{i<k} (1 - B/(N - i)) (each factor by log1p)
// and the ratio Pr[J = j+1]/Pr[J = j] = (k - j)(B - j) / ((j + 1)(N - k - B + j + 1)), so that
// N = 10^9 and k = 1000 keep full relative accuracy (no difference of huge log-factorials).
std::vector<double> log_inclusion_pmf(const GroupSetting& setting);

// 1 - Pr[J = 0]: the probability that the batch holds at least one of the group's examples.
double group_sampling_probability(const GroupSetting& setting);

// The pair above (mechanisms::sampled_group_pair with Δ = 1, the clipping norm, and σ the noise
// multiplier; sampling rate 1: the sampling is inside the mixture).
pld::DominatingPair worst_case_pair(const GroupSetting& setting, double noise_multiplier);

}  // namespace dpcalc::dpsgd
