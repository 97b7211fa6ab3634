// Properties of the DP-SGD group accountant (dpcalc/dpsgd): the inclusion weights, k = 1 against the
// plain Poisson-subsampled Gaussian, monotonicity, the order of the methods, calibration, errors.
#include <doctest/doctest.h>

#include <cmath>

#include "approx.hpp"
#include "dpcalc/dpsgd/group_accountant.hpp"
#include "dpcalc/dpsgd/pair_density.hpp"
#include "dpcalc/dpsgd/training_calibration.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "trainings_for_tests.hpp"

using namespace dpcalc;
using namespace dpcalc::dpsgd;

namespace {

using test_trainings::bounds_of;
using test_trainings::fixed_batch;
using test_trainings::poisson;

double tight(const GroupSetting& s, double sigma, double steps, double delta = 1e-5) {
  const auto result = bounds_of(s, sigma, steps, delta);
  REQUIRE(result.ok());
  return *result.value().epsilon_upper;
}

std::string field_of(const Result<SamplerBounds>& r) { return r.ok() ? std::string("ok") : r.error().field; }

}  // namespace

TEST_CASE("[dpsgd] inclusion weights") {
  SUBCASE("Sommer's k = 2 formulas for fixed batches") {
    // Sommer 2021: Pr[both] = B/N (B-1)/(N-1), Pr[none] = (1 - B/N)(1 - (B-1)/(N-1))... written out
    // exactly as C(k,j) C(N-k,B-j)/C(N,B) with N = 60000, B = 256.
    const auto log_pmf = log_inclusion_pmf(fixed_batch(60000, 256, 2));
    const double n = 60000, b = 256;
    CHECK_REL(std::exp(log_pmf[2]), b / n * (b - 1) / (n - 1), 1e-13);
    CHECK_REL(std::exp(log_pmf[0]), (n - b) / n * (n - b - 1) / (n - 1), 1e-13);
    CHECK_REL(std::exp(log_pmf[1]), 2 * b * (n - b) / (n * (n - 1)), 1e-13);
  }
  SUBCASE("N = 1e9, k = 1000: weights sum to 1, mean k B / N") {
    const auto log_pmf = log_inclusion_pmf(fixed_batch(1e9, 1e6, 1000));
    double total = 0, mean = 0;
    for (std::size_t j = 0; j < log_pmf.size(); ++j) {
      total += std::exp(log_pmf[j]);
      mean += j * std::exp(log_pmf[j]);
    }
    CHECK_REL(total, 1.0, 1e-12);
    CHECK_REL(mean, 1.0, 1e-10);  // E[J] = k B / N = 1 (hypergeometric mean)
    // Pr[J = 0] = prod_{i<k} (1 - B/(N-i)); for these numbers about e^{-1.0005}.
    CHECK(std::exp(log_pmf[0]) == doctest::Approx(std::exp(-1.0005)).epsilon(1e-3));
  }
  SUBCASE("batch beyond N - k: the support starts above 0") {
    const auto log_pmf = log_inclusion_pmf(fixed_batch(10, 9, 3));
    CHECK(std::isinf(log_pmf[0]));
    CHECK(std::isinf(log_pmf[1]));
    CHECK_REL(std::exp(log_pmf[2]), 3.0 / 10.0, 1e-12);  // C(3,2) C(7,7) / C(10,9)
    CHECK_REL(std::exp(log_pmf[3]), 7.0 / 10.0, 1e-12);
  }
  SUBCASE("Poisson: binomial") {
    const auto log_pmf = log_inclusion_pmf(poisson(0.1, 3));
    CHECK_REL(std::exp(log_pmf[0]), 0.729, 1e-13);
    CHECK_REL(std::exp(log_pmf[1]), 0.243, 1e-13);
    CHECK_REL(std::exp(log_pmf[3]), 0.001, 1e-12);
    CHECK_REL(group_sampling_probability(poisson(0.1, 3)), 0.271, 1e-13);
  }
}

TEST_CASE("[dpsgd] k = 1 with Poisson sampling is the plain Poisson-subsampled Gaussian") {
  for (double sigma : {0.8, 1.1, 2.0}) {
    const pld::DominatingPair plain{pld::GaussianPair{sigma, 1}, 0.01};
    const auto expected = pld::epsilon_for_delta({pld::CompositionItem{plain, 1000}}, 1e-5);
    REQUIRE(expected.ok());
    CHECK_REL(tight(poisson(0.01, 1), sigma, 1000), expected.value().epsilon_upper,
              1e-6);  // same pair, components summed in another order
  }
}

TEST_CASE("[dpsgd] monotone in k, T, q and sigma; tight below the other methods") {
  const GroupSetting base = fixed_batch(60000, 256, 3);
  CHECK(tight(base, 1.5, 100) < tight(fixed_batch(60000, 256, 4), 1.5, 100));
  CHECK(tight(base, 1.5, 100) < tight(base, 1.5, 200));
  CHECK(tight(base, 1.5, 100) < tight(fixed_batch(60000, 512, 3), 1.5, 100));
  CHECK(tight(base, 1.5, 100) > tight(base, 1.6, 100));
  CHECK(tight(poisson(0.01, 2), 1.5, 100) < tight(poisson(0.02, 2), 1.5, 100));
  for (double k : {2.0, 3.0, 5.0}) {
    for (double sigma : {1.0, 2.0, 4.0}) {
      CAPTURE(k);
      CAPTURE(sigma);
      const GroupSetting setting = fixed_batch(60000, 256, k);
      const auto bounds = bounds_of(setting, sigma, 1024, 1e-5);
      REQUIRE(bounds.ok());
      const auto one = bounds_of(fixed_batch(60000, 256, 1), sigma, 1024, 1e-5);
      REQUIRE(one.ok());
      const ComparedMethods g = compared_methods(setting, sigma, 1024, 1e-5, *one.value().epsilon_upper);
      REQUIRE(g.rdp_overapprox.has_value());
      CHECK(*bounds.value().epsilon_upper <= g.rdp_overapprox->epsilon);
      // The generic bound holds at its own, larger delta: compare the tight bound there.
      if (g.generic_group.delta < 1) {
        CHECK(tight(fixed_batch(60000, 256, k), sigma, 1024, g.generic_group.delta) <= g.generic_group.epsilon);
      }
      CHECK(*bounds.value().epsilon_lower <= *bounds.value().epsilon_upper);
    }
  }
}

TEST_CASE("[dpsgd] substitution: the double mixture") {
  GroupSetting substitute = poisson(0.01, 2);
  substitute.relation = Relation::kSubstitute;
  const double replaced = tight(substitute, 2.0, 100);
  // Replacing 2 examples is at least as revealing as adding 2, and at most as revealing as adding
  // 4 (a substitution is a removal and an addition: group of 2k under add/remove).
  CHECK(replaced > tight(poisson(0.01, 2), 2.0, 100));
  CHECK(replaced < tight(poisson(0.01, 4), 2.0, 100));
  // k = 1, q = 1: N(1, s^2) vs N(-1, s^2) is the Gaussian mechanism at sensitivity 2.
  GroupSetting full = poisson(1, 1);
  full.relation = Relation::kSubstitute;
  const pld::DominatingPair gaussian{pld::GaussianPair{3.0, 2}, 1};
  const auto expected = pld::epsilon_for_delta({pld::CompositionItem{gaussian, 10}}, 1e-6);
  REQUIRE(expected.ok());
  CHECK_REL(tight(full, 3.0, 10, 1e-6), expected.value().epsilon_upper, 1e-3);
}

TEST_CASE("[dpsgd] large groups build fast enough to test: k = 256, N = 1e6, B = 1024") {
  const auto result = bounds_of(fixed_batch(1e6, 1024, 256), 2.0, 1e4, 1e-5);
  REQUIRE(result.ok());
  CHECK(*result.value().epsilon_lower <= *result.value().epsilon_upper);
  CHECK(*result.value().epsilon_upper < tight(fixed_batch(1e6, 1024, 300), 2.0, 1e4));
}

TEST_CASE("[dpsgd] calibration meets the target within 1%") {
  const GroupSetting setting = fixed_batch(60000, 256, 4);
  const auto training = test_trainings::training_of(setting, 1, 2000);
  REQUIRE(training.ok());
  const auto result = calibrate(fixed_batch_sampler(), training.value(), 1e-5, 2.0);
  REQUIRE(result.ok());
  const Calibration& c = result.value();
  CHECK(*c.bounds.epsilon_upper <= 2.0);
  CHECK(*c.bounds.epsilon_upper >= 0.99 * 2.0);
  // Composing the answer back gives the same sound bound.
  CHECK(tight(setting, c.noise_multiplier, 2000) <= 2.0);
  CHECK(c.rule_of_thumb_noise_multiplier > 0);
  REQUIRE(c.rule_of_thumb.has_value());
  CHECK(*c.rule_of_thumb->epsilon_upper > 0);
}

TEST_CASE("[dpsgd] errors name the field") {
  CHECK(field_of(bounds_of(fixed_batch(10, 5, 11), 1, 1, 1e-5)) == "group_size");
  CHECK(field_of(bounds_of(fixed_batch(10, 11, 1), 1, 1, 1e-5)) == "batch_size");
  CHECK(field_of(bounds_of(fixed_batch(10.5, 5, 1), 1, 1, 1e-5)) == "dataset_size");
  CHECK(field_of(bounds_of(poisson(0, 1), 1, 1, 1e-5)) == "sampling_rate");
  CHECK(field_of(bounds_of(poisson(1.5, 1), 1, 1, 1e-5)) == "sampling_rate");
  CHECK(field_of(bounds_of(poisson(0.1, 0), 1, 1, 1e-5)) == "group_size");
  CHECK(field_of(bounds_of(poisson(0.1, 2.5), 1, 1, 1e-5)) == "group_size");
  CHECK(field_of(bounds_of(poisson(0.1, 1), std::nan(""), 1, 1e-5)) == "noise_multiplier");
  CHECK(field_of(bounds_of(poisson(0.1, 1), 1, 1e17, 1e-5)) == "steps");
  const auto unreachable_training = test_trainings::training_of(poisson(0.5, 50), 1, 1e4);
  REQUIRE(unreachable_training.ok());
  const auto unreachable = calibrate(poisson_sampler(), unreachable_training.value(), 1e-5, 1e-4);
  REQUIRE(!unreachable.ok());
  CHECK(unreachable.error().field == "target_epsilon");
}

TEST_CASE("[dpsgd] the worst-case pair's densities at k = 5, σ = 0.1 (the DP-SGD write-up's first figure)") {
  // mpmath, 30 digits: P(x) = Σ_j C(5, j) q^j (1 − q)^(5−j) N(x; j, σ²), Q(x) = N(x; 0, σ²) (add/remove)
  // or Σ_j C(5, j) q^j (1 − q)^(5−j) N(x; −j, σ²) (substitution), q = 0.01, σ = 0.1.
  struct Expected {
    std::size_t index;
    double x, p, q;
  };
  GroupSetting setting = poisson(0.01, 5);
  // Add/remove: x from −0.4 to 5.4 in steps of 0.1 (59 points).
  auto pair = pair_densities(setting, 0.1, 59);
  REQUIRE(pair.ok());
  for (const Expected& e : {Expected{1, -0.3, 0.042146437424181612, 0.044318484119380072},
                            Expected{4, 0, 3.7939013914617825, 3.9894228040143268},
                            Expected{24, 2, 0.0038709329573122973, 5.5209483621597632e-87}}) {
    CAPTURE(e.x);
    CHECK(std::fabs(pair.value().x[e.index] - e.x) < 1e-14);
    CHECK_REL(pair.value().p[e.index], e.p, 1e-12);
    CHECK_REL(pair.value().q[e.index], e.q, 1e-12);
  }
  // Substitution: x from −5.4 to 5.4 (109 points).
  setting.relation = Relation::kSubstitute;
  pair = pair_densities(setting, 0.1, 109);
  REQUIRE(pair.ok());
  for (const Expected& e : {Expected{51, -0.3, 0.042146437424181612, 0.042146437428569},
                            Expected{54, 0, 3.7939013914617825, 3.7939013914617825},
                            Expected{74, 2, 0.0038709329573122973, 5.2503669584256365e-87}}) {
    CAPTURE(e.x);
    CHECK(std::fabs(pair.value().x[e.index] - e.x) < 1e-14);
    CHECK_REL(pair.value().p[e.index], e.p, 1e-12);
    CHECK_REL(pair.value().q[e.index], e.q, 1e-12);
  }
  CHECK(pair_densities(setting, 0.1, 1).error().field == "points");
  CHECK(pair_densities(setting, 0, 161).error().field == "noise_multiplier");
  // A noise multiplier of 1e308 put the plotted range beyond the doubles (found by the fuzz test).
  CHECK(pair_densities(setting, 1e308, 161).error().field == "noise_multiplier");
  CHECK(pair_densities(setting, 1e300, 3).ok());
}
