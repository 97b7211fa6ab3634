// Poisson subsampling in the model (core/src/mechanisms/poisson_subsampled.cpp): the pair of the
// inner mechanism at the product of the rates, the subsampled Gaussian's Rényi curve, and
// calibration that reaches the inner noise.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "approx.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"
#include "mechanisms_for_tests.hpp"

using dpcalc::mechanisms::Relation;

TEST_CASE("[mechanisms] Poisson subsampling: rates multiply, the inner pair stays") {
  const auto twice =
      test_mechanisms::poisson_subsampled(0.5, test_mechanisms::poisson_subsampled(0.1, test_mechanisms::gaussian(2)));
  const auto pair = twice->pair(Relation::kAddRemove);
  CHECK(pair.sampling_rate == 0.1 * 0.5);
  REQUIRE(std::holds_alternative<dpcalc::pld::GaussianPair>(pair.base));
  CHECK_FALSE(twice->pure_epsilon());
  CHECK_FALSE(twice->gaussian());
  CHECK_FALSE(twice->zcdp());
  // Its Rényi curve is the subsampled Gaussian's at the product of the rates (Mironov, Talwar, Zhang 2019).
  CHECK(*twice->rdp_epsilon(3) == dpcalc::rdp::subsampled_gaussian_rdp(0.05, 2, 3));
  CHECK_FALSE(test_mechanisms::poisson_subsampled(0.5, test_mechanisms::laplace(1))->rdp_epsilon(3));
}

TEST_CASE("[mechanisms] Poisson subsampling: a group of k sees J ~ Binomial(k, q) of its records") {
  // Schuchardt et al. 2024: P = Σ_j C(3, j) 0.1^j 0.9^(3−j) N(jΔ, σ²) against N(0, σ²); the binomial
  // weights 0.729, 0.243, 0.027, 0.001 are exact decimals.
  const auto grouped = test_mechanisms::poisson_subsampled(0.1, test_mechanisms::gaussian(2, 0.5))->for_group(3);
  REQUIRE(grouped.ok());
  const auto add_remove = grouped.value()->pair(Relation::kAddRemove);
  const auto& mixture = std::get<dpcalc::pld::MixtureVsGaussianPair>(add_remove.base);
  CHECK(mixture.sigma == 2);
  CHECK(mixture.shifts == std::vector<double>{0, 0.5, 1, 1.5});
  const std::vector<double> expected{0.729, 0.243, 0.027, 0.001};
  for (std::size_t j = 0; j < expected.size(); ++j) CHECK_REL(mixture.weights[j], expected[j], 1e-14);
  // Substitution: the same weights at −jΔ under Q.
  const auto substitute = grouped.value()->pair(Relation::kSubstitute);
  const auto& mixtures = std::get<dpcalc::pld::MixtureVsMixturePair>(substitute.base);
  CHECK(mixtures.q_shifts == std::vector<double>{0, -0.5, -1, -1.5});
  CHECK(mixtures.q_weights == mixtures.p_weights);
}

TEST_CASE("[mechanisms] Poisson subsampling: a group under Laplace noise is a Laplace mixture") {
  // The same binomial weights at jΔ, Laplace components against Lap(0, b), add/remove only (as the
  // subsampled mechanism itself).
  const auto subsampled = test_mechanisms::poisson_subsampled(0.1, test_mechanisms::laplace(2, 0.5));
  const auto grouped = subsampled->for_group(3);
  REQUIRE(grouped.ok());
  CHECK(grouped.value()->supports(Relation::kAddRemove));
  CHECK_FALSE(grouped.value()->supports(Relation::kSubstitute));
  const auto pair = grouped.value()->pair(Relation::kAddRemove);
  const auto& mixture = std::get<dpcalc::pld::LaplaceMixturePair>(pair.base);
  CHECK(mixture.scale == 2);
  CHECK(mixture.shifts == std::vector<double>{0, 0.5, 1, 1.5});
  const std::vector<double> expected{0.729, 0.243, 0.027, 0.001};
  for (std::size_t j = 0; j < expected.size(); ++j) CHECK_REL(mixture.weights[j], expected[j], 1e-14);
  CHECK(std::string(subsampled->group_method().method).find("Laplace mixture") != std::string::npos);
  CHECK(std::string(test_mechanisms::poisson_subsampled(0.1, test_mechanisms::gaussian(1))->group_method().method)
            .find("Gaussian mixture") != std::string::npos);
  // Nested subsampling keeps a record with the product of the rates.
  const auto nested = test_mechanisms::poisson_subsampled(0.5, subsampled)->for_group(2);
  REQUIRE(nested.ok());
  const auto nested_pair = nested.value()->pair(Relation::kAddRemove);
  const auto& inner = std::get<dpcalc::pld::LaplaceMixturePair>(nested_pair.base);
  CHECK_REL(inner.weights[2], 0.05 * 0.05, 1e-14);
  // Other noise inside has no group transform: unsupported on the mechanism's type (op 'group' answers
  // it over its privacy profile, tests/core/api/group_profile_test.cpp), and no limit on k.
  const auto other = test_mechanisms::poisson_subsampled(0.1, test_mechanisms::exponential(1))->for_group(3);
  REQUIRE_FALSE(other.ok());
  CHECK(other.error().code == "unsupported");
  CHECK(test_mechanisms::poisson_subsampled(0.1, test_mechanisms::exponential(1))->max_group_size() ==
        dpcalc::kMaxCount);
  CHECK(test_mechanisms::poisson_subsampled(0.1, test_mechanisms::laplace(1))->max_group_size() == 100000);
}

TEST_CASE("[mechanisms] Poisson subsampling: calibration sets the inner noise") {
  const auto subsampled = test_mechanisms::poisson_subsampled(0.01, test_mechanisms::gaussian(1, 2));
  REQUIRE(subsampled->calibratable().size() == 2);
  CHECK(subsampled->sensitivity() == 2);
  const auto noisier = subsampled->with_noise("noise_multiplier", 3);
  REQUIRE(noisier.ok());
  const auto pair = noisier.value()->pair(Relation::kAddRemove);
  CHECK(std::get<dpcalc::pld::GaussianPair>(pair.base).sigma == 6);
  CHECK(pair.sampling_rate == 0.01);
}

namespace {

// Binary randomized response at ε = 1: a mechanism known only by its finite pair and pure ε (the
// shape of the discrete mechanisms), to subsample here.
class BinaryResponse final : public dpcalc::mechanisms::Mechanism {
 public:
  using Mechanism::Mechanism;
  bool has_pair(Relation) const override { return true; }
  dpcalc::pld::DominatingPair pair_under(Relation) const override {
    const double e = std::exp(1.0);
    return {dpcalc::pld::FinitePair{{e / (1 + e), 1 / (1 + e)}, {1 / (1 + e), e / (1 + e)}}, 1.0};
  }
  std::optional<double> pure_epsilon() const override { return 1.0; }
};

dpcalc::Result<dpcalc::mechanisms::MechanismPtr> create_binary(const dpcalc::mechanisms::Arguments& arguments);

const dpcalc::mechanisms::MechanismType binary_type{"binary", "binary response", "", {}, {}, create_binary};

dpcalc::Result<dpcalc::mechanisms::MechanismPtr> create_binary(const dpcalc::mechanisms::Arguments& arguments) {
  return dpcalc::mechanisms::MechanismPtr{std::make_shared<BinaryResponse>(binary_type, arguments)};
}

}  // namespace

TEST_CASE("[mechanisms] Poisson subsampling of a finite pair: both directions, composed") {
  const auto subsampled = test_mechanisms::poisson_subsampled(0.1, test_mechanisms::made(binary_type, {}));
  CHECK(subsampled->supports(Relation::kAddRemove));
  CHECK_FALSE(subsampled->supports(Relation::kSubstitute));
  // subsampling_reference.py (mpmath): ln(1 + 0.1 (e − 1)) = 0.15856507874042911 (Balle, Barthe,
  // Gaboardi 2018), rounded up; ε at δ = 1e-5 after 1 and 100 uses is the larger direction's, exact
  // binomial sums: remove 0.158533347631075 (add 0.0652846571108664), remove 4.73235464450878 (add
  // 4.02937295565612).
  check_upper_bound(*subsampled->pure_epsilon(), 0.15856507874042911, 1e-15);
  for (const auto& [count, exact] :
       std::vector<std::pair<double, double>>{{1, 0.158533347631075}, {100, 4.73235464450878}}) {
    const auto answer = dpcalc::pld::epsilon_for_delta({{subsampled->pair(Relation::kAddRemove), count}}, 1e-5);
    REQUIRE(answer.ok());
    CHECK(answer.value().epsilon_upper >= exact);
    CHECK(answer.value().epsilon_lower <= exact);
    CHECK(answer.value().epsilon_upper <= exact * 1.005);
  }
  // Subsampling Laplace noise: pure ε amplified the same way, the Laplace pair at the rate.
  check_upper_bound(*test_mechanisms::poisson_subsampled(0.1, test_mechanisms::laplace(1))->pure_epsilon(),
                    0.15856507874042911, 1e-15);
  // Monotone in the rate and in the count.
  const auto denser = test_mechanisms::poisson_subsampled(0.2, test_mechanisms::made(binary_type, {}));
  auto epsilon = [](const dpcalc::mechanisms::MechanismPtr& mechanism, double count) {
    return dpcalc::pld::epsilon_for_delta({{mechanism->pair(Relation::kAddRemove), count}}, 1e-5).value().epsilon_upper;
  };
  CHECK(epsilon(denser, 100) > epsilon(subsampled, 100));
  CHECK(epsilon(subsampled, 101) > epsilon(subsampled, 100));
}
