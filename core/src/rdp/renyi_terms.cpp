#include "dpcalc/rdp/renyi_terms.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::rdp {

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
  // log e^{αε} − log(1 + e^ε) and log e^{(1−α)ε} − log(1 + e^ε), with log(1 + e^ε) = ε + log1p(e^{−ε}).
  const double log_norm = epsilon + std::log1p(std::exp(-epsilon));
  const double value = renyi_from_log_terms({order * epsilon - log_norm, (1 - order) * epsilon - log_norm}, order);
  return std::min(value, epsilon);
}

}  // namespace dpcalc::rdp
