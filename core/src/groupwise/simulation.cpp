#include "dpcalc/groupwise/simulation.hpp"

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/normal_distribution.hpp>
#include <cmath>

#include "dpcalc/pld/pld.hpp"

namespace dpcalc::groupwise {

HistogramGrid default_grid(const TwoStageNoise& noise, double count) {
  const double sd = output_sd(noise, count);
  return {count - 5 * sd, count + 5 * sd, 100};
}

Result<SimulationSummary> simulate(const TwoStageNoise& noise, double count, std::uint64_t samples, std::uint64_t seed,
                                   const HistogramGrid& grid, const ProgressCallback& progress) {
  boost::random::mt19937_64 generator(seed);
  boost::random::normal_distribution<double> standard_normal(0.0, 1.0);
  SimulationSummary summary;
  summary.samples = samples;
  summary.counts.assign(grid.bins, 0.0);
  const double bin_width = (grid.upper - grid.lower) / grid.bins;
  // Welford's running mean and sum of squared deviations: no cancellation for large counts.
  double mean = 0, squares = 0, absolute_error = 0;
  constexpr std::uint64_t kProgressEvery = 1 << 16;
  for (std::uint64_t i = 0; i < samples; ++i) {
    const double first = count + noise.sigma * standard_normal(generator);
    const double y = first + noise.relative_error * std::fabs(first) * standard_normal(generator);
    const double delta = y - mean;
    mean += delta / double(i + 1);
    squares += delta * (y - mean);
    absolute_error += std::fabs(y - count);
    if (y < grid.lower) {
      summary.below += 1;
    } else if (y >= grid.upper) {
      summary.above += 1;
    } else {
      const int bin = std::min(grid.bins - 1, static_cast<int>((y - grid.lower) / bin_width));
      summary.counts[bin] += 1;
    }
    if (progress && (i + 1) % kProgressEvery == 0 && !progress(double(i + 1) / double(samples))) {
      return Error{pld::kCancelled, "", "The computation was cancelled."};
    }
  }
  const double n = double(samples);
  summary.mean = mean;
  summary.sd = std::sqrt(squares / (n - 1));
  summary.mean_absolute_error = absolute_error / n;
  summary.fit_mean = mean;
  summary.fit_sd = std::sqrt(squares / n);
  for (int i = 0; i <= grid.bins; ++i) summary.edges.push_back(grid.lower + i * bin_width);
  summary.edges.back() = grid.upper;
  // Expected counts n (Φ(b) − Φ(a)), through erfc so that far tails keep their relative accuracy.
  const auto upper_tail = [&summary](double edge) {
    return 0.5 * std::erfc((edge - summary.fit_mean) / (summary.fit_sd * std::sqrt(2.0)));
  };
  for (int i = 0; i < grid.bins; ++i) {
    summary.fit_counts.push_back(n * (upper_tail(summary.edges[i]) - upper_tail(summary.edges[i + 1])));
  }
  if (progress && !progress(1)) return Error{pld::kCancelled, "", "The computation was cancelled."};
  return summary;
}

}  // namespace dpcalc::groupwise
