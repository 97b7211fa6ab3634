#include "dpcalc/rdp/sampled_without_replacement_rdp.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "dpcalc/log_math.hpp"

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

}  // namespace

double sampled_without_replacement_gaussian_rdp(double rate, double noise_multiplier, double order) {
  const double sigma = noise_multiplier;
  if (rate >= 1) return order / (2 * sigma * sigma);
  if (std::isinf(order)) return std::numeric_limits<double>::infinity();
  const double floor = std::floor(order);
  if (floor == order) return log_moment(rate, sigma, static_cast<int>(order)) / (order - 1);
  const double t = order - floor;
  const double low = log_moment(rate, sigma, static_cast<int>(floor));
  const double high = log_moment(rate, sigma, static_cast<int>(floor) + 1);
  return ((1 - t) * low + t * high) / (order - 1);
}

}  // namespace dpcalc::rdp
