// compose() (dpcalc/pld/pld.hpp) against compositions computed exactly: random small PLDs, powers
// and products of their spectra reproduce the long double convolution within the proven
// rounding_error, and the Chernoff support (composed_support.hpp) leaves at most the tail mass out.
#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "approx.hpp"
#include "dpcalc/pld/composed_support.hpp"
#include "dpcalc/pld/pld.hpp"

using namespace dpcalc::pld;

namespace {

// A PLD with `size` random masses summing to 1 - infinite from grid index `lowest`.
DiscretePld random_pld(std::mt19937_64& random, std::int64_t lowest, std::size_t size, double infinite) {
  std::uniform_real_distribution<double> unit(0, 1);
  DiscretePld pld;
  pld.discretization_interval = 0.01;
  pld.lowest_index = lowest;
  pld.masses.resize(size);
  double total = 0;
  for (double& m : pld.masses) total += m = std::pow(unit(random), 3);
  for (double& m : pld.masses) m *= (1 - infinite) / total;
  pld.masses.front() = std::max(pld.masses.front(), 1e-6);
  pld.masses.back() = std::max(pld.masses.back(), 1e-6);
  pld.infinite_mass = infinite;
  return pld;
}

// Exact masses of the composition (finite part), from index `lowest`, by repeated long double
// convolution.
struct ExactComposition {
  std::int64_t lowest = 0;
  std::vector<long double> masses{1.0L};
};
ExactComposition convolve(const ExactComposition& a, const DiscretePld& b) {
  ExactComposition c;
  c.lowest = a.lowest + b.lowest_index;
  c.masses.assign(a.masses.size() + b.masses.size() - 1, 0.0L);
  for (std::size_t i = 0; i < a.masses.size(); ++i) {
    for (std::size_t j = 0; j < b.masses.size(); ++j) c.masses[i + j] += a.masses[i] * b.masses[j];
  }
  return c;
}

}  // namespace

TEST_CASE("[pld] compose: spectral powers and products match the exact convolution within the proven bound") {
  std::mt19937_64 random(20261124);
  struct Setting {
    std::vector<double> counts;
    double tail_mass;
  };
  const Setting settings[] = {{{1}, 1e-14},       {{2}, 1e-14},   {{37}, 1e-14},        {{5, 1}, 1e-14},
                              {{3, 8, 1}, 1e-14}, {{200}, 1e-10}, {{1, 1, 1, 1}, 1e-14}};
  for (const Setting& setting : settings) {
    for (int trial = 0; trial < 3; ++trial) {
      std::vector<DiscretePld> plds;
      for (std::size_t t = 0; t < setting.counts.size(); ++t) {
        const auto size = static_cast<std::size_t>(2 + random() % 40);
        plds.push_back(random_pld(random, static_cast<std::int64_t>(random() % 21) - 10, size, t == 0 ? 1e-4 : 0.0));
      }
      std::vector<CompositionTerm> terms;
      ExactComposition exact;
      for (std::size_t t = 0; t < plds.size(); ++t) {
        terms.push_back(CompositionTerm{&plds[t], setting.counts[t]});
        for (double c = 0; c < setting.counts[t]; ++c) exact = convolve(exact, plds[t]);
      }
      for (const bool pessimistic : {true, false}) {
        CAPTURE(setting.counts.size());
        CAPTURE(setting.counts.front());
        CAPTURE(pessimistic);
        const auto composed = compose(terms, pessimistic, setting.tail_mass);
        REQUIRE(composed.ok());
        const DiscretePld& result = composed.value();
        // Exact mass outside the support, and the distance inside it.
        long double outside = 0, distance = 0;
        for (std::size_t i = 0; i < exact.masses.size(); ++i) {
          const std::int64_t index = exact.lowest + static_cast<std::int64_t>(i);
          const std::int64_t at = index - result.lowest_index;
          if (at < 0 || at >= static_cast<std::int64_t>(result.masses.size())) {
            outside += exact.masses[i];
          } else {
            distance += std::fabs(exact.masses[i] - result.masses[static_cast<std::size_t>(at)]);
          }
        }
        CHECK(static_cast<double>(outside) <= setting.tail_mass);
        // Mass outside the support is misplaced onto it by the circular convolution, at most once.
        CHECK(static_cast<double>(distance) <= result.rounding_error + static_cast<double>(outside));
        CHECK(result.rounding_error < 1e-9);
        // One copy of one PLD is returned as it is: nothing cut, nothing rounded.
        const bool identity = setting.counts.size() == 1 && setting.counts.front() == 1;
        const double tail = identity ? 0.0 : setting.tail_mass;
        const double survival = std::pow(1 - 1e-4, setting.counts.front());
        CHECK_REL(result.infinite_mass, 1 - survival + (pessimistic ? tail : 0.0), 1e-9);
        CHECK(result.truncated_mass == tail);
        if (identity) CHECK((result.masses == plds.front().masses && result.rounding_error == 0));
      }
    }
  }
}

TEST_CASE("[pld] compose: workspaces shared between compositions give the same masses") {
  std::mt19937_64 random(3);
  const DiscretePld a = random_pld(random, -5, 30, 0), b = random_pld(random, 2, 11, 0);
  CompositionWorkspace workspace;
  const auto first = compose({CompositionTerm{&a, 50}}, true, 1e-14, {}, &workspace);
  const auto other = compose({CompositionTerm{&b, 3}, CompositionTerm{&a, 7}}, false, 1e-14, {}, &workspace);
  const auto again = compose({CompositionTerm{&a, 50}}, true, 1e-14, {}, &workspace);
  const auto alone = compose({CompositionTerm{&a, 50}}, true, 1e-14);
  REQUIRE((first.ok() && other.ok() && again.ok() && alone.ok()));
  CHECK(first.value().masses == again.value().masses);
  CHECK(first.value().masses == alone.value().masses);
  CHECK(first.value().rounding_error == alone.value().rounding_error);
}

TEST_CASE("[pld] composed support: log_index_mgf is log E[e^{lambda K}] rounded up, from both ends") {
  std::mt19937_64 random(11);
  const DiscretePld pld = random_pld(random, -7, 25, 0);
  for (double lambda : {-3.0, -0.2, -1e-6, 1e-6, 0.05, 1.0, 40.0}) {
    CAPTURE(lambda);
    long double sum = 0;
    for (std::size_t i = 0; i < pld.masses.size(); ++i) {
      sum +=
          pld.masses[i] * std::exp(static_cast<long double>(lambda) * (pld.lowest_index + static_cast<long double>(i)));
    }
    const double exact = static_cast<double>(std::log(sum));
    const double computed = log_index_mgf(pld, lambda);
    CHECK(computed >= exact);
    CHECK(computed <= exact + 1e-12 * (1 + std::fabs(exact)));
  }
  SUBCASE("a subnormal top mass is summed term by term instead") {
    DiscretePld tiny = pld;
    tiny.masses.back() = 1e-320;
    const double lambda = 1000;  // r = e^-1000 = 0: Horner's sum would be the top mass alone
    long double largest = -INFINITY, sum = 0;
    for (std::size_t i = 0; i < tiny.masses.size(); ++i) {
      largest = std::max(largest, std::log(static_cast<long double>(tiny.masses[i])) +
                                      lambda * (tiny.lowest_index + static_cast<long double>(i)));
    }
    for (std::size_t i = 0; i < tiny.masses.size(); ++i) {
      sum += std::exp(std::log(static_cast<long double>(tiny.masses[i])) +
                      lambda * (tiny.lowest_index + static_cast<long double>(i)) - largest);
    }
    const double exact = static_cast<double>(largest + std::log(sum));
    const double computed = log_index_mgf(tiny, lambda);
    CHECK(computed >= exact);
    CHECK(computed <= exact + 1e-10 * std::fabs(exact));
  }
}
