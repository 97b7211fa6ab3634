// A lower bound on ε from one training run (Steinke, Nasr, Jagielski 2023, "Privacy Auditing with
// One (1) Training Run", NeurIPS; arXiv 2305.08846): m canaries are each included independently with
// probability 1/2, the auditor guesses inclusion or exclusion for r of them (abstaining on the rest)
// and v guesses are right. If the mechanism is (ε, δ)-DP, the (ε, δ) form of their main theorem bounds,
// for every v,
//   Pr[W ≥ v] ≤ f(v) + 2mδ · max_{1 ≤ i ≤ v} (f(v − i) − f(v)) / i,   f(u) = Pr[Binomial(r, q) ≥ u],  (O1)
// q = e^ε / (1 + e^ε), W the number of correct guesses (for ε-DP, δ = 0, W is stochastically dominated
// by Binomial(r, q)). The right side is the p-value p(ε) of the observation; i > v adds nothing, as
// f(u) = 1 for u ≤ 0. Any ε with p(ε) ≤ α = 1 − confidence is refuted at confidence 1 − α: if the
// mechanism were (ε, δ)-DP, it would be (ε′, δ)-DP for every ε′ ≥ ε and the observation would be a
// rejection of a true bound (O1), which happens with probability at most α.
//
// ε_lower is the largest ε found with p(ε) certainly at most α (each candidate's p-value evaluated as
// an upper bound: exact binomial sums with a bound on their floating-point error), by bisection
// between a refuted and a not refuted ε. p(ε) increases with ε for δ = 0 (f(v) does), and in every
// case we checked for δ > 0; should it not, the value returned is still one whose p-value was
// certified. It is a statistical lower bound, never a privacy guarantee: with probability at least
// `confidence` over the experiment, the mechanism is not (ε, δ)-DP for any ε below ε_lower.
#pragma once

#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::audit {

inline constexpr MethodInfo kOneRunAudit{"Lower bound on ε from one training run",
                                         "Steinke, Nasr, Jagielski 2023, main theorem with δ (arXiv 2305.08846)",
                                         "steinke2023privacy"};

// Largest number of guesses accepted: the exact tail sums visit up to r terms per candidate ε.
inline constexpr double kMaxOneRunGuesses = 1e7;

// The observation: whole numbers held in doubles with 1 ≤ canaries ≤ 2^53, 0 ≤ guesses ≤
// min(canaries, 10^7) (canaries the auditor did not abstain on), 0 ≤ correct ≤ guesses.
struct OneRunEvidence {
  double canaries = 0;
  double guesses = 0;
  double correct = 0;
};

struct OneRunAudit {
  double epsilon_lower = 0;  // finite, ≥ 0; 0 when even ε = 0 is not refuted
  double p_value_upper = 1;  // an upper bound on p(epsilon_lower); ≤ significance when epsilon_lower > 0
  double significance = 0;   // α = 1 − confidence, rounded down
};

// ε_lower at confidence in (0, 1) and delta in [0, 1). Errors: invalid_argument on "canaries",
// "guesses", "correct", "confidence" or "delta".
Result<OneRunAudit> audit_one_run(const OneRunEvidence& evidence, double confidence, double delta);

// An upper bound on the p-value p(ε) of (O1) (at most 1) for epsilon in [0, 64] and delta in [0, 1),
// for checked evidence; the same errors.
Result<double> one_run_p_value_upper(const OneRunEvidence& evidence, double epsilon, double delta);

}  // namespace dpcalc::audit
