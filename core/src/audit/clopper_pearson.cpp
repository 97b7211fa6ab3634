#include "dpcalc/audit/clopper_pearson.hpp"

#include <algorithm>
#include <boost/math/special_functions/beta.hpp>
#include <cmath>
#include <cstdint>

#include "dpcalc/audit/binomial_terms.hpp"
#include "dpcalc/audit/normal_bounds.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::audit {
namespace {

// Above this many successes (or failures) on the smaller side the tail sum would take more than
// about 10^5 terms; the Zubkov–Serov bound is then within a relative 1e-7 of the exact one.
constexpr double kLargestSummedCount = 16777216;  // 2^24
// A certificate's tail sum never needs this many terms near a Clopper–Pearson bound (about
// 40 √k / z of them do); past it the candidate is treated as not certified.
constexpr std::int64_t kMaxCertificateTerms = 4000000;
constexpr int kMaxNudges = 200;

// ln a rounded down.
double log_down(double a) {
  const double value = std::log(a);
  return value - 2 * kUnitRoundoff * std::fabs(value) - 1e-300;
}

// An upper bound on ln Pr_p[X ≥ k] (upward) or ln Pr_p[X ≤ k] (downward); +inf when the tail sum
// did not finish (a candidate on the wrong side of k/n).
struct TailCheck {
  double log_upper;
  double relative_terms;  // the tail over its first term, Σ t_j / t_k (≥ 1)
};
TailCheck cp_tail_upper(double k, double n, double p, bool upward) {
  const SuccessProbability probability = SuccessProbability::exact(p);
  const BoundedLog log_pmf = binomial_log_pmf(k, n, probability);
  const TermSum sum = binomial_term_sum(k, n, probability, upward, kMaxCertificateTerms);
  if (!sum.complete || !std::isfinite(log_pmf.value)) return {kInfinity, 1};
  return {log_pmf.value + log_pmf.error + sum.log_sum.value + sum.log_sum.error, std::exp(sum.log_sum.value)};
}

// (CP1) for 1 ≤ k ≤ min(n/2, 2^24): Boost's quantile, moved down until Pr_p[X ≥ k] ≤ a is certain.
// The move is a Newton step in ln p from d ln Pr_p[X ≥ k] / d ln p = k Pr[X = k] / Pr[X ≥ k] =
// k / (relative terms). That slope grows as p falls (the relative terms shrink), so ln Pr is concave
// in ln p and the step lands at or past the bound, by little; a growing amount is added while the
// certificate still fails (its own error margin, or a slope computed too small).
Result<double> lower_by_tail_sum(double k, double n, double a) {
  const double log_a = log_down(a);
  double p = boost::math::ibeta_inv(k, n - k + 1, a);
  const double ceiling = std::nextafter(k / n, 0.0);
  if (std::isnan(p) || p > ceiling) p = ceiling;
  double growth = 0x1p-50;
  for (int attempt = 0; attempt < kMaxNudges; ++attempt) {
    if (!(p > 0)) return 0.0;
    const TailCheck tail = cp_tail_upper(k, n, p, true);
    if (tail.log_upper <= log_a) return p;
    const double newton = std::isfinite(tail.log_upper) ? (tail.log_upper - log_a) * tail.relative_terms / k : 0;
    p *= std::exp(-(newton + growth));
    growth *= 2;
  }
  return Error(kNumeric, "",
               "The Clopper–Pearson lower bound for " + format_number(k) + " of " + format_number(n) +
                   " could not be certified.");
}

// (CP2) for 1 ≤ k ≤ min(n/2, 2^24): Boost's quantile, moved up until Pr_p[X ≤ k] ≤ a is certain, by
// Newton steps in ln q (concave again): d ln Pr_p[X ≤ k] / d ln q = (n − k) / (relative terms).
Result<double> upper_by_tail_sum(double k, double n, double a) {
  const double log_a = log_down(a);
  double p = boost::math::ibetac_inv(k + 1, n - k, a);
  const double floor = std::nextafter(k / n, 1.0);
  if (std::isnan(p) || p < floor) p = floor;
  double growth = 0x1p-50;  // relative to p, which may be far below q
  for (int attempt = 0; attempt < kMaxNudges; ++attempt) {
    if (!(p < 1)) return 1.0;
    const TailCheck tail = cp_tail_upper(k, n, p, false);
    if (tail.log_upper <= log_a) return p;
    const double newton = std::isfinite(tail.log_upper) ? (tail.log_upper - log_a) * tail.relative_terms / (n - k) : 0;
    // q ↦ q e^−Δ, written p + q (1 − e^−Δ) so that a p near 0 keeps its digits.
    p += (1 - p) * -std::expm1(-newton) + p * growth;
    growth *= 2;
  }
  return Error(kNumeric, "",
               "The Clopper–Pearson upper bound for " + format_number(k) + " of " + format_number(n) +
                   " could not be certified.");
}

// A lower bound on n H(j/n, p) = bd0(j, np) + bd0(n − j, nq) (the M − x terms cancel as np + nq = n).
// np and nq are rounded (nq after 1 − p, within u of q ≥ 1/2 here): bd0 moves by |M − x| per unit of
// ln M, so 3u (|np − j| + |nq − (n − j)|), doubled for the second order, covers the inputs.
double zs_exponent_lower(double j, double n, double p) {
  const double q = 1 - p;
  const double expected_successes = n * p, expected_failures = n * q;
  const BoundedLog successes = binomial_deviance(j, expected_successes);
  const BoundedLog failures = binomial_deviance(n - j, expected_failures);
  const double input_error =
      6 * kUnitRoundoff * (std::fabs(expected_successes - j) + std::fabs(expected_failures - (n - j))) +
      4 * n * kUnitRoundoff * kUnitRoundoff;
  const double value = successes.value + failures.value;
  return value * (1 - 2 * kUnitRoundoff) - successes.error - failures.error - input_error;
}

// z²/2 rounded up, z = −Φ⁻¹(a) rounded up: the exponent a Zubkov–Serov bound must reach.
double zs_target(double a) {
  const double z = -normal_quantile_down(a);
  return 0.5 * z * z * (1 + 4 * kUnitRoundoff);
}

// (CP1) from (ZS) for large k ≤ n/2: with j = k − 1 and p < j/n, Pr_p[X ≥ k] = 1 − Pr_p[X ≤ j] ≤
// Φ(−√(2nH(j/n, p))), which is at most a once nH(j/n, p) ≥ z²/2. nH falls as p rises to j/n, so the
// largest such p is bisected over doubles, each end evaluated with the bound above.
double lower_by_zubkov_serov(double k, double n, double a) {
  const double j = k - 1, target = zs_target(a);
  double high = std::nextafter(j / n, 0.0);  // not (yet) certified
  // A start below the bound: p = j/n − (z + 2)√(j + 1)/n, widened until certified.
  double width = (std::sqrt(2 * target) + 2) * std::sqrt(j + 1) / n;
  double low = std::max(0.0, high - width);
  while (low > 0 && zs_exponent_lower(j, n, low) < target) {
    width *= 2;
    low = std::max(0.0, high - width);
  }
  if (!(low > 0)) return 0.0;
  for (int i = 0; i < 200 && std::nextafter(low, 1.0) < high; ++i) {
    const double middle = low + (high - low) / 2;
    if (zs_exponent_lower(j, n, middle) >= target) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return low;
}

// (CP2) from (ZS) for large k ≤ n/2: with j = k + 1 and p > j/n, Pr_p[X ≤ k] ≤ Φ(−√(2nH(j/n, p))).
double upper_by_zubkov_serov(double k, double n, double a) {
  const double j = k + 1, target = zs_target(a);
  double low = std::nextafter(j / n, 1.0);
  double width = (std::sqrt(2 * target) + 2) * std::sqrt(j + 1) / n;
  double high = std::min(1.0, low + width);
  while (high < 1 && zs_exponent_lower(j, n, high) < target) {
    width *= 2;
    high = std::min(1.0, low + width);
  }
  if (!(high < 1)) return 1.0;
  for (int i = 0; i < 200 && std::nextafter(low, 1.0) < high; ++i) {
    const double middle = low + (high - low) / 2;
    if (zs_exponent_lower(j, n, middle) >= target) {
      high = middle;
    } else {
      low = middle;
    }
  }
  return high;
}

// upper(0) = 1 − a^(1/n) = −expm1(ln(a)/n), rounded up: ln a and the quotient put a relative 3u on
// y = ln(a)/n, which moves −expm1(y) by at most 3u (1 + |y|) relative; expm1 adds an ulp.
double upper_for_no_successes(double n, double a) {
  const double y = std::log(a) / n;
  const double value = -std::expm1(y);
  return std::min(1.0, value * (1 + (3 * (1 + std::fabs(y)) + 4) * kUnitRoundoff) + 1e-300);
}

// lower(n) = a^(1/n) = e^(ln(a)/n), rounded down: ln a and the quotient put 3u relative on ln(a)/n.
double lower_for_all_successes(double n, double a) {
  const double y = std::log(a) / n;
  return tradeoff::exp_down(y, 3 * kUnitRoundoff * std::fabs(y));
}

Result<double> checked_lower(double k, double n, double a);

// (CP2) for checked inputs.
Result<double> checked_upper(double k, double n, double a) {
  if (k == n) return 1.0;
  if (k == 0) return upper_for_no_successes(n, a);
  if (k > n / 2) {
    // upper(k) = 1 − lower(n − k) for the failures, 1 − p.
    DPCALC_TRY(const double failures_lower, checked_lower(n - k, n, a));
    return tradeoff::one_minus_up(failures_lower);
  }
  if (k > kLargestSummedCount) return upper_by_zubkov_serov(k, n, a);
  return upper_by_tail_sum(k, n, a);
}

// (CP1) for checked inputs.
Result<double> checked_lower(double k, double n, double a) {
  if (k == 0) return 0.0;
  if (k > n / 2) {
    DPCALC_TRY(const double failures_upper, checked_upper(n - k, n, a));
    const double from_failures = tradeoff::one_minus_down(failures_upper);
    if (from_failures >= 0.5 || k > kLargestSummedCount) return from_failures;
    // Far below k/n (few trials, a tiny significance) 1 − upper(n − k) has lost its relative
    // precision to the absolute rounding near 1: the bound is computed on its own side as well.
    if (k == n) return std::max(from_failures, lower_for_all_successes(n, a));
    DPCALC_TRY(const double direct, lower_by_tail_sum(k, n, a));
    return std::max(from_failures, direct);
  }
  if (k > kLargestSummedCount) return lower_by_zubkov_serov(k, n, a);
  return lower_by_tail_sum(k, n, a);
}

struct CheckedCounts {
  double successes, trials, significance;
};
Result<CheckedCounts> check_cp_inputs(double successes, double trials, double significance) {
  DPCALC_TRY(const double n, check_audit_count(trials, 1, "trials", "trials"));
  DPCALC_TRY(const double k, check_audit_count(successes, 0, "successes", "successes"));
  if (k > n) {
    return invalid_argument("successes", "The number of successes must be at most the number of trials (got " +
                                             format_number(k) + " of " + format_number(n) + ").");
  }
  DPCALC_TRY(const double a, check_significance(significance, "significance"));
  return CheckedCounts{k, n, a};
}

}  // namespace

Result<double> check_audit_count(double value, double minimum, const std::string& name, const std::string& what) {
  if (!(value >= minimum && value <= kMaxTrials) || value != std::floor(value)) {
    return invalid_argument(name, "The number of " + what + " must be a whole number from " + format_number(minimum) +
                                      " to 2^53 " + got(value) + ".");
  }
  return value;
}

Result<double> check_significance(double value, const std::string& name) {
  if (!(value > 0 && value <= 0.5)) {
    return invalid_argument(name, "The significance must be above 0 and at most 1/2 " + got(value) + ".");
  }
  return value;
}

Result<double> clopper_pearson_lower(double successes, double trials, double significance) {
  DPCALC_TRY(const CheckedCounts checked, check_cp_inputs(successes, trials, significance));
  return checked_lower(checked.successes, checked.trials, checked.significance);
}

Result<double> clopper_pearson_upper(double successes, double trials, double significance) {
  DPCALC_TRY(const CheckedCounts checked, check_cp_inputs(successes, trials, significance));
  return checked_upper(checked.successes, checked.trials, checked.significance);
}

double clopper_pearson_lower_estimate(double successes, double trials, double significance) {
  if (successes == 0) return 0;
  if (successes > trials / 2) {
    const double from_failures = 1 - clopper_pearson_upper_estimate(trials - successes, trials, significance);
    if (!(from_failures < 0.5)) return from_failures;  // NaN passes on
  }
  return boost::math::ibeta_inv(successes, trials - successes + 1, significance);
}

double clopper_pearson_upper_estimate(double successes, double trials, double significance) {
  if (successes == trials) return 1;
  if (successes > trials / 2) {
    return 1 - clopper_pearson_lower_estimate(trials - successes, trials, significance);
  }
  return boost::math::ibetac_inv(successes + 1, trials - successes, significance);
}

}  // namespace dpcalc::audit
