// How DP-SGD draws its batches, and what is known about the privacy of each way, as data: one
// SamplerAnalysis per sampler says which neighbouring relations its analysis covers, whether its
// upper bound is proven, whether a lower bound and a group analysis exist, and the methods and
// citations a result names (docs/samplers.md restates the math).
//
// Notation: N examples, batch size B (expected batch size for the Poisson samplers), T steps, E
// epochs, noise multiplier σ (noise standard deviation over the clipping norm, which is 1).
// Relations between neighbouring datasets D, D' (both of N examples):
//  * zero-out: one example of D replaced in D' by one whose clipped gradient is 0 (dp_accounting's
//    REPLACE_SPECIAL). It takes part in sampling as any example does. Under Poisson sampling it has
//    the add/remove pair; under samplers with a fixed batch size it does not.
//  * substitute: one example replaced by any other (replace-one); the sum of gradients moves by up to
//    Δ = 2 when the replaced example is in the batch.
#pragma once

#include <cstddef>

#include "dpcalc/method_info.hpp"

namespace dpcalc::dpsgd {

enum class SamplerRelation { kZeroOut, kSubstitute };

enum class SamplerKind {
  kPoisson,           // every example in each batch independently with probability q
  kFixedBatch,        // B of the N examples without replacement, each step independently
  kTruncatedPoisson,  // Poisson, then a batch above max_batch_size cut to a uniform subset of that size
  kCyclicPoisson,     // the data in b bands used in turn, Poisson at rate q inside the band used
  kShuffle,           // one permutation per epoch (or one for all epochs), batches its consecutive slices
};

struct SamplerAnalysis {
  SamplerKind kind;
  const char* name;   // the sampler's name, e.g. "truncated_poisson"
  const char* title;  // a few words for people
  bool zero_out;      // the analysis covers the zero-out relation
  bool substitute;    // the analysis covers the substitute relation
  // The upper bound is a theorem for every input the analysis accepts (false: a pair the analysis
  // assumes is the worst case, or a bound shown not to hold; `note` says which).
  bool upper_bound_proven;
  bool has_lower_bound;     // a lower bound on the sampler's ε exists (a pair its gradients can produce)
  bool has_group_analysis;  // an upper bound for groups of k examples exists
  MethodInfo upper;         // the upper bound's method and citation
  MethodInfo lower;         // the lower bound's ({"", "", ""} when none)
  MethodInfo group;         // the group upper bound's ({"", "", ""} when none)
  const char* note;         // what a reader must know beside the numbers ("" when nothing)
};

inline constexpr MethodInfo kNoMethod{"", "", ""};

inline constexpr MethodInfo kPoissonUpperMethod{
    "Poisson-subsampled Gaussian composed with privacy loss distributions",
    "Zhu, Dong, Wang 2022, Thm 11; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "zhu2022optimal doroshenko2022connect"};
inline constexpr MethodInfo kPoissonLowerMethod{
    "The same pair's optimistic privacy loss distribution (the pair is attained by clipped gradients)",
    "Zhu, Dong, Wang 2022, Thm 11; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "zhu2022optimal doroshenko2022connect"};
inline constexpr MethodInfo kPoissonGroupMethod{
    "The group's worst-case Gaussian mixture composed with privacy loss distributions",
    "Schuchardt, Stoian, Kosmala, Günnemann 2024", "schuchardt2024unified"};
inline constexpr MethodInfo kFixedBatchMethod{"Sommer's hypergeometric Gaussian mixture, assumed the worst case",
                                              "Sommer 2021", "sommer2021group"};
inline constexpr MethodInfo kTruncatedPoissonUpperMethod{
    "Truncated Poisson sampling: the Poisson pair and a two-sided pair of the truncated batch, mixed by the "
    "probability of truncation, composed with privacy loss distributions",
    "Ganesh 2025 (arXiv 2508.15089); Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "ganesh2025tighter doroshenko2022connect"};
inline constexpr MethodInfo kTruncatedPoissonLowerMethod{
    "Truncated Poisson sampling: one example of gradient 1 among gradients 0, a Poisson-subsampled Gaussian at "
    "the truncated sampler's inclusion probability (optimistic privacy loss distribution)",
    "Ganesh 2025 (arXiv 2508.15089); Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "ganesh2025tighter doroshenko2022connect"};
inline constexpr MethodInfo kCyclicPoissonMethod{
    "Cyclic Poisson sampling: Poisson DP-SGD over the ⌈T/b⌉ steps that use one band",
    "Choquette-Choo, Ganesh, McKenna, McMahan, Rush, Thakurta, Xu 2023, Thms 4–5", "choquettechoo2023amplified"};
inline constexpr MethodInfo kShuffleUpperMethod{
    "Shuffling without amplification: each epoch uses each example at most once, E Gaussian uses "
    "(μ = √E·Δ/σ), exact analytic Gaussian",
    "Balle, Wang 2018, Thm 8; Dong, Roth, Su 2019, Cor 3.3", "balle2018improving dong2019gaussian"};
inline constexpr MethodInfo kShuffleLowerMethod{
    "Shuffling, lower bound: the Gaussian mixtures over the hidden batch, post-processed to their largest "
    "coordinate",
    "Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha, Zhang 2024 (ICML; NeurIPS)", "chua2024private chua2024scalable"};
inline constexpr MethodInfo kShuffleGroupMethod{
    "Shuffling without amplification for a group of k: all k in one batch, μ = √E·k·Δ/σ, exact analytic Gaussian",
    "Balle, Wang 2018, Thm 8; Dong, Roth, Su 2019, Cor 3.3", "balle2018improving dong2019gaussian"};

inline constexpr SamplerAnalysis kSamplerAnalyses[] = {
    {SamplerKind::kPoisson, "poisson", "Poisson sampling", true, true, true, true, true, kPoissonUpperMethod,
     kPoissonLowerMethod, kPoissonGroupMethod, ""},
    {SamplerKind::kFixedBatch, "fixed_batch", "Fixed batches drawn without replacement", true, true, false, false, true,
     kFixedBatchMethod, kNoMethod, kFixedBatchMethod,
     "The pair of Sommer 2021 is assumed to be the worst case, not proven. Under zero-out it is not: with the other "
     "gradients at −1 and the example's at +1, the step's pair is (1−B/N)·N(0, σ²) + (B/N)·N(2, σ²) against "
     "(1−B/N)·N(0, σ²) + (B/N)·N(1, σ²), whose δ(ε) exceeds the assumed pair's (docs/samplers.md)."},
    {SamplerKind::kTruncatedPoisson, "truncated_poisson", "Truncated Poisson sampling", true, true, true, true, false,
     kTruncatedPoissonUpperMethod, kTruncatedPoissonLowerMethod, kNoMethod,
     "The lower bound is of the sampler (a pair its clipped gradients produce), not of the analysis; the "
     "analysis' own optimistic bound is a lower bound on its dominating pair only."},
    {SamplerKind::kCyclicPoisson, "cyclic_poisson", "Cyclic Poisson sampling", true, true, true, true, false,
     kCyclicPoissonMethod, kCyclicPoissonMethod, kNoMethod, ""},
    {SamplerKind::kShuffle, "shuffle", "Shuffling (persistent or re-shuffled each epoch)", true, true, true, true, true,
     kShuffleUpperMethod, kShuffleLowerMethod, kShuffleGroupMethod,
     "No amplification by shuffling is proven for DP-SGD: the upper bound is that of a Gaussian used once per "
     "epoch. Under substitute the lower bound uses the target's gradient +1 against −1 with the others at −1 "
     "(scaling the zero-out pair by 2 is not a pair clipped gradients produce)."},
};

inline constexpr std::size_t kSamplerCount = sizeof(kSamplerAnalyses) / sizeof(kSamplerAnalyses[0]);

// The analysis of `kind` (every kind has one entry).
constexpr const SamplerAnalysis& sampler_analysis(SamplerKind kind) {
  std::size_t i = 0;
  while (i + 1 < kSamplerCount && kSamplerAnalyses[i].kind != kind) ++i;
  return kSamplerAnalyses[i];
}

// The analysis of the sampler named `name` (SamplerAnalysis::name), or nullptr.
const SamplerAnalysis* find_sampler_analysis(const char* name);

}  // namespace dpcalc::dpsgd
