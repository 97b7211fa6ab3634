// Exact one-sided Clopper–Pearson bounds on a binomial proportion (Clopper & Pearson 1934). With k
// successes in n trials, X ~ Binomial(n, p), and significance a:
//   lower(k) = the p with Pr_p[X ≥ k] = a (0 when k = 0),  the Beta(k, n − k + 1) quantile at a;     (CP1)
//   upper(k) = the p with Pr_p[X ≤ k] = a (1 when k = n),  the Beta(k + 1, n − k) quantile at 1 − a. (CP2)
// For every p, Pr[lower(X) ≤ p] ≥ 1 − a and Pr[upper(X) ≥ p] ≥ 1 − a (the tails are monotone in p).
//
// How a returned value is made sound: Boost.Math's beta quantile gives a candidate, and the binomial
// tail at the candidate is evaluated independently (core/include/dpcalc/audit/binomial_terms.hpp,
// with a bound on its error), the candidate moving outward until the tail is certainly at most a.
// Where min(k, n − k) exceeds 2^24 the tail sum would be long and the candidate is instead solved
// from the Zubkov–Serov inequalities (Zubkov & Serov 2013, after Alfers & Dinges 1984), valid for
// every n, p and 0 ≤ k < n:
//   Φ(s(k)) ≤ Pr_p[X ≤ k] ≤ Φ(s(k + 1)),   s(j) = sign(j − np) √(2n H(j/n, p)),                    (ZS)
//   H(x, p) = x ln(x/p) + (1 − x) ln((1 − x)/(1 − p)),
// which give a bound within about one success of the exact one (a relative 1e-7 at such counts).
// The ends are closed forms: upper(0) = 1 − a^(1/n), lower(n) = a^(1/n). Above n/2 successes a bound
// is computed from the failures' bound on the other side, 1 − p, so that it keeps its precision near
// 1; a lower bound that lands below 1/2 that way (few trials, a tiny significance) is computed on its
// own side as well, and the larger of the two certified values returned.
#pragma once

#include <string>

#include "dpcalc/result.hpp"

namespace dpcalc::audit {

// Largest number of trials: consecutive whole numbers stop being doubles above 2^53.
inline constexpr double kMaxTrials = 9007199254740992.0;

// lower(k) of (CP1), rounded down (never above the exact value). successes and trials are whole
// numbers with 0 ≤ successes ≤ trials, 1 ≤ trials ≤ 2^53; significance in (0, 1/2]. An input
// outside these is an invalid_argument error on that parameter's name; a bound that could not be
// certified (not seen in testing) is a numeric error.
Result<double> clopper_pearson_lower(double successes, double trials, double significance);

// upper(k) of (CP2), rounded up (never below the exact value); the same inputs and errors.
Result<double> clopper_pearson_upper(double successes, double trials, double significance);

// Boost.Math's quantiles alone, for ranking many candidate thresholds quickly: close to (CP1) and
// (CP2) but NOT bounds (uncertified, and NaN where Boost fails). Same domain, unchecked.
double clopper_pearson_lower_estimate(double successes, double trials, double significance);
double clopper_pearson_upper_estimate(double successes, double trials, double significance);

// Checks shared by the audits: a whole number in [minimum, kMaxTrials] named `name` (the message
// says "The number of <what> must be ..."); a significance in (0, 1/2].
Result<double> check_audit_count(double value, double minimum, const std::string& name, const std::string& what);
Result<double> check_significance(double value, const std::string& name);

}  // namespace dpcalc::audit
