// Outward rounding for the trade-off bounds. With unit roundoff u, an expression of n additions,
// multiplications and divisions of nonnegative doubles has relative error at most n u (1 + O(n u))
// (Higham 2002, Lemma 3.1), and libm's exp, log, expm1 and log1p are within one ulp (2u relative).
// The helpers move a computed value past the exact value of its expression, given such a count, so
// that an upper bound stays above and a lower bound below; two more units cover the helper's own
// multiplication and the O(n u) term while n u is small (n below 10^6 here).
#pragma once

#include <cmath>

namespace dpcalc::tradeoff {

inline constexpr double kUnit = 0x1p-53;  // unit roundoff of double

// value (>= 0) computed with relative error at most `units` u, rounded up / down.
inline double round_up(double value, double units) { return value * (1 + (units + 2) * kUnit); }
inline double round_down(double value, double units) { return value * (1 - (units + 2) * kUnit); }

// 1 - p for p in [0, 1], rounded down / up: the rounding error of 1 - p is exactly
// (1 - s) - p (Fast2Sum, Dekker 1971, as |1| >= |p|), so the result moves one ulp only when inexact.
inline double one_minus_down(double p) {
  const double s = 1 - p;
  return (1 - s) - p < 0 ? std::nextafter(s, 0.0) : s;
}
inline double one_minus_up(double p) {
  const double s = 1 - p;
  return (1 - s) - p > 0 ? std::nextafter(s, 2.0) : s;
}

// e^x for an argument x known within +-error (absolute), rounded up / down: the argument is moved
// outward (its own rounding covered by 2u |x|), then libm's ulp; two subnormal ulps cover results
// in the subnormal range, where one ulp is not relative (and an upper bound of e^x is never 0).
inline constexpr double kSubnormalUlp = 4.9406564584124654e-324;
inline double exp_up(double x, double error) {
  return round_up(std::exp(x + error + 2 * kUnit * std::fabs(x)), 2) + 2 * kSubnormalUlp;
}
inline double exp_down(double x, double error) {
  const double value = round_down(std::exp(x - error - 2 * kUnit * std::fabs(x)), 2) - 2 * kSubnormalUlp;
  return value > 0 ? value : 0.0;
}

}  // namespace dpcalc::tradeoff
