// Poisson subsampling in the model (core/src/mechanisms/poisson_subsampled.cpp): the pair of the
// inner mechanism at the product of the rates, the subsampled Gaussian's Rényi curve, and
// calibration that reaches the inner noise.
#include <doctest/doctest.h>

#include "approx.hpp"
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
  CHECK_FALSE(test_mechanisms::poisson_subsampled(0.1, test_mechanisms::laplace(1))->for_group(3).ok());
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
