#include "dpcalc/rdp/discrete_rdp.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/renyi_terms.hpp"

namespace dpcalc::rdp {
namespace {

constexpr double kDiscretePi = 3.14159265358979323846;

// log1p(e^y) rounded up for y within y_error, divided by α − 1 (rounded down), rounded up.
double softplus_over(double y, double y_error, double order) {
  const double u = kUnitRoundoff;
  const double t = y + y_error;
  const double value = t > 0 ? t + std::log1p(std::exp(-t)) : std::log1p(std::exp(t));
  const double denominator = order <= 2 ? order - 1 : std::nextafter(order - 1, 0.0);
  return std::nextafter(divide_up(value * (1 + 8 * u), denominator), kInfinity);
}

// frac(αΔ) in [0, 1), within u: the product's rounding error is recovered exactly by an fma.
double fractional_part_of_product(double order, double sensitivity) {
  const double product = order * sensitivity;
  const double rounding = std::fma(order, sensitivity, -product);
  double t = (product - std::floor(product)) + rounding;
  if (t < 0) t += 1;
  if (t >= 1) t -= 1;
  return t;
}

// An upper bound on log(Z(t)/Z(0)) ≤ 0, Z(t) = Σ_x e^{−(x−t)²/(2σ²)}, for t in [0, 1).
double log_theta_ratio_upper(double sigma, double t) {
  const double u = kUnitRoundoff;
  if (t == 0) return 0;
  if (sigma >= 0.5) {
    // Z(t)/Z(0) = 1 − 4Σ_k q_k sin²(πkt)/(1 + 2Σ_k q_k), q_k = e^{−2π²σ²k²} ≤ e^{−4.9k²}: the terms
    // past k fall below q_k·2 (a geometric rest), stopped below 1e-300. Leaving terms out of the
    // numerator and rounding it down only raises the ratio; the denominator is rounded up with its rest.
    const double rate = 2 * kDiscretePi * kDiscretePi * sigma * sigma;
    double numerator = 0, denominator = 1, numerator_error = 0;
    for (int k = 1;; ++k) {
      const double q = std::exp(-rate * k * k);
      if (q < 1e-300) {
        denominator += 4 * q + 1e-300;
        break;
      }
      const double s = std::sin(kDiscretePi * k * t);
      numerator += 4 * q * s * s;
      // sin's argument within 3u·πkt, sin within u more; q within 2u + u·rate k².
      numerator_error +=
          4 * q * (2 * std::fabs(s) * (3 * u * kDiscretePi * k * t + u) + s * s * (4 * u + u * rate * k * k));
      denominator += 2 * q;
    }
    const double ratio = std::max(numerator - numerator_error, 0.0) / (denominator * (1 + 4 * u));
    return std::min(0.0, std::log1p(-ratio) + 4 * u * ratio);
  }
  // σ < 1/2: the direct sums over x in [−M, M + 1], M = ⌈40σ⌉ + 2 (the rest is below e^{−800}), each
  // as m + log Σ e^{s_x − m} (m the largest exponent). An exponent s_x is within 3u|s_x| of exact and
  // moves by at most u|x − t|/σ² with t's own error (u), so the logarithm of the sum is within the
  // average of those errors under the weights e^{s_x}/Σ (the negligible terms weigh nothing), plus
  // (n + 4)u for the n exponentials and their sum, and u|m| for the shift.
  const int reach = static_cast<int>(std::ceil(40 * sigma)) + 2;
  const double two_variance = 2 * sigma * sigma;
  struct LogSum {
    double value, error;
  };
  const auto log_sum = [&](double shift, double shift_error) {
    double largest = kNegativeInfinity;
    for (int x = -reach; x <= reach + 1; ++x) largest = std::max(largest, -(x - shift) * (x - shift) / two_variance);
    double sum = 0, weighted_error = 0;
    for (int x = -reach; x <= reach + 1; ++x) {
      const double exponent = -(x - shift) * (x - shift) / two_variance;
      const double weight = std::exp(exponent - largest);
      sum += weight;
      weighted_error += weight * (3 * u * std::fabs(exponent) + shift_error * std::fabs(x - shift) / (sigma * sigma));
    }
    const double terms = 2.0 * reach + 2;
    return LogSum{largest + std::log(sum), weighted_error / sum + (terms + 4) * u + u * std::fabs(largest)};
  };
  const LogSum shifted = log_sum(t, u), centred = log_sum(0, 0);
  const double value = shifted.value - centred.value;
  return std::min(0.0, value + shifted.error + centred.error + u * std::fabs(value) + 1e-300);
}

}  // namespace

double randomized_response_rdp(double noise_parameter, double buckets, double order) {
  const double u = kUnitRoundoff;
  const double p = noise_parameter, k = buckets;
  if (!(p > 0 && p <= 1 && k >= 2 && order >= 1)) return kInfinity;
  if (p == 1) return 0;
  // L = log1p(k(1 − p)/p): the argument within 3u, L within 3u·arg/(1 + arg) + 2uL.
  const double argument = k * (1 - p) / p;
  const double loss = std::log1p(argument);
  const double loss_error = 3 * u * argument / (1 + argument) + 2 * u * loss;
  if (order == kInfinity) return std::nextafter(loss + loss_error, kInfinity);
  if (order == 1) return std::nextafter(multiply_up(1 - p, loss + loss_error) * (1 + 2 * u), kInfinity);
  const double x = (order - 1) * loss;
  const double x_relative = loss_error / loss + 2 * u;
  // log of (e^x − 1)[(1 − p) + b(1 − e^{−x})]: log expm1 moves by at most (1 + 1/x)·x·x_relative,
  // the bracket (two positive terms) within 4u + x·x_relative relative.
  const double b = p / k;
  const double bracket = (1 - p) - b * std::expm1(-x);
  const double y = log_expm1(x) + std::log(bracket);
  const double y_error = (1 + x) * x_relative + x * x_relative + 12 * u + 2 * u * std::fabs(y);
  return std::min(softplus_over(y, y_error, order), std::nextafter(loss + loss_error, kInfinity));
}

double discrete_laplace_rdp(double scale, double sensitivity, double order) {
  const double u = kUnitRoundoff;
  const double b = scale, delta = sensitivity;
  if (!(b > 0 && delta >= 1 && order >= 1)) return kInfinity;
  const double pure = divide_up(delta, b);
  if (order == kInfinity) return pure;
  if (order == 1) {
    // E_P[(|X| − |X − Δ|)/b], every term positive; each within 8u, the sum within γ_n.
    const double r = std::exp(-1 / b), one_minus_r = -std::expm1(-1 / b);
    double sum = delta * -std::expm1(-delta / b);
    double middle = 0;
    const long long last = static_cast<long long>(std::ceil(delta / 2)) - 1;
    for (long long j = 1; j <= last; ++j) {
      middle += (delta - 2.0 * j) * std::exp(-double(j) / b) * -std::expm1(-(delta - 2.0 * j) / b);
    }
    sum += one_minus_r * middle;
    const double n = static_cast<double>(last) + 4;
    const double value = sum / ((1 + r) * b) * (1 + (n + 16) * u);
    return std::min(std::nextafter(value, kInfinity), pure);
  }
  // The closed form of discrete_laplace.cpp's pair: [e^{−αΔ/b} + e^{(α−1)Δ/b} +
  // e^{−αΔ/b}(1 − r)g(g^{Δ−1} − 1)/(g − 1)]/(1 + r), g = e^{(2α−1)/b}, in log space.
  const double log_norm = std::log1p(std::exp(-1 / b));
  std::vector<double> terms{-order * delta / b - log_norm, (order - 1) * delta / b - log_norm};
  if (delta >= 2) {
    const double growth = (2 * order - 1) / b;
    terms.push_back(-order * delta / b + std::log(-std::expm1(-1 / b)) - log_norm + growth +
                    log_expm1((delta - 1) * growth) - log_expm1(growth));
  }
  return std::min(renyi_from_log_terms(terms, order), pure);
}

double discrete_gaussian_rdp(double sigma, double sensitivity, double order) {
  const double u = kUnitRoundoff;
  if (!(sigma > 0 && sensitivity >= 1 && order >= 1)) return kInfinity;
  if (order == kInfinity) return kInfinity;
  const double ratio = divide_up(sensitivity, sigma);
  const double rho = multiply_up(ratio, ratio) / 2;  // Δ²/(2σ²) rounded up
  if (order == 1) return rho;
  const double log_ratio = log_theta_ratio_upper(sigma, fractional_part_of_product(order, sensitivity));
  const double quotient = log_ratio / (order - 1);  // ≤ 0: raising it by 2u of itself rounds it up
  const double at_sensitivity = multiply_up(order, rho) + quotient - 2 * u * quotient;
  const double smaller_ratio = divide_up(sensitivity - 1, sigma);
  const double smaller = multiply_up(order, multiply_up(smaller_ratio, smaller_ratio) / 2);
  return std::nextafter(std::max(at_sensitivity * (1 + 2 * u), smaller), kInfinity);
}

}  // namespace dpcalc::rdp
