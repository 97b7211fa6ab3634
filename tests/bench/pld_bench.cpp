// Timings of the PLD engine through its C++ interface, printed as Markdown tables by `npm run bench`,
// natively and compiled to WebAssembly (the target dpcalc_bench_wasm, run in Node): the numeric
// workloads compared with dp_accounting (tests/bench/requests.mjs, comparedWorkloads) at the default
// accuracy and at relative_accuracy 1e-5, group DP-SGD through the fixed-batch sampler (which takes
// the engine's options directly), and subsampled Gaussians over T. Medians of warm runs.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "../core/trainings_for_tests.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace {

using dpcalc::pld::AccountingOptions;
using dpcalc::pld::CompositionItem;
using dpcalc::pld::DominatingPair;
using dpcalc::pld::EpsilonBracket;
using dpcalc::pld::GaussianPair;
using dpcalc::pld::LaplacePair;

constexpr double kDelta = 1e-5;

// Median wall time (ms) of `runs` calls after one warm-up call, and the last answer.
struct Timing {
  double milliseconds = 0;
  dpcalc::Result<EpsilonBracket> answer = dpcalc::Error{};
};
Timing time_runs(const std::function<dpcalc::Result<EpsilonBracket>()>& run, int runs) {
  Timing timing{0, run()};
  std::vector<double> samples;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    timing.answer = run();
    samples.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(samples.begin(), samples.end());
  timing.milliseconds = samples[samples.size() / 2];
  return timing;
}

void print_row(const char* name, const char* accuracy, const Timing& timing) {
  if (!timing.answer.ok()) {
    std::printf("| %s | %s | error: %s | | | | |\n", name, accuracy, timing.answer.error().message.c_str());
    return;
  }
  const EpsilonBracket& bracket = timing.answer.value();
  std::printf("| %s | %s | %.10g | %.10g | %.1e | %lld | %.1f ms |\n", name, accuracy, bracket.epsilon_upper,
              bracket.epsilon_lower, (bracket.epsilon_upper - bracket.epsilon_lower) / bracket.epsilon_upper,
              static_cast<long long>(bracket.discretization.grid_size), timing.milliseconds);
}

AccountingOptions at_accuracy(double relative_accuracy) {
  AccountingOptions options;
  options.relative_accuracy = relative_accuracy;
  return options;
}

}  // namespace

int main() {
#ifdef __EMSCRIPTEN__
  const char* where = "wasm";
#else
  const char* where = "native";
#endif
  std::printf("| %s: PLD workload (δ = 1e-5) | relative accuracy | ε upper | ε lower | width / ε | grid | median |\n",
              where);
  std::printf("|---|---|---:|---:|---:|---:|---:|\n");
  const std::vector<CompositionItem> dpsgd{{DominatingPair{GaussianPair{1.0, 1.0}, 0.01}, 1e4}};
  const std::vector<CompositionItem> laplace{{DominatingPair{LaplacePair{10.0, 1.0}}, 1000}};
  std::vector<CompositionItem> gaussians;
  for (int i = 0; i < 50; ++i) gaussians.push_back({DominatingPair{GaussianPair{20.0 + i, 1.0}}, 1});
  const dpcalc::dpsgd::GroupSetting group = test_trainings::fixed_batch(60000, 256, 16);
  for (const double accuracy : {5e-4, 1e-5}) {
    const AccountingOptions options = at_accuracy(accuracy);
    const char* label = accuracy == 5e-4 ? "5e-4 (default)" : "1e-5";
    print_row("DP-SGD σ=1, q=0.01, T=10⁴", label,
              time_runs([&] { return dpcalc::pld::epsilon_for_delta(dpsgd, kDelta, options); }, 5));
    print_row("Laplace b=10, 1000 times", label,
              time_runs([&] { return dpcalc::pld::epsilon_for_delta(laplace, kDelta, options); }, 5));
    print_row("50 Gaussians σ=20…69 (by FFT)", label,
              time_runs([&] { return dpcalc::pld::epsilon_for_delta(gaussians, kDelta, options); }, 5));
    print_row("group DP-SGD k=16, σ=2, N=60000, B=256, T=16384", label,
              time_runs(
                  [&]() -> dpcalc::Result<EpsilonBracket> {
                    DPCALC_TRY(const auto bounds, test_trainings::bounds_of(group, 2.0, 16384, kDelta, options));
                    return *bounds.engine;
                  },
                  3));
  }
  for (double steps : {1e2, 1e3, 1e4, 1e5, 1e6}) {
    char name[96];
    std::snprintf(name, sizeof name, "subsampled Gaussian σ=1, q=0.01, T=%.0e", steps);
    const std::vector<CompositionItem> items{{DominatingPair{GaussianPair{1.0, 1.0}, 0.01}, steps}};
    print_row(name, "5e-4 (default)", time_runs([&] { return dpcalc::pld::epsilon_for_delta(items, kDelta); }, 3));
  }
  return 0;
}
