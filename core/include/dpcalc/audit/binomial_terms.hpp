// Binomial probabilities with a bound on their floating-point error, for the audits' certificates.
// For X ~ Binomial(n, p), q = 1 − p and 0 < k < n, Loader's saddle-point form (Loader 2000, "Fast
// and accurate computation of binomial probabilities") keeps full relative accuracy for every n up
// to 2^53, where a quotient of factorials or lgamma differences loses all digits:
//   ln Pr[X = k] = s(n) − s(k) − s(n − k) − bd0(k, np) − bd0(n − k, nq) + ½ ln(n / (2π k (n − k))),   (B1)
// with Stirling's remainder s(x) = ln x! − (x + ½) ln x + x − ½ ln 2π and the deviance
// bd0(x, M) = x ln(x/M) + M − x ≥ 0. Tails are sums of the terms next to k by the ratio of neighbours,
//   Pr[X = j + 1] / Pr[X = j] = (n − j)/(j + 1) · p/q,                                                 (B2)
// which decreases in j, so once it is below 1 the rest is at most a geometric series.
#pragma once

#include <cstdint>

namespace dpcalc::audit {

// The success probability of the binomial in the forms the terms need, each within a relative error
// `relative_error` of the exact value it stands for (p, q = 1 − p, ln p, ln q, and odds = p/q).
struct SuccessProbability {
  double p = 0.5;
  double q = 0.5;
  double log_p = 0;
  double log_q = 0;
  double odds = 1;
  double relative_error = 0;

  // p itself is exact (a Clopper–Pearson candidate): p in (0, 1).
  static SuccessProbability exact(double p);
  // p = e^ε / (1 + e^ε), the accuracy of ε-DP randomized response (a one-run audit): ε in [0, 700].
  static SuccessProbability logistic(double epsilon);
};

// A natural logarithm known within ±error.
struct BoundedLog {
  double value = 0;
  double error = 0;
};

// bd0(x, M) = x ln(x/M) + M − x ≥ 0 for a whole x ≥ 0 and M > 0 (Loader 2000), within ±error: the
// series near x = M, the definition elsewhere. Its error from M's own is the caller's: bd0 moves by
// (M − x) per unit of ln M.
BoundedLog binomial_deviance(double x, double M);

// ln Pr[X = k] for whole numbers 0 ≤ k ≤ n ≤ 2^53, by (B1) (ln q^n or ln p^n at the ends), with a
// bound on its error that includes the effect of the inputs' relative error.
BoundedLog binomial_log_pmf(double k, double n, const SuccessProbability& probability);

// Σ_j Pr[X = j] / Pr[X = k] over j ≥ k (upward) or j ≤ k (downward), by (B2) with the rest bounded by a
// geometric series once the ratio is below 1 (rounded up: never below the exact sum; the error bound
// covers every rounding). Terms are rescaled by powers of two, so a sum far beyond the double range is
// still returned as its logarithm. `complete` is false when more than `max_terms` terms were needed;
// the value is then a partial sum (a lower bound) and `error` is meaningless.
struct TermSum {
  BoundedLog log_sum;
  std::int64_t terms = 0;
  bool complete = true;
};
TermSum binomial_term_sum(double k, double n, const SuccessProbability& probability, bool upward,
                          std::int64_t max_terms);

}  // namespace dpcalc::audit
