#include "dpcalc/rdp/renyi_terms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::rdp {
namespace {

// log cosh t for t ≥ 0: log1p(2 sinh²(t/2)) up to t = 1 (within 6u relative), beyond
// t − log 2 + log1p(e^{−2t}) (within 4u(t + 1)); the error bound is returned in `error`.
double log_cosh(double t, double& error) {
  const double u = kUnitRoundoff;
  if (t <= 1) {
    const double half_sinh = std::sinh(t / 2);
    const double value = std::log1p(2 * half_sinh * half_sinh);
    error = 6 * u * value;
    return value;
  }
  const double value = t - 0.69314718055994530942 + std::log1p(std::exp(-2 * t));
  error = 4 * u * (t + 1);
  return value;
}

}  // namespace

double renyi_from_log_terms(const std::vector<double>& log_terms, double order) {
  constexpr double kUnit = std::numeric_limits<double>::epsilon() / 2;
  double total = kNegativeInfinity, largest = 0;
  for (double term : log_terms) {
    total = log_add_exp(total, term);
    if (std::isfinite(term)) largest = std::max(largest, std::fabs(term));
  }
  const double error = 64 * kUnit * largest + 8 * kUnit;
  // The sum moved up an ulp covers the rounding of the addition.
  const double raised = std::nextafter(total + error, kInfinity);
  return std::max(0.0, divide_up(raised, order - 1));
}

double pure_dp_renyi(double epsilon, double order) {
  const double u = kUnitRoundoff;
  if (!(epsilon >= 0 && order >= 1)) return kInfinity;
  if (epsilon == 0) return 0;
  if (order == kInfinity) return epsilon;
  if (order == 1) return std::min(std::nextafter(epsilon * std::tanh(epsilon / 2) * (1 + 8 * u), kInfinity), epsilon);
  // (α − ½)ε is within u relative (α − ½ is exact); log cosh moves by at most that times its
  // argument times its slope tanh t ≤ min(t, 1).
  double error_high = 0, error_low = 0;
  const double argument = (order - 0.5) * epsilon, half = epsilon / 2;
  const double high = log_cosh(argument, error_high), low = log_cosh(half, error_low);
  const double numerator = high - low + error_high + error_low + 2 * u * argument * std::min(argument, 1.0) +
                           2 * u * half * std::min(half, 1.0) + 2 * u * (std::fabs(high) + std::fabs(low));
  const double denominator = order <= 2 ? order - 1 : std::nextafter(order - 1, 0.0);
  return std::min(std::nextafter(divide_up(std::max(numerator, 0.0), denominator), kInfinity), epsilon);
}

}  // namespace dpcalc::rdp
