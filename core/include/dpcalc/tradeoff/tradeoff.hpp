// Trade-off functions: what a privacy guarantee means to an attacker (Wasserman, Zhou 2010;
// Kairouz, Oh, Viswanath 2015; Dong, Roth, Su 2019, Def. 2.1). A membership test sees the output
// and says "in the data" or not. Let P be the output law with the record (or group), Q without it.
// A test phi has false-positive rate alpha = E_Q[phi] and true-positive rate TPR = E_P[phi]; the
// trade-off function is the smallest false-negative rate any test reaches at false-positive rate alpha:
//   f(alpha) = inf { 1 - E_P[phi] : E_Q[phi] <= alpha }         (TPR(alpha) = 1 - f(alpha))
// By Neyman-Pearson the best test rejects where the privacy loss L = log dP/dQ is largest.
// Every source in this domain reports, for the analysed mechanism, bounds that are sound for the
// data subject: the reported beta is at most the true f(alpha) (no attack does better than
// reported), and where a bracket exists beta_upper is at least it. From the curve follow the
// statements below (advantage, TPR at given FPRs, posterior, reconstruction).
#pragma once

#include <array>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/log_math.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/gdp_bound.hpp"

namespace dpcalc::tradeoff {

// At most this many values in each list of TradeoffOptions.
inline constexpr std::size_t kMaxRequestedPoints = 10000;

// The false-positive rates asked for when none are given.
inline constexpr std::array<double, 3> kDefaultRates = {1e-3, 1e-2, 1e-1};

struct TradeoffOptions {
  // False-positive rates at which beta is reported (each in [0, 1]; errors on "alphas").
  std::vector<double> alphas = std::vector<double>(kDefaultRates.begin(), kDefaultRates.end());
  // False-positive rates at which the largest TPR is reported (each in [0, 1]; errors on "fpr").
  std::vector<double> fprs = std::vector<double>(kDefaultRates.begin(), kDefaultRates.end());
  // Prior probability of membership (in (0, 1); errors on "prior"), for the posterior statements.
  std::optional<double> prior;
  // Success rates of a reconstruction attack that does not see the output (each in [0, 1]; errors
  // on "reconstruction_baselines"), for the reconstruction bounds.
  std::vector<double> reconstruction_baselines;
};

// Checks every option; errors are invalid_argument on the options named above (a value of a list
// with its index as Error::item).
Result<TradeoffOptions> check_options(const TradeoffOptions& options);

struct TprAtFpr {
  double fpr = 0;
  double tpr = 0;  // upper bound on the TPR of any test with false-positive rate at most fpr
};

struct PosteriorAtFpr {
  double fpr = 0;
  // Upper bound on the probability that a record the test flags is in the data, for a test with
  // false-positive rate fpr: prior TPR / (prior TPR + (1 - prior) fpr), with TPR at its bound.
  double posterior = 0;
};

struct Posterior {
  double prior = 0;
  // Upper bound on the largest posterior probability of membership that any test outcome can give
  // an attacker with this prior: sup over tests of prior TPR / (prior TPR + (1 - prior) alpha).
  // It is 1 whenever the privacy loss is unbounded or delta > 0 (the supremum is approached by
  // tests that almost never fire); at_fpr says what tests of a given FPR can reach.
  double max_posterior = 0;
  std::vector<PosteriorAtFpr> at_fpr;  // one per TradeoffOptions::fprs
};

// A reconstruction attack (any guess of the target's record from the output) whose success rate
// without the output is at most `baseline` succeeds with probability at most 1 - f(baseline), the
// blow-up of the baseline under the trade-off (Hayes, Mahloujifar, Balle 2023).
struct ReconstructionBound {
  double baseline = 0;
  double max_success = 0;
};

// The curve for plotting: kCurvePoints false-positive rates, 0, then log-spaced from 1e-9 to 1e-2
// (16 per decade), then linear in steps of 0.01 up to 1: a receiver operating characteristic
// (TPR = 1 - beta against FPR = alpha) reads well on linear and on log axes.
inline constexpr std::size_t kCurvePoints = 213;
struct TradeoffCurve {
  std::vector<double> alpha;
  std::vector<double> beta;        // lower bounds on f(alpha) (sound)
  std::vector<double> tpr;         // upper bounds on 1 - f(alpha), kept apart for log axes near 0
  std::vector<double> beta_upper;  // upper bounds on f(alpha); empty when the source has no bracket
};

struct TradeoffResult {
  std::vector<double> alphas;      // as requested
  std::vector<double> beta;        // one per alpha: lower bound on f(alpha) (sound)
  std::vector<double> beta_upper;  // one per alpha, or empty when the source has no bracket
  TradeoffCurve curve;
  // Upper bound on the largest advantage TPR - FPR of any test, max_alpha (1 - alpha - f(alpha)):
  // the total variation distance between P and Q, delta(0) of the privacy profile.
  double advantage = 0;
  std::vector<TprAtFpr> tpr_at_fpr;  // one per TradeoffOptions::fprs
  std::optional<double> mu;          // present when the answer is exactly mu-GDP
  // The smallest μ for which the answer is μ-GDP, bounded from above (gdp_bound.hpp): mu itself where
  // the answer is exactly μ-GDP; else from the source's profile, or none with the reason.
  GdpBound gdp;
  std::optional<Posterior> posterior;               // present when a prior was given
  std::vector<ReconstructionBound> reconstruction;  // one per reconstruction baseline
  // True when the guarantee promises nothing: some test reaches TPR 1 at every FPR (advantage 1).
  bool vacuous = false;
  MethodInfo method{"", "", ""};
  // Present for answers from privacy loss distributions: the grid they were computed on.
  std::optional<pld::Discretization> discretization;
};

// What a source knows about its curve, at increasing false-positive rates.
struct TprBounds {
  std::vector<double> upper;  // upper[i] >= 1 - f(alphas[i]) of the analysed mechanism (sound)
  std::vector<double> lower;  // empty, or lower[i] <= 1 - f(alphas[i]) (the other side of a bracket)
  // An upper bound on the advantage found on the way (CurveSource::advantage when the source knows
  // it only after evaluating); the smaller of the two is reported.
  double advantage = 1;
};

// A source of trade-off bounds, as used by summarize().
struct CurveSource {
  // Bounds at `alphas` (increasing, each in [0, 1]).
  std::function<TprBounds(const std::vector<double>& alphas)> evaluate;
  double advantage = 1;                 // upper bound on max_alpha (TPR(alpha) - alpha)
  double likelihood_ratio = kInfinity;  // upper bound on sup_alpha TPR(alpha) / alpha
  std::optional<double> mu;
  MethodInfo method{"", "", ""};
};

// A point of the plotted curve: a false-positive rate and an upper bound on the TPR there.
struct CurvePoint {
  double alpha = 0;
  double tpr = 0;
};

// Adds points (each a sound upper bound on the TPR at its alpha, in [0, 1]) to the plotted curve,
// where an alpha is already plotted raising its TPR to at least the point's, and keeps the curve
// nondecreasing by raising the TPR that follows (raising an upper bound keeps it one). beta_upper
// at a new alpha is that of the plotted alpha below it (f decreases).
void include_points(TradeoffResult& result, const std::vector<CurvePoint>& points);

// The trade-off against a mechanism that is one of several (the footprints a person may have across
// databases): no test does better against any of them than against the worst at its own
// false-positive rate, so beta is the pointwise minimum (Dong, Roth, Su 2019, Def. 2.1, applied to
// each), beta_upper the minimum of those given, and every statement the largest. `mu` stays when
// every one is exactly mu-GDP (G_mu decreases in mu: the largest). `method` and `discretization`
// are the first's: the caller names the combination. All must come from the same options; at least
// one.
TradeoffResult pointwise_worst(const std::vector<TradeoffResult>& results);

// Evaluates the source once at every false-positive rate the result needs (curve, alphas, fprs,
// baselines) and derives the statements. `options` must have passed check_options.
TradeoffResult summarize(const CurveSource& source, const TradeoffOptions& options);

}  // namespace dpcalc::tradeoff
