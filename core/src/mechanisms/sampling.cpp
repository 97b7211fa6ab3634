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
  // Support: max(0, k + m - n) <= j <= min(k, m). Start at its lowest point j0 with
  // Pr[J = j0] = C(k, j0) C(n-k, m-j0) / C(n, m) (lgamma only when j0 > 0, i.e. k + m > n).
  const double j0 = std::max(0.0, kk + b - n);
  auto log_choose = [](double a, double c) { return std::lgamma(a + 1) - std::lgamma(c + 1) - std::lgamma(a - c + 1); };
  double start;
  if (j0 == 0) {
    start = 0;
    for (double i = 0; i < kk; ++i) start += boost::math::log1p(-b / (n - i));
  } else {
    start = log_choose(kk, j0) + log_choose(n - kk, b - j0) - log_choose(n, b);
  }
  const double top = std::min(kk, b);
  log_pmf[static_cast<std::size_t>(j0)] = start;
  for (double j = j0; j < top; ++j) {
    const auto index = static_cast<std::size_t>(j);
    log_pmf[index + 1] = log_pmf[index] + std::log((kk - j) * (b - j)) - std::log((j + 1) * (n - kk - b + j + 1));
  }
  return log_pmf;
}

}  // namespace dpcalc::mechanisms
