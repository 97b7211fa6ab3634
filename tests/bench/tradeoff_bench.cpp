// Native timings of trade-off curves, printed as Markdown tables by `npm run bench`: closed forms
// (a keystroke's budget), and the curve read from composed PLDs against the composition itself (the
// curve reuses the composed PLDs and must cost at most 20% of composing them).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <vector>

#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/tradeoff/approx_dp_tradeoff.hpp"
#include "dpcalc/tradeoff/gaussian_tradeoff.hpp"
#include "dpcalc/tradeoff/pld_tradeoff.hpp"
#include "dpcalc/tradeoff/renyi_tradeoff.hpp"

namespace {

template <class Work>
double median_milliseconds(Work work, int runs) {
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto start = std::chrono::steady_clock::now();
    work();
    times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

}  // namespace

int main() {
  using namespace dpcalc;
  std::vector<double> orders, epsilons;
  for (double order = 1.25; order <= 1024; order *= 1.1) {
    orders.push_back(order);
    epsilons.push_back(0.5 * order);
  }
  struct ClosedForm {
    const char* name;
    std::function<bool()> run;
  };
  const ClosedForm closed_forms[] = {
      {"μ-GDP, μ = 1", [] { return tradeoff::gaussian_tradeoff(1, {}).ok(); }},
      {"(ε, δ) = (1, 1e-6)",
       [] {
         return tradeoff::approx_dp_tradeoff(ApproxDp{1, 1e-6}, {}).ok();
       }},
      {"ρ-zCDP, ρ = 0.5", [] { return tradeoff::zcdp_tradeoff(Zcdp{0.5}, {}).ok(); }},
      {"RDP curve, 72 orders",
       [&] {
         return tradeoff::rdp_tradeoff(RdpCurve{orders, epsilons}, {}).ok();
       }},
  };
  std::printf("| native: trade-off of a closed form (default options) | time |\n|---|---:|\n");
  for (const ClosedForm& closed_form : closed_forms) {
    bool ok = true;
    const double time = median_milliseconds([&] { ok = closed_form.run(); }, 101);
    std::printf("| %s | %.1f µs%s |\n", closed_form.name, 1000 * time, ok ? "" : " (failed)");
  }
  std::printf("\n");
  std::printf(
      "| native: trade-off from composed PLDs (default options) | grid | compose | trade-off | share |\n"
      "|---|---:|---:|---:|---:|\n");
  for (double steps : {1e2, 1e3, 1e4, 1e5, 1e6}) {
    const std::vector<pld::CompositionItem> items{{pld::DominatingPair{pld::GaussianPair{1.0, 1.0}, 0.01}, steps}};
    pld::ComposedPlds plds;
    bool composed = true;
    const double compose = median_milliseconds(
        [&] {
          const auto result = pld::compose_items(items, {});
          composed = result.ok();
          if (composed) plds = result.value();
        },
        3);
    if (!composed) continue;
    bool curved = true;
    const double curve = median_milliseconds([&] { curved = tradeoff::pld_tradeoff(plds, {}).ok(); }, 7);
    std::printf("| subsampled Gaussian σ=1, q=0.01, T=%.0e | %lld | %.1f ms | %.2f ms | %.1f%%%s |\n", steps,
                static_cast<long long>(plds.discretization.grid_size), compose, curve, 100 * curve / compose,
                curved ? "" : " (failed)");
  }
  return 0;
}
