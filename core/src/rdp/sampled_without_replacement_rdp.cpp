#include "dpcalc/rdp/sampled_without_replacement_rdp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/signed_log_sum.hpp"

namespace dpcalc::rdp {
namespace {

// Above this order the forward differences (quadratic cost) are left out, as in dp_accounting.
constexpr int kMaxDifferencedOrder = 256;

// A real number as the log of its magnitude and its sign.
struct Signed {
  double log_magnitude;
  bool positive;
};

// b − a for signed log magnitudes.
Signed difference(const Signed& b, const Signed& a) {
  if (a.positive != b.positive) return {log_add_exp(a.log_magnitude, b.log_magnitude), b.positive};
  Signed result{kNegativeInfinity, true};
  if (b.log_magnitude > a.log_magnitude) {
    result = {log_sub_exp(b.log_magnitude, a.log_magnitude), true};
  } else if (b.log_magnitude < a.log_magnitude) {
    result = {log_sub_exp(a.log_magnitude, b.log_magnitude), false};
  }
  if (!b.positive) result.positive = !result.positive;
  return result;
}

// log |Δ^{i+1} s_0| for i = 0..n+1, s = 1, e^{c(0)}, e^{c(1)}, …, e^{c(n+1)}.
std::vector<double> log_forward_differences(double sigma, int n) {
  auto cumulant = [&](double x) { return x * (x + 1) / (2 * sigma * sigma); };
  std::vector<Signed> values(static_cast<std::size_t>(n) + 3, Signed{0, true});
  for (int i = 1; i < n + 3; ++i) values[static_cast<std::size_t>(i)] = {cumulant(i - 1), true};
  std::vector<double> result(static_cast<std::size_t>(n) + 2);
  for (int i = 0; i < n + 2; ++i) {
    for (int j = 0; j < n + 2 - i; ++j) {
      values[static_cast<std::size_t>(j)] =
          difference(values[static_cast<std::size_t>(j) + 1], values[static_cast<std::size_t>(j)]);
    }
    result[static_cast<std::size_t>(i)] = values[0].log_magnitude;
  }
  return result;
}

// log A_α for integer α ≥ 1 (the numerator of ε(α) times α − 1).
double log_moment(double rate, double sigma, int order) {
  if (order == 1) return 0;
  auto cumulant = [&](double x) { return x * (x + 1) / (2 * sigma * sigma); };
  const double epsilon2 = 2 / (2 * sigma * sigma);
  const double log_rate = std::log(rate);
  double log_a = 0;
  const double second = 2 * log_rate + log_binomial(order, 2) +
                        std::min(std::log(4.0) + epsilon2 + std::log1p(-std::exp(-epsilon2)), epsilon2 + std::log(2.0));
  log_a = log_add_exp(log_a, second);
  const bool differenced = order <= kMaxDifferencedOrder;
  const std::vector<double> deltas = differenced ? log_forward_differences(sigma, order) : std::vector<double>{};
  for (int i = 3; i <= order; ++i) {
    double term = std::log(2.0) + cumulant(i - 1);
    if (differenced) {
      const double low = deltas[static_cast<std::size_t>(2 * (i / 2) - 1)];
      const double high = deltas[static_cast<std::size_t>(2 * ((i + 1) / 2) - 1)];
      term = std::min(std::log(4.0) + 0.5 * (low + high), term);
    }
    log_a = log_add_exp(log_a, term + i * log_rate + log_binomial(order, i));
  }
  return log_a;
}

// (α − 1)ε′(α) of Thm 9 at an integer α ≥ 2 for an inner curve, rounded up: every term positive,
// each within 8u(|its log| + 1), summed with a certified bound.
double general_log_moment_upper(double rate, const RdpFunction& inner, int order, double log_tail_factor) {
  const double u = kUnitRoundoff;
  const double log_rate = std::log(rate);
  SignedLogSum sum;
  sum.add(0, false);  // the 1
  const double epsilon2 = inner(2);
  // min{4(e^{ε(2)} − 1), e^{ε(2)} min{2, (e^{ε(∞)} − 1)²}} in logs.
  const double second =
      std::min(std::log(4.0) + log_expm1(epsilon2), epsilon2 + std::min(std::log(2.0), 2 * log_tail_factor));
  double log_coefficient = std::log(double(order)) + std::log(double(order - 1)) - std::log(2.0);
  const double value2 = 2 * log_rate + log_coefficient + second;
  sum.add(value2, false, log_error_of(value2, 8 * u * (std::fabs(value2) + std::fabs(second) + 1)));
  for (int j = 3; j <= order; ++j) {
    log_coefficient += std::log(double(order - j + 1) / j);
    const double exponent = (j - 1) * inner(j);
    const double value = j * log_rate + log_coefficient + exponent + std::min(std::log(2.0), j * log_tail_factor);
    const double error = 8 * u * (std::fabs(value) + std::fabs(exponent) + std::fabs(j * log_rate) + j);
    sum.add(value, false, log_error_of(value, error));
  }
  const SignedLogSum::Upper bound = sum.upper();
  return log_upper(bound);
}

// log(1 + γ(e^{x} − 1)) rounded up, for x = (α − 1)ε(α) ≥ 0 (the joint-convexity bound).
double mixture_log_moment_upper(double rate, double exponent) {
  const double u = kUnitRoundoff;
  if (exponent == kInfinity) return kInfinity;
  // log(γ) + log expm1(x), then log1p of its exponential.
  const double t = std::log(rate) + log_expm1(exponent);
  const double t_up = t + 8 * u * (std::fabs(t) + std::fabs(exponent) + 1);
  const double value = t_up > 0 ? t_up + std::log1p(std::exp(-t_up)) : std::log1p(std::exp(t_up));
  return std::nextafter(value * (1 + 8 * u), kInfinity);
}

double order_minus_one_rounded_down(double order) { return order <= 2 ? order - 1 : std::nextafter(order - 1, 0.0); }

}  // namespace

double sampled_without_replacement_gaussian_rdp(double rate, double noise_multiplier, double order) {
  const double sigma = noise_multiplier;
  if (rate >= 1) return order == std::numeric_limits<double>::infinity() ? order : order / (2 * sigma * sigma);
  if (std::isinf(order)) return std::numeric_limits<double>::infinity();
  // Order 1: the KL divergence is at most the cumulant's slope from 1 to 2, ε′(2), and (joint
  // convexity) γ/(2σ²).
  if (order == 1) return std::min(log_moment(rate, sigma, 2), rate / (2 * sigma * sigma) * (1 + 1e-15));
  const double floor = std::floor(order);
  if (floor == order) return log_moment(rate, sigma, static_cast<int>(order)) / (order - 1);
  const double t = order - floor;
  const double low = log_moment(rate, sigma, static_cast<int>(floor));
  const double high = log_moment(rate, sigma, static_cast<int>(floor) + 1);
  return ((1 - t) * low + t * high) / (order - 1);
}

double sampled_without_replacement_rdp(double rate, const RdpFunction& inner, double order) {
  if (!(rate > 0 && rate <= 1 && order >= 1)) return kInfinity;
  if (rate == 1) return inner(order);
  const double pure = inner(kInfinity);
  // log(e^{ε(∞)} − 1), the factor min{2, (e^{ε(∞)} − 1)^j} is taken in logs.
  const double log_tail_factor = pure == kInfinity ? kInfinity : log_expm1(pure);
  if (order == kInfinity) return mixture_log_moment_upper(rate, pure);
  if (order == 1) {
    const double convexity = multiply_up(rate, inner(1)) * (1 + 4 * kUnitRoundoff);
    return std::min(
        {convexity, general_log_moment_upper(rate, inner, 2, log_tail_factor), mixture_log_moment_upper(rate, pure)});
  }
  const double floor = std::floor(order);
  double moment;
  if (floor == order) {
    moment = general_log_moment_upper(rate, inner, static_cast<int>(order), log_tail_factor);
  } else {
    const double t = order - floor;
    const double low =
        floor < 2 ? 0.0 : general_log_moment_upper(rate, inner, static_cast<int>(floor), log_tail_factor);
    const double high = general_log_moment_upper(rate, inner, static_cast<int>(floor) + 1, log_tail_factor);
    moment = std::nextafter(((1 - t) * low + t * high) * (1 + 4 * kUnitRoundoff), kInfinity);
  }
  const double inner_exponent = multiply_up(order - 1, inner(order));
  moment = std::min(moment, mixture_log_moment_upper(rate, inner_exponent));
  // Never above the bound at order infinity (D_α ≤ D_∞).
  return std::min(std::nextafter(divide_up(moment, order_minus_one_rounded_down(order)), kInfinity),
                  mixture_log_moment_upper(rate, pure));
}

}  // namespace dpcalc::rdp
