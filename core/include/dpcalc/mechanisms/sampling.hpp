// How a subsample (or a batch) is drawn from the records, and how many of a group of k records it
// holds: the one model of sampling that the sampling wrappers (poisson_subsampled,
// sampled_without_replacement: subsampled.hpp), the batch samplers of DP-SGD (dpsgd/samplers.hpp)
// and the group transforms (sampled_group.hpp, dpsgd/group_pair.hpp) share.
//  * Poisson: each record independently with probability q; of a group of k, J ~ Binomial(k, q).
//  * Without replacement: m of the n records, uniformly; one record with probability m/n, and of a
//    group of k, J ~ Hypergeometric(n, k, m).
#pragma once

#include <vector>

namespace dpcalc::mechanisms {

enum class Draw { kPoisson, kWithoutReplacement };

struct SampleDraw {
  Draw draw = Draw::kPoisson;
  double rate = 0;         // Poisson: q in (0, 1]
  double population = 0;   // without replacement: n, a whole number >= 1
  double sample_size = 0;  // without replacement: m, a whole number in [1, n]

  static SampleDraw poisson(double q) { return {Draw::kPoisson, q, 0, 0}; }
  static SampleDraw without_replacement(double n, double m) { return {Draw::kWithoutReplacement, 0, n, m}; }
};

// The probability that one record is in the sample, rounded up (q, or m/n).
double inclusion_rate(const SampleDraw& draw);

// log Pr[J = j], j = 0..k, for the number J of a group of k records (a whole number >= 1; at most n
// without replacement) in the sample; -infinity outside the support. Poisson: the binomial recursion;
// without replacement: Pr[J = 0] = prod_{i<k} (1 - m/(n - i)) (each factor by log1p), or, when
// s = n - m < k records are left out, Pr[J = k - s] = prod_{i<s} (k - i)/(n - i), and the ratio
// Pr[J = j+1]/Pr[J = j] = (k - j)(m - j) / ((j + 1)(n - k - m + j + 1)), so that n = 10^9 and
// k = 1000 keep full relative accuracy (no difference of huge log-factorials).
std::vector<double> group_inclusion_log_pmf(const SampleDraw& draw, double group_size);

}  // namespace dpcalc::mechanisms
