#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

#include <boost/math/special_functions/erf.hpp>
#include <cmath>
#include <limits>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::rdp {
namespace {

constexpr int kMaxFractionalTerms = 1000;
constexpr double kSqrtPi = 1.77245385090551602730;
constexpr double kSqrt2 = 1.41421356237309504880;

// log |C(n, k)| for real n and integer k >= 0 (the generalised binomial coefficient).
// log erfc(x), accurate where erfc underflows: erfc(x) = e^{-x^2} / (x sqrt(pi)) (1 - 1/(2x^2) +
// 3/(4x^4) - 15/(8x^6) + ...) (Abramowitz & Stegun 7.1.23), used beyond x = 20 where the next term
// is below 1e-10 relative.
double log_erfc(double x) {
  if (x < 20) return std::log(boost::math::erfc(x));
  const double r = 1 / (2 * x * x);
  return -x * x - std::log(x * kSqrtPi) + std::log1p(-r + 3 * r * r - 15 * r * r * r);
}

double log_a_integer(double q, double sigma, int alpha) {
  double log_a = kNegativeInfinity;
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  double log_coefficient = 0;  // log C(alpha, i), updated by C(alpha, i+1) = C(alpha, i) (alpha - i)/(i + 1)
  for (int i = 0; i <= alpha; ++i) {
    const double term = log_coefficient + i * log_q + (alpha - i) * log_1mq + (double(i) * i - i) / (2 * sigma * sigma);
    log_a = log_add_exp(log_a, term);
    log_coefficient += std::log(double(alpha - i) / double(i + 1));
  }
  return log_a;
}

double log_a_fractional(double q, double sigma, double alpha) {
  double log_a0 = kNegativeInfinity, log_a1 = kNegativeInfinity;
  const double z0 = sigma * sigma * std::log(1 / q - 1) + 0.5;
  const double log_q = std::log(q), log_1mq = std::log1p(-q);
  double last0 = kNegativeInfinity, last1 = kNegativeInfinity;
  for (int i = 0; i < kMaxFractionalTerms; ++i) {
    const double coefficient = log_binomial(alpha, i);
    const double j = alpha - i;
    const double s0 = coefficient + i * log_q + j * log_1mq + (double(i) * i - i) / (2 * sigma * sigma) +
                      std::log(0.5) + log_erfc((i - z0) / (kSqrt2 * sigma));
    const double s1 = coefficient + j * log_q + i * log_1mq + (j * j - j) / (2 * sigma * sigma) + std::log(0.5) +
                      log_erfc((z0 - j) / (kSqrt2 * sigma));
    log_a0 = log_add_exp(log_a0, s0);
    log_a1 = log_add_exp(log_a1, s1);
    const double total = log_add_exp(log_a0, log_a1);
    if (s0 < last0 && s1 < last1 && std::max(s0, s1) < total - 30) return total;
    last0 = s0;
    last1 = s1;
  }
  return kInfinity;
}

}  // namespace

std::vector<double> default_orders() {
  std::vector<double> orders;
  for (int x = 11; x <= 109; ++x) orders.push_back(x / 10.0);
  for (int a = 12; a <= 64; ++a) orders.push_back(a);
  for (double a : {128.0, 256.0, 512.0, 1024.0}) orders.push_back(a);
  return orders;
}

Result<std::vector<double>> check_orders(const std::vector<double>& orders) {
  if (orders.empty()) return invalid_argument("orders", "At least one order is needed.");
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const double order = orders[i];
    if (!(order > 1 && order <= kMaxOrder)) {
      return about_item(invalid_argument("orders", "Each order must be a number in (1, " + format_number(kMaxOrder) +
                                                       "] " + got(order) + "."),
                        i);
    }
    if (i > 0 && !(order > orders[i - 1])) {
      return about_item(
          invalid_argument("orders", "The orders must be strictly increasing (got " + format_number(order) + " after " +
                                         format_number(orders[i - 1]) + ")."),
          i);
    }
  }
  return orders;
}

double subsampled_gaussian_rdp(double rate, double noise_multiplier, double order) {
  if (rate == 0) return 0;
  if (rate == 1) return order / (2 * noise_multiplier * noise_multiplier);
  const double log_a = order == std::floor(order) ? log_a_integer(rate, noise_multiplier, static_cast<int>(order))
                                                  : log_a_fractional(rate, noise_multiplier, order);
  return std::max(0.0, log_a / (order - 1));
}

}  // namespace dpcalc::rdp
