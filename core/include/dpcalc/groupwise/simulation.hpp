// Monte Carlo simulation of Algorithm 1 (two_stage_noise.hpp) for one true count x: n samples of
//   X ~ N(x, σ²), Y ~ N(X, (r X)²),
// from Boost.Random's mt19937_64 and ziggurat normal distribution (the same sequence on every
// platform and in wasm for a given seed, unlike std::normal_distribution), with their mean, standard
// deviation, histogram, the best-fitting (maximum-likelihood) Gaussian and the empirical mean
// absolute error E|Y − x|. Reproduces Figure 1 of Pujol & Desfontaines (2023).
#pragma once

#include <cstdint>
#include <vector>

#include "dpcalc/groupwise/two_stage_noise.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::groupwise {

inline constexpr double kMaxSamples = 1e7;
inline constexpr int kMaxBins = 10000;

struct HistogramGrid {
  double lower = 0;  // finite, lower < upper
  double upper = 1;
  int bins = 100;  // in [1, kMaxBins]
};

struct SimulationSummary {
  std::uint64_t samples = 0;
  double mean = 0;
  double sd = 0;                    // sample standard deviation (n − 1 in the denominator)
  double mean_absolute_error = 0;   // mean of |Y − x|
  std::vector<double> edges;        // bins + 1 edges
  std::vector<double> counts;       // samples per bin [edges[i], edges[i + 1])
  double below = 0, above = 0;      // samples outside [lower, upper)
  double fit_mean = 0, fit_sd = 0;  // maximum-likelihood Gaussian (n in the denominator)
  std::vector<double> fit_counts;   // its expected count per bin
};

// The default grid: x ± 5 sd(Y) (output_sd), 100 bins.
HistogramGrid default_grid(const TwoStageNoise& noise, double count);

// samples in [2, kMaxSamples]; the caller validates. Calls `progress` every 2^16 samples; returns
// Error{"cancelled"} when it returns false.
Result<SimulationSummary> simulate(const TwoStageNoise& noise, double count, std::uint64_t samples, std::uint64_t seed,
                                   const HistogramGrid& grid, const ProgressCallback& progress = {});

}  // namespace dpcalc::groupwise
