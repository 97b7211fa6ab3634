// DP-SGD with truncated Poisson sampling (Ganesh 2025, "Tighter privacy analysis for truncated
// Poisson sampling", arXiv 2508.15089; the sampler of Chua et al. 2024, NeurIPS): each of the N
// examples enters the batch independently with probability q, and a batch of more than C examples
// is cut to a uniformly random subset of C. Noise N(0, σ²) per coordinate, clipping norm 1.
//
// One step's dominating pair (docs/samplers.md, eqs. 1–4). Let M ~ Binomial(N − 1, q) count the
// other examples sampled, and E = {M ≥ C}: then, and only then, the example can be cut.
//   w = Pr[E] = Pr[Binomial(N − 1, q) ≥ C],
//   ρ = Pr[example in the batch | E] = q·E[C/(M + 1) | E] = C·Pr[Binomial(N, q) ≥ C + 1] / (N·w).
// Off E the step is Poisson DP-SGD; on E it is a batch of C in which the example holds a seat with
// probability ρ, and the seat it takes from another example moves the sum by up to 2. Conditioning
// on E (joint convexity), the revealed mixture (pld::RevealedMixturePair)
//   (1 − w) · [Poisson pair at rate q]  +  w · [truncated pair at rate ρ]
// dominates the step, where (in units of the clipping norm, both against N(·, σ²)):
//   zero-out:   Poisson  (1 − q)N(0) + qN(1)   vs  N(0)
//               truncated (1 − ρ)N(0) + ρN(2)  vs  (1 − ρ)N(0) + ρN(−1)
//   substitute: Poisson  (1 − q)N(0) + qN(1)   vs  (1 − q)N(0) + qN(−1)
//               truncated (1 − ρ)N(0) + ρN(2)  vs  (1 − ρ)N(0) + ρN(−2)
// (Ganesh 2025, as dp_accounting's supplementary "Privacy Loss Distributions", Sec. 5.3, states it;
// dp_accounting's from_truncated_subsampled_gaussian_mechanism uses the substitute pair for the
// truncated part under every relation, which is looser under zero-out.)
// The analysis is not tight: its own lower bound bounds this pair, not the sampler. A lower bound
// on the sampler comes from a pair its gradients produce: one example of gradient 1, all others 0,
// is Poisson DP-SGD at the sampler's inclusion probability
//   q_in = Pr[example in the batch] = q·Pr[Binomial(N − 1, q) ≤ C − 1] + C·Pr[Binomial(N, q) ≥ C + 1]/N
//        = E[min(Binomial(N, q), C)] / N                                           (eq. 5).
// C ≥ N never truncates: the pair is then the Poisson pair itself.
#pragma once

#include <vector>

#include "dpcalc/dpsgd/samplers.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/privacy_loss.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::dpsgd {

struct TruncatedPoissonSetting {
  double dataset_size = 0;                 // N, a whole number >= 1
  double sampling_rate = 0;                // q in (0, 1]
  double max_batch_size = 0;               // C, a whole number >= 1
  Relation relation = Relation::kZeroOut;  // zero-out or substitute
};

// The setting if valid; errors are invalid_argument on "dataset_size", "sampling_rate",
// "max_batch_size".
Result<TruncatedPoissonSetting> check_truncated_poisson(const TruncatedPoissonSetting& setting);

// Relative error allowed for each binomial tail Boost's ibeta returns: measured within 1.2e-13 of
// mpmath (tests/reference/truncated_poisson_reference.py), Boost documents at most a few thousand
// ulps; 1e-11 leaves a margin over both.
inline constexpr double kBinomialTailTolerance = 1e-11;
// A truncation probability below this is not resolved (it underflows): it is then bounded by it.
inline constexpr double kSmallestTruncation = 1e-290;

// The probabilities of the analysis, each with its rounding bracketed (kBinomialTailTolerance).
struct TruncationProbabilities {
  // w = Pr[Binomial(N − 1, q) ≥ C]: truncation_lower <= w <= truncation_upper (0 and 0 when C >= N).
  double truncation_lower = 0, truncation_upper = 0;
  // An upper bound on ρ = C·Pr[Binomial(N, q) ≥ C + 1]/(N·w), at most 1 (0 when w is 0 or unresolved).
  double conditional_inclusion_upper = 0;
  // inclusion_lower <= q_in <= inclusion_upper (eq. 5; q and q when C >= N).
  double inclusion_lower = 0, inclusion_upper = 0;
};

// For a setting check_truncated_poisson accepted. Errors: numeric on "max_batch_size" when Boost
// returns a value that is not a probability (never seen).
Result<TruncationProbabilities> truncation_probabilities(const TruncatedPoissonSetting& checked);

// The Poisson pair of one step at rate q under `relation` (add/remove and zero-out: pld::GaussianPair
// at sampling rate q; substitute: the mixtures at ±1) for noise multiplier σ.
pld::DominatingPair poisson_step_pair(double sampling_rate, double noise_multiplier, Relation relation);

// The dominating pair above (an upper bound: its δ(ε) is at least the step's for every ε), with
// the brackets of `probabilities` taken on the safe side: weight 1 − truncation_upper on the Poisson
// part, truncation_lower on the truncated part at rate conditional_inclusion_upper (δ grows with the
// rate), and the difference of the two at infinite loss. The Poisson pair itself when C >= N.
pld::DominatingPair truncated_poisson_pair(const TruncatedPoissonSetting& checked,
                                           const TruncationProbabilities& probabilities, double noise_multiplier);

// The pair a step produces with one example of gradient 1 among gradients 0 (zero-out: replaced by
// 0; substitute: by −1): the Poisson pair at rate inclusion_lower, whose δ(ε) is at most the
// sampler's for every ε (δ grows with the rate). A lower bound on the sampler, through its
// composition's optimistic side.
pld::DominatingPair truncated_poisson_sampler_pair(const TruncatedPoissonSetting& checked,
                                                   const TruncationProbabilities& probabilities,
                                                   double noise_multiplier);

struct TruncatedPoissonEpsilon {
  double epsilon_upper = 0;               // upper bound of the analysis: the answer
  double epsilon_lower_analysis = 0;      // lower bound on the analysis' pair composed `steps` times
  double epsilon_lower_sampler = 0;       // lower bound on the sampler's ε
  pld::EpsilonBracket analysis;           // the analysis' bracket and its discretisation
  pld::EpsilonBracket sampler;            // the bracket of the sampler pair (its lower end is epsilon_lower_sampler)
  TruncationProbabilities probabilities;  // of the first phase
};

// One phase of training: its setting (one dataset size, cap and relation for all phases), noise
// multiplier and steps.
struct TruncatedPoissonPhase {
  TruncatedPoissonSetting setting;
  double noise_multiplier = 0;
  double steps = 0;
};

// ε at δ after the phases, each phase's pair composed its steps times. noise_multiplier > 0
// ("noise_multiplier"), steps a whole number in [1, 2^53] ("steps"), delta in (0, 1) ("delta"), each
// setting as check_truncated_poisson checks it; a phase's errors carry its index (Error::item). The
// PLD engine's errors come back as pld::epsilon_for_delta names them (on its items, the grid or
// delta). Progress: the analysis' composition, then the sampler pair's, unless `with_sampler_bound`
// is false (then `sampler` and epsilon_lower_sampler stay 0).
Result<TruncatedPoissonEpsilon> truncated_poisson_epsilon(const std::vector<TruncatedPoissonPhase>& phases,
                                                          double delta, const pld::AccountingOptions& options = {},
                                                          const pld::ProgressCallback& progress = {},
                                                          bool with_sampler_bound = true);

}  // namespace dpcalc::dpsgd
