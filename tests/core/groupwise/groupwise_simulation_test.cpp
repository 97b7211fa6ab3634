// Simulation of Algorithm 1 (Pujol & Desfontaines 2023): its Figure 1 (σ² = 100, r = 0.3,
// 10^6 samples; the true count is not stated, x = 10^4 is consistent with its best-fitting Gaussian
// of mean 10,002.6 and sd 2,995.1), checked against the exact moments with tolerances from the
// standard errors (never the paper's digits), and the histogram against the quadrature density (χ²).
#include <boost/math/distributions/chi_squared.hpp>
#include <boost/math/quadrature/gauss_kronrod.hpp>
#include <cmath>

#include "approx.hpp"
#include "dpcalc/groupwise/output_density.hpp"
#include "dpcalc/groupwise/simulation.hpp"

using namespace dpcalc::groupwise;

TEST_CASE("[groupwise] Figure 1: mean and sd of 10^6 samples within 4 standard errors of the exact ones") {
  const TwoStageNoise noise{10, 0.3};
  const double count = 10000, n = 1e6;
  const auto run = simulate(noise, count, 1000000, 20220101, default_grid(noise, count));
  REQUIRE(run.ok());
  const SimulationSummary& summary = run.value();
  const double exact_sd = output_sd(noise, count);  // sqrt(σ² + r²(x² + σ²)) = 3000.018...
  // Standard error of the mean: sd/√n ≈ 3. Standard error of the sd: sd sqrt((κ − 1)/(4n)) with κ
  // the kurtosis; Y = X(1 + r Z) is close to Gaussian here (κ = 3 + O(σ²/(r x)²)); κ <= 4 is allowed.
  CHECK(std::fabs(summary.mean - count) <= 4 * exact_sd / std::sqrt(n));
  CHECK(std::fabs(summary.sd - exact_sd) <= 4 * exact_sd * std::sqrt(3 / (4 * n)));
  CHECK(summary.fit_mean == summary.mean);
  CHECK_REL(summary.fit_sd, summary.sd * std::sqrt((n - 1) / n), 1e-14);
  double in_bins = summary.below + summary.above;
  for (double c : summary.counts) in_bins += c;
  CHECK(in_bins == n);
  CHECK(summary.edges.size() == 101);
  // Mean absolute error: standard error <= sd/√n; exact value by quadrature.
  CHECK(std::fabs(summary.mean_absolute_error - expected_absolute_error(noise, count)) <= 4 * exact_sd / std::sqrt(n));
}

TEST_CASE("[groupwise] the histogram of a skewed case matches the quadrature density (χ² test)") {
  // x = 10, σ = 10, r = 0.3: X is often near 0, Y is skewed and p_x has a log singularity at 0.
  const TwoStageNoise noise{10, 0.3};
  const double count = 10, n = 200000;
  const HistogramGrid grid{-20, 50, 35};  // 0 is a bin edge
  const auto run = simulate(noise, count, 200000, 7, grid);
  REQUIRE(run.ok());
  const SimulationSummary& summary = run.value();
  using Rule = boost::math::quadrature::gauss_kronrod<double, 15>;
  double chi_squared = 0, mass_in_grid = 0;
  for (int i = 0; i < grid.bins; ++i) {
    const double a = summary.edges[i], b = summary.edges[i + 1];
    const double scale = b - a;  // Boost 1.74's error floor wants unit intervals
    const double mass = Rule::integrate([&](double t) { return scale * output_density(noise, count, a + scale * t); },
                                        0.0, 1.0, 15, 1e-10);
    mass_in_grid += mass;
    const double expected = n * mass;
    REQUIRE(expected > 5);
    chi_squared += (summary.counts[i] - expected) * (summary.counts[i] - expected) / expected;
  }
  // The outside mass as one more cell.
  const double outside = n * (1 - mass_in_grid);
  chi_squared += (summary.below + summary.above - outside) * (summary.below + summary.above - outside) / outside;
  const boost::math::chi_squared_distribution<double> law(grid.bins);
  CHECK(chi_squared < boost::math::quantile(boost::math::complement(law, 1e-4)));
}

TEST_CASE("[groupwise] the same seed gives the same samples; progress can cancel") {
  const TwoStageNoise noise{3, 0.5};
  const auto first = simulate(noise, 50, 1000, 42, default_grid(noise, 50));
  const auto again = simulate(noise, 50, 1000, 42, default_grid(noise, 50));
  const auto other = simulate(noise, 50, 1000, 43, default_grid(noise, 50));
  REQUIRE(first.ok());
  CHECK(first.value().mean == again.value().mean);
  CHECK(first.value().counts == again.value().counts);
  CHECK(first.value().mean != other.value().mean);
  int calls = 0;
  const auto cancelled =
      simulate(noise, 50, 1000000, 1, default_grid(noise, 50), [&calls](double) { return ++calls < 3; });
  REQUIRE(!cancelled.ok());
  CHECK(cancelled.error().code == "cancelled");
  CHECK(calls == 3);
}
