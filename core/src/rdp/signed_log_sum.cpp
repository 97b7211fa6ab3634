#include "dpcalc/rdp/signed_log_sum.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/floating_point.hpp"

namespace dpcalc::rdp {
namespace {

// γ_n = nu/(1 − nu), rounded up generously (n below 2^40 here).
double gamma_bound(std::size_t n) {
  const double nu = static_cast<double>(n + 1) * kUnitRoundoff;
  return nu / (1 - nu) * (1 + 1e-12);
}

double move_up(double value, int ulps) {
  for (int i = 0; i < ulps; ++i) value = std::nextafter(value, kInfinity);
  return value;
}

}  // namespace

void SignedLogSum::add(double log_magnitude, bool negative, double log_error) {
  entries_.push_back({log_magnitude, negative, log_error});
  if (log_magnitude == kNegativeInfinity) return;
  double& side = negative ? log_negative_ : log_positive_;
  side = log_add_exp(side, log_magnitude);
}

SignedLogSum::Upper SignedLogSum::upper() const {
  double scale = kNegativeInfinity;
  for (const Entry& entry : entries_) scale = std::max({scale, entry.log_magnitude, entry.log_error});
  if (scale == kNegativeInfinity) return {scale, 0};
  if (!std::isfinite(scale)) return {kInfinity, kInfinity};
  // The scaled terms are summed by Ogita, Rump and Oishi's Sum2 (2005, "Accurate sum and dot
  // product", Alg. 4.4): each addition's rounding error is recovered exactly by TwoSum and the
  // errors are summed apart, so that the result is within u|result| + γ²_{n−1} Σ|terms| of the exact
  // sum of the scaled terms (ibid., Prop. 4.5; no underflow: every term is at least e^-740 of the
  // scale, which is 1 after scaling). Recursive summation would lose γ_n Σ|terms|, which is what
  // limits the accuracy where terms of size 1/2 cancel down to ε ~ 1/σ².
  double sum = 0, compensation = 0, magnitude = 0, errors = 0;
  std::size_t count = 0, error_count = 0;
  for (const Entry& entry : entries_) {
    // Below e^-740 of the scale a term or error is left out (libm's underflow path is slow) and
    // counted as an error of 1e-300 of it.
    if (entry.log_magnitude != kNegativeInfinity) {
      const double shift = entry.log_magnitude - scale;
      if (shift < kExpUnderflow) {
        errors += kUnderflowAllowance;
        ++error_count;
      } else {
        const double scaled = std::exp(shift);
        const double term = entry.negative ? -scaled : scaled;
        const double next = sum + term;
        const double back = next - sum;
        compensation += (sum - (next - back)) + (term - back);  // TwoSum: sum + term = next + this, exactly
        sum = next;
        magnitude += scaled;
        errors += scaled * (std::fabs(shift) + 2) * kUnitRoundoff;
        ++count;
        ++error_count;
      }
    }
    if (entry.log_error != kNegativeInfinity) {
      const double shift = entry.log_error - scale;
      errors +=
          shift < kExpUnderflow ? kUnderflowAllowance : std::exp(shift) * (1 + (std::fabs(shift) + 2) * kUnitRoundoff);
      ++error_count;
    }
  }
  const double result = sum + compensation;
  const double gamma = gamma_bound(count);
  // The magnitudes and the errors are sums of non-negative terms, each within γ_n of its value.
  const double rounding =
      kUnitRoundoff * std::fabs(result) + gamma * gamma * magnitude * (1 + gamma) + gamma_bound(error_count) * errors;
  const double total = std::max(result, 0.0) + errors + rounding;
  return {scale, move_up(total * (1 + 4 * kUnitRoundoff), 1)};
}

double SignedLogSum::approximate_log() const {
  if (!(log_positive_ > log_negative_)) return kNegativeInfinity;
  return log_sub_exp(log_positive_, log_negative_);
}

// log(1 + e^t) at t = log S rounded up (t's own rounding, 2u(|log_scale| + |log scaled| + 1), is
// added first); the evaluation is within 2 ulps of log1p(e^t), covered by the final factor.
double log1p_upper(const SignedLogSum::Upper& bound) {
  if (!(bound.scaled > 0)) return 0;
  if (!std::isfinite(bound.log_scale)) return kInfinity;
  const double log_scaled = std::log(bound.scaled);
  double t = bound.log_scale + log_scaled;
  t += 2 * kUnitRoundoff * (std::fabs(bound.log_scale) + std::fabs(log_scaled) + 1);
  const double value = t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
  if (value == 0) return std::numeric_limits<double>::denorm_min();
  return move_up(value * (1 + 8 * kUnitRoundoff), 1);
}

double log_upper(const SignedLogSum::Upper& bound) {
  if (!std::isfinite(bound.log_scale)) return kInfinity;
  const double log_scaled = std::log(bound.scaled);
  const double value = bound.log_scale + log_scaled;
  return move_up(value + 2 * kUnitRoundoff * (std::fabs(bound.log_scale) + std::fabs(log_scaled) + 1), 1);
}

double log_error_of(double log_magnitude, double log_error) {
  if (log_magnitude == kNegativeInfinity || !(log_error > 0)) return kNegativeInfinity;
  // e^{e} − 1 ≥ e, so log(e^e − 1) is at least log e; a factor 1 + 4u covers log_expm1's rounding.
  return log_magnitude + log_expm1(log_error) + 4 * kUnitRoundoff * (1 + std::fabs(log_expm1(log_error)));
}

}  // namespace dpcalc::rdp
