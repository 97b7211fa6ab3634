// Log-space helpers for quantities such as e^{k eps} - 1 that overflow a double long before the
// privacy statement they belong to stops being meaningful.
#pragma once

#include <boost/math/special_functions/log1p.hpp>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

namespace dpcalc {

inline constexpr double kInfinity = std::numeric_limits<double>::infinity();
inline constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();
// log sqrt(2 pi), to double precision.
inline constexpr double kLogSqrtTwoPi = 0.918938533204672741780329736406;

// log(e^a + e^b), exact for infinities.
inline double log_add_exp(double a, double b) {
  if (a < b) std::swap(a, b);
  if (b == kNegativeInfinity) return a;
  return a + std::log1p(std::exp(b - a));
}

// log(e^a - e^b) for a >= b; -inf when a == b.
inline double log_sub_exp(double a, double b) {
  if (b == kNegativeInfinity) return a;
  if (!(a > b)) return kNegativeInfinity;
  const double d = b - a;  // < 0
  // log(1 - e^d): choose the stable branch (Maechler 2012, "Accurately computing log(1 - exp(-|a|))").
  return a + (d > -0.6931471805599453 ? std::log(-std::expm1(d)) : std::log1p(-std::exp(d)));
}

// log of the binomial coefficient C(n, k), through lgamma (real n >= k >= 0).
inline double log_binomial(double n, double k) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

// log(e^x - 1) for x > 0, stable for tiny and huge x.
inline double log_expm1(double x) {
  if (x > 50) return x + std::log1p(-std::exp(-x));
  return std::log(std::expm1(x));
}

// log Pr[J = j] for J ~ Binomial(n, q), j = 0..n, q in (0, 1]: the recursion from
// Pr[J = 0] = (1 − q)^n by the ratio (n − j)/(j + 1) · q/(1 − q), in log space (n up to 10^5 keeps
// full relative accuracy where a product of factorials would overflow).
inline std::vector<double> binomial_log_pmf(std::size_t n, double q) {
  std::vector<double> log_pmf(n + 1, kNegativeInfinity);
  if (q == 1) {
    log_pmf[n] = 0;
    return log_pmf;
  }
  const double log_odds = std::log(q) - boost::math::log1p(-q);
  log_pmf[0] = static_cast<double>(n) * boost::math::log1p(-q);
  for (std::size_t j = 0; j < n; ++j) {
    log_pmf[j + 1] = log_pmf[j] + std::log(double(n - j) / double(j + 1)) + log_odds;
  }
  return log_pmf;
}

}  // namespace dpcalc
