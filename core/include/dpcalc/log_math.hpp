// Log-space helpers for quantities such as e^{k eps} - 1 that overflow a double long before the
// privacy statement they belong to stops being meaningful.
#pragma once

#include <cmath>
#include <limits>
#include <utility>

namespace dpcalc {

inline constexpr double kNegativeInfinity = -std::numeric_limits<double>::infinity();

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

// log(e^x - 1) for x > 0, stable for tiny and huge x.
inline double log_expm1(double x) {
  if (x > 50) return x + std::log1p(-std::exp(-x));
  return std::log(std::expm1(x));
}

}  // namespace dpcalc
