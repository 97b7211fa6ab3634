#include "dpcalc/audit/binomial_terms.hpp"

#include <boost/math/special_functions/log1p.hpp>
#include <cmath>

#include "dpcalc/floating_point.hpp"

namespace dpcalc::audit {
namespace {

constexpr double kHalfLogTwoPi = 0.918938533204672741780329736406;
constexpr double kLogTwoPi = 1.83787706640934548356065947281;

// Stirling's remainder s(x) = ln x! − (x + ½) ln x + x − ½ ln 2π for whole x ≥ 1, within ±error.
// Above 15 its asymptotic series (Loader 2000): the series alternates and each partial sum is within
// the first omitted term, below 1e-17 at the cut-offs used; 8u covers the evaluation. At most 15 the
// definition itself: x! ≤ 15! is an exact double, each logarithm is within an ulp, and the terms are
// below 50, so 16u times their sizes covers the sum.
BoundedLog stirling_remainder(double x) {
  constexpr double kS0 = 1.0 / 12, kS1 = 1.0 / 360, kS2 = 1.0 / 1260, kS3 = 1.0 / 1680, kS4 = 1.0 / 1188;
  if (x > 15) {
    const double x2 = x * x;
    double value;
    if (x > 500) {
      value = (kS0 - kS1 / x2) / x;
    } else if (x > 80) {
      value = (kS0 - (kS1 - kS2 / x2) / x2) / x;
    } else if (x > 35) {
      value = (kS0 - (kS1 - (kS2 - kS3 / x2) / x2) / x2) / x;
    } else {
      value = (kS0 - (kS1 - (kS2 - (kS3 - kS4 / x2) / x2) / x2) / x2) / x;
    }
    return {value, 8 * kUnitRoundoff * value + 1e-17};
  }
  double factorial = 1;
  for (double i = 2; i <= x; ++i) factorial *= i;
  const double log_factorial = std::log(factorial);
  const double power = (x + 0.5) * std::log(x);
  return {log_factorial - power + x - kHalfLogTwoPi, 16 * kUnitRoundoff * (log_factorial + power + x + 1)};
}

}  // namespace

// Near x = M the series bd0 = (x − M) v + 2x (v³/3 + v⁵/5 + …) with v = (x − M)/(x + M): x − M is exact there
// (Sterbenz: M is within a factor 1.23 of x), every term has the sign of the first or is below
// 7% of it, and the loop stops when a term no longer changes the sum, so 12u relative covers it.
// Elsewhere the three terms cancel at most tenfold: 4u times their sizes.
BoundedLog binomial_deviance(double x, double M) {
  if (x == 0) return {M, kUnitRoundoff * M};
  const double difference = x - M;
  const double total = x + M;
  if (std::fabs(difference) < 0.1 * total) {
    const double v = difference / total;
    const double v2 = v * v;
    double sum = difference * v;
    double term = 2 * x * v;
    for (int j = 1; j < 40; ++j) {
      term *= v2;
      const double next = sum + term / (2 * j + 1);
      if (next == sum) break;
      sum = next;
    }
    return {sum, 12 * kUnitRoundoff * std::fabs(sum) + 1e-300};
  }
  const double log_part = x * std::log(x / M);
  return {log_part - difference, 4 * kUnitRoundoff * (std::fabs(log_part) + x + M) + 1e-300};
}

SuccessProbability SuccessProbability::exact(double p) {
  SuccessProbability probability;
  probability.p = p;
  // 1 − p is exact for p ≥ 1/2 (Sterbenz) and within u of q ≥ 1/2 otherwise.
  probability.q = 1 - p;
  probability.log_p = std::log(p);
  probability.log_q = boost::math::log1p(-p);
  probability.odds = p / probability.q;
  // q within u, each logarithm within an ulp of its (possibly perturbed) argument, the odds within
  // two roundings of the exact quotient: 4u covers each of them.
  probability.relative_error = 4 * kUnitRoundoff;
  return probability;
}

SuccessProbability SuccessProbability::logistic(double epsilon) {
  SuccessProbability probability;
  const double growth = std::exp(epsilon);  // within an ulp: the odds e^ε
  const double decay = std::exp(-epsilon);
  probability.odds = growth;
  probability.p = 1 / (1 + decay);
  probability.q = 1 / (1 + growth);
  probability.log_p = -boost::math::log1p(decay);
  probability.log_q = -boost::math::log1p(growth);
  // Each is a few roundings of a quantity within 2u: 6u covers each.
  probability.relative_error = 6 * kUnitRoundoff;
  return probability;
}

BoundedLog binomial_log_pmf(double k, double n, const SuccessProbability& probability) {
  const double e = probability.relative_error;
  if (k == 0) {
    const double value = n * probability.log_q;
    return {value, (e + 2 * kUnitRoundoff) * std::fabs(value)};
  }
  if (k == n) {
    const double value = n * probability.log_p;
    return {value, (e + 2 * kUnitRoundoff) * std::fabs(value)};
  }
  const double expected_successes = n * probability.p;
  const double expected_failures = n * probability.q;
  const BoundedLog s_n = stirling_remainder(n);
  const BoundedLog s_k = stirling_remainder(k);
  const BoundedLog s_rest = stirling_remainder(n - k);
  const BoundedLog d_successes = binomial_deviance(k, expected_successes);
  const BoundedLog d_failures = binomial_deviance(n - k, expected_failures);
  const double log_n = std::log(n), log_k = std::log(k), log_rest = std::log(n - k);
  const double half_log = 0.5 * (log_n - kLogTwoPi - log_k - log_rest);
  const double value = s_n.value - s_k.value - s_rest.value - d_successes.value - d_failures.value + half_log;
  // bd0(x, M) moves by (M − x) per unit of ln M, so the inputs' relative error e (and the product's
  // rounding u) moves (B1) by at most (|np − k| + |nq − (n − k)|)(e + u) to first order and by
  // n (e + u)² to second order (doubled). The final sum and the logarithms add 8u of the terms' sizes.
  const double input_error =
      2 * (e + kUnitRoundoff) * (std::fabs(expected_successes - k) + std::fabs(expected_failures - (n - k))) +
      2 * n * (e + kUnitRoundoff) * (e + kUnitRoundoff);
  const double rounding = 8 * kUnitRoundoff *
                          (std::fabs(s_n.value) + std::fabs(s_k.value) + std::fabs(s_rest.value) + d_successes.value +
                           d_failures.value + std::fabs(log_n) + std::fabs(log_k) + std::fabs(log_rest) + kLogTwoPi);
  return {value, s_n.error + s_k.error + s_rest.error + d_successes.error + d_failures.error + input_error + rounding};
}

TermSum binomial_term_sum(double k, double n, const SuccessProbability& probability, bool upward,
                          std::int64_t max_terms) {
  // Terms relative to Pr[X = k], scaled by 2^-(600 · rescalings) whenever they grow past 2^600.
  constexpr double kRescale = 0x1p-600;
  constexpr double kRescaleLog = 600 * 0.693147180559945309417232121458;
  constexpr double kNegligible = 0x1p-60;
  const double odds = upward ? probability.odds : 1 / probability.odds;
  // Each ratio (B2) is one division, one product and the odds (its own error plus the inversion);
  // each term one more product: per term at most 4u + e of relative error, accumulated over the terms.
  const double step_error = 4 * kUnitRoundoff + probability.relative_error;
  double term = 1, sum = 1, j = k;
  int rescalings = 0;
  TermSum result;
  for (;;) {
    const bool last = upward ? j >= n : j <= 0;
    if (last) break;
    const double ratio = upward ? (n - j) / (j + 1) * odds : j / (n - j + 1) * odds;
    // The exact ratio is at most ratio (1 + step_error) (1 + 4u); the later ones are smaller still.
    const double ratio_bound = ratio * (1 + step_error + 4 * kUnitRoundoff);
    if (ratio_bound < 1) {
      const double rest = term * ratio_bound / (1 - ratio_bound);
      if (rest <= kNegligible * sum) {
        sum += rest * (1 + 8 * kUnitRoundoff);
        break;
      }
    }
    if (result.terms >= max_terms) {
      result.complete = false;
      break;
    }
    term *= ratio;
    sum += term;
    j += upward ? 1 : -1;
    ++result.terms;
    if (term > 0x1p600) {
      term *= kRescale;
      sum *= kRescale;
      ++rescalings;
    }
  }
  // Relative error of the sum: each term within (terms) · step_error, the additions within terms · u,
  // the geometric rest within 2^-60 of the sum; the slack covers the second-order products (the
  // first-order error is below 1e-3 for the at most 10^8 terms callers allow).
  const double relative_error =
      (static_cast<double>(result.terms) * (step_error + kUnitRoundoff) + 2 * kNegligible) * (1 + kBoundSlack) +
      2 * kUnitRoundoff;
  result.log_sum.value = std::log(sum) + rescalings * kRescaleLog;
  // ln(1 + x) ≤ x; the logarithm itself adds an ulp of its value.
  result.log_sum.error = relative_error + 2 * kUnitRoundoff * std::fabs(result.log_sum.value) + 2 * kUnitRoundoff;
  return result;
}

}  // namespace dpcalc::audit
