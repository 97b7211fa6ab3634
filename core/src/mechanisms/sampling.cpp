#include "dpcalc/mechanisms/sampling.hpp"

#include <algorithm>
#include <boost/math/special_functions/log1p.hpp>
#include <cmath>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::mechanisms {

double inclusion_rate(const SampleDraw& draw) {
  return draw.draw == Draw::kPoisson ? draw.rate : divide_up(draw.sample_size, draw.population);
}

std::vector<double> group_inclusion_log_pmf(const SampleDraw& draw, double group_size) {
  const auto k = static_cast<std::size_t>(group_size);
  if (draw.draw == Draw::kPoisson) return binomial_log_pmf(k, draw.rate);
  std::vector<double> log_pmf(k + 1, kNegativeInfinity);
  const double n = draw.population, b = draw.sample_size, kk = group_size;
  // Support: max(0, k + m - n) <= j <= min(k, m). Start at its lowest point j0, as a product of
  // fewer than k factors (no lgamma: at a population near 2^53, lgamma(n + 1) differences lose
  // everything, and n + 1 itself rounds to n). j0 = 0: Pr[J = 0] = ∏_{i<k} (1 − m/(n − i)).
  // j0 = k − s > 0, s = n − m < k records left out: all s of them are in the group,
  // Pr[J = j0] = C(k, s)/C(n, s) = ∏_{i<s} (k − i)/(n − i).
  // j0 = k − s, not k + m − n: k + m rounds near 2^53, s = n − m is exact.
  const double left_out = n - b;
  const double j0 = std::max(0.0, kk - left_out);
  double start = 0;
  if (j0 == 0) {
    for (double i = 0; i < kk; ++i) start += boost::math::log1p(-b / (n - i));
  } else {
    for (double i = 0; i < left_out; ++i) start += std::log((kk - i) / (n - i));
  }
  const double top = std::min(kk, b);
  log_pmf[static_cast<std::size_t>(j0)] = start;
  for (double j = j0; j < top; ++j) {
    const auto index = static_cast<std::size_t>(j);
    log_pmf[index + 1] = log_pmf[index] + std::log((kk - j) * (b - j)) - std::log((j + 1) * (left_out - kk + j + 1));
  }
  return log_pmf;
}

}  // namespace dpcalc::mechanisms
