// Native timings of the PLD engine, printed as a Markdown table by `npm run bench`
// (the same workloads are timed in wasm through the JS API by scripts/bench.mjs).
#include <chrono>
#include <cstdio>
#include <vector>

#include "dpcalc/pld/accountant.hpp"

namespace {

using dpcalc::pld::CompositionItem;
using dpcalc::pld::DominatingPair;
using dpcalc::pld::GaussianPair;

void time_query(const char* name, const std::vector<CompositionItem>& items, double delta) {
  const auto start = std::chrono::steady_clock::now();
  const auto result = dpcalc::pld::epsilon_for_delta(items, delta);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!result.ok()) {
    std::printf("| %s | error: %s | | | |\n", name, result.error().message.c_str());
    return;
  }
  const auto& bracket = result.value();
  std::printf("| %s | %.6g | %.6g | %lld | %.1f ms |\n", name, bracket.epsilon_upper, bracket.epsilon_lower,
              static_cast<long long>(bracket.discretization.grid_size), ms);
}

}  // namespace

int main() {
  std::printf("| native: PLD request (δ = 1e-5) | ε upper | ε lower | grid | time |\n|---|---:|---:|---:|---:|\n");
  for (double steps : {1e2, 1e3, 1e4, 1e5, 1e6}) {
    char name[96];
    std::snprintf(name, sizeof name, "subsampled Gaussian σ=1, q=0.01, T=%.0e", steps);
    time_query(name, {{DominatingPair{GaussianPair{1.0, 1.0}, 0.01}, steps}}, 1e-5);
  }
  std::vector<CompositionItem> gaussians;
  for (int i = 0; i < 50; ++i) gaussians.push_back({DominatingPair{GaussianPair{20.0 + i, 1.0}, 1.0}, 1});
  time_query("50 different Gaussians, σ = 20…69", gaussians, 1e-5);
  return 0;
}
