#include "dpcalc/rdp/bounded_range_rdp.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::rdp {
namespace {

struct BoundedRangeApprox {
  double value, error;
};

// ℓ(t) = log(sinh t / t) for t ≥ 0 and its error. Up to t = 2, log1p of sinh t/t − 1 =
// Σ_{k≥1} t^{2k}/(2k + 1)! (positive terms, each within (2k + 2)u; the rest below twice the first
// left out); beyond, t − log 2t + log1p(−e^{−2t}), within 4u(t + |log 2t| + 1).
BoundedRangeApprox log_sinhc(double t) {
  const double u = kUnitRoundoff;
  if (t == 0) return {0, 0};
  if (t <= 2) {
    const double square = t * t;
    double term = 1, sum = 0;
    int k = 1;
    for (;; ++k) {
      term *= square / ((2 * k) * (2 * k + 1));
      sum += term;
      if (term <= 0x1p-60 * sum) break;
    }
    const double relative = (2 * k + 4) * u + 2 * term / sum;
    const double value = std::log1p(sum);
    return {value, relative * sum / (1 + sum) + 2 * u * value};
  }
  const double value = t - std::log(2 * t) + std::log1p(-std::exp(-2 * t));
  return {value, 4 * u * (t + std::fabs(std::log(2 * t)) + 1)};
}

// t coth t − 1 for t ≥ 0 and its error: up to t = 2 as Σ_{k≥1} 2k t^{2k+1}/(2k + 1)! / sinh t
// (positive terms), beyond directly (at least 0.07, no cancellation).
BoundedRangeApprox coth_excess(double t) {
  const double u = kUnitRoundoff;
  if (t == 0) return {0, 0};
  if (t <= 2) {
    const double square = t * t;
    double power = t, sum = 0, term = 0;  // power = t^{2k+1}/(2k + 1)!
    int k = 1;
    for (;; ++k) {
      power *= square / ((2 * k) * (2 * k + 1));
      term = 2 * k * power;
      sum += term;
      if (term <= 0x1p-60 * sum) break;
    }
    const double value = sum / std::sinh(t);
    return {value, value * ((2 * k + 8) * u + 4 * term / sum)};
  }
  const double value = t / std::tanh(t) - 1;
  return {value, 8 * u * (value + 1)};
}

}  // namespace

double bounded_range_rdp(double epsilon, double order) {
  const double u = kUnitRoundoff;
  if (!(epsilon >= 0 && order >= 1)) return kInfinity;
  if (epsilon == 0) return 0;
  if (order == kInfinity) return epsilon;
  double value;
  if (order == 1) {
    const BoundedRangeApprox log_part = log_sinhc(epsilon / 2), coth_part = coth_excess(epsilon / 2);
    // The argument's rounding (u·t) moves ℓ and t coth t − 1 by at most u·t·min(t, 1) each (their
    // slopes coth t − 1/t ≤ min(t/3, 1) and coth t − t/sinh²t ≤ min(2t/3, 1)).
    const double t = epsilon / 2;
    value = log_part.value + coth_part.value + log_part.error + coth_part.error + 4 * u * t * std::min(t, 1.0) +
            2 * u * (log_part.value + coth_part.value);
  } else {
    const double order_minus_one = order - 1;
    const double t_order = order * epsilon / 2, t_one = epsilon / 2, t_minus = order_minus_one * epsilon / 2;
    const BoundedRangeApprox a = log_sinhc(t_order), b = log_sinhc(t_one), c = log_sinhc(t_minus);
    const double parts[3] = {order * a.value, b.value, order_minus_one * c.value};
    const double numerator = parts[0] - parts[1] - parts[2];
    // Each ℓ within its error plus 2u·t·min(t, 1) from its rounded argument (ℓ′(t) = coth t − 1/t ≤
    // min(t/3, 1)), the products and the two subtractions within u of their parts.
    const auto moved = [u](double t) { return 2 * u * t * std::min(t, 1.0); };
    const double error = order * (a.error + moved(t_order)) + b.error + moved(t_one) +
                         order_minus_one * (c.error + moved(t_minus)) +
                         4 * u * (std::fabs(parts[0]) + std::fabs(parts[1]) + std::fabs(parts[2]));
    const double denominator = order <= 2 ? order_minus_one : std::nextafter(order_minus_one, 0.0);
    value = divide_up(std::max(numerator + error, 0.0), denominator);
  }
  // Never above Cesar & Rogers's αε²/8 either (the same leading term; near α = 1 the cancellation of
  // the three ℓ leaves its rounding at about u/(α − 1) relative, which this caps).
  const double zcdp_curve = order == 1 ? kInfinity : multiply_up(order, multiply_up(epsilon, epsilon) / 8);
  return std::min({std::nextafter(value, kInfinity), epsilon, zcdp_curve});
}

}  // namespace dpcalc::rdp
