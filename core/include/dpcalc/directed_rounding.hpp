// Products and quotients rounded up, for bounds that must never come out below the exact value:
// the fma recovers the exact rounding error of the operation (Boldo, Muller 2011, "Exact and
// approximated error of the FMA"), so exact results stay exact and the others move up one ulp.
#pragma once

#include <cmath>
#include <limits>

namespace dpcalc {

// a·b rounded up.
inline double multiply_up(double a, double b) {
  const double product = a * b;
  if (std::isfinite(product) && std::fma(a, b, -product) > 0) {
    return std::nextafter(product, std::numeric_limits<double>::infinity());
  }
  return product;
}

// a + b rounded up: TwoSum recovers the exact rounding error of the addition (Knuth 1998, TAOCP
// vol. 2, Thm 4.2.2B).
inline double add_up(double a, double b) {
  const double sum = a + b;
  if (!std::isfinite(sum)) return sum;
  const double b_part = sum - a;
  const double error = (a - (sum - b_part)) + (b - b_part);
  return error > 0 ? std::nextafter(sum, std::numeric_limits<double>::infinity()) : sum;
}

// a/b rounded up, for b > 0.
inline double divide_up(double a, double b) {
  const double quotient = a / b;
  if (std::isfinite(quotient) && std::fma(quotient, b, -a) < 0) {
    return std::nextafter(quotient, std::numeric_limits<double>::infinity());
  }
  return quotient;
}

}  // namespace dpcalc
