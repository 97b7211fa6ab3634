// Sampling without replacement in the model (core/src/mechanisms/sampled_without_replacement.cpp):
// substitution only, the inner pair at rate m/n for the PLD engine, the Rényi curve of the Gaussian
// inside against dp_accounting 0.6.0, and the amplified pure ε. Reference values:
// tests/reference/subsampling_reference.py.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>

#include "approx.hpp"
#include "dpcalc/mechanisms/sampling.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/rdp/accountant.hpp"
#include "dpcalc/rdp/sampled_without_replacement_rdp.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"
#include "mechanisms_for_tests.hpp"

using dpcalc::mechanisms::Relation;

TEST_CASE("[mechanisms] sampling without replacement: substitution only, the inner pair at rate m/n") {
  const auto sampled = test_mechanisms::sampled_without_replacement(60000, 256, test_mechanisms::gaussian(1.1));
  CHECK(sampled->supports(Relation::kSubstitute));
  CHECK_FALSE(sampled->supports(Relation::kAddRemove));
  CHECK_FALSE(test_mechanisms::sampled_without_replacement(
                  10, 2, test_mechanisms::poisson_subsampled(0.5, test_mechanisms::gaussian(1)))
                  ->supports(Relation::kSubstitute));
  const auto pair = sampled->pair(Relation::kSubstitute);
  CHECK(pair.sampling_rate >= 256.0 / 60000);
  CHECK(pair.sampling_rate <= std::nextafter(256.0 / 60000, 1.0));  // m/n rounded up
  CHECK(std::get<dpcalc::pld::GaussianPair>(pair.base).sigma == 1.1);
  // Sampling twice without replacement samples m₂ of n: the rates multiply.
  const auto twice = test_mechanisms::sampled_without_replacement(
      100, 10, test_mechanisms::sampled_without_replacement(10, 5, test_mechanisms::laplace(1)));
  CHECK_REL(twice->pair(Relation::kSubstitute).sampling_rate, 0.05, 1e-15);
}

TEST_CASE("[mechanisms] sampling without replacement: Rényi DP of the Gaussian inside, as dp_accounting") {
  const auto sampled = test_mechanisms::sampled_without_replacement(60000, 256, test_mechanisms::gaussian(1.1));
  // dp_accounting 0.6.0, _compute_rdp_sample_wor_gaussian_scalar(256/60000, 1.1, order)
  // (Wang, Balle, Kasiviswanathan 2019, Thm 27).
  const std::vector<std::pair<double, double>> expected{{1.5, 8.319752726513772e-05}, {2, 8.319752726513772e-05},
                                                        {3, 0.00012571256984226983},  {10.5, 0.0004680330092945423},
                                                        {32, 7.612547932687499},      {256, 100.3095200987815},
                                                        {300, 118.49408739345316}};
  for (const auto& [order, epsilon] : expected) CHECK_REL(*sampled->rdp_epsilon(order), epsilon, 1e-6);
  // Its RDP accountant, 1000 steps, δ = 1e-5: ε = 1.2786376511282933.
  const auto orders = dpcalc::rdp::default_orders();
  const auto curve = dpcalc::rdp::compose({{sampled, 1000}}, orders);
  const auto rdp_answer = dpcalc::rdp::to_approx(orders, curve, 1e-5);
  REQUIRE(rdp_answer.ok());
  CHECK_REL(rdp_answer.value().guarantee.epsilon, 1.2786376511282933, 1e-6);
  // The PLD of the dominating pair (Zhu, Dong, Wang 2022) is tighter than the RDP route.
  const auto pld_answer = dpcalc::pld::epsilon_for_delta({{sampled->pair(Relation::kSubstitute), 1000}}, 1e-5);
  REQUIRE(pld_answer.ok());
  CHECK(pld_answer.value().epsilon_upper < 1.2786376511282933);
  // It is the pair of Poisson subsampling at the same rate 256/60000 (under add/remove), whose
  // ε = 0.5987026623130971 dp_accounting's PLD accountant gives (/work/shared/references/
  // public_values.json, dpsgd_poisson_subsampled_gaussian, σ = 1.1, 1000 steps).
  CHECK_REL(pld_answer.value().epsilon_upper, 0.5987026623130971, 1e-3);
  // Monotone in the noise, the count and the sample size.
  const auto noisier = test_mechanisms::sampled_without_replacement(60000, 256, test_mechanisms::gaussian(1.3));
  const auto larger = test_mechanisms::sampled_without_replacement(60000, 512, test_mechanisms::gaussian(1.1));
  auto epsilon = [](const dpcalc::mechanisms::MechanismPtr& mechanism, double count) {
    return dpcalc::pld::epsilon_for_delta({{mechanism->pair(Relation::kSubstitute), count}}, 1e-5)
        .value()
        .epsilon_upper;
  };
  CHECK(epsilon(noisier, 1000) < pld_answer.value().epsilon_upper);
  CHECK(epsilon(larger, 1000) > pld_answer.value().epsilon_upper);
  CHECK(epsilon(sampled, 1001) > pld_answer.value().epsilon_upper);
  // Another inner curve: Wang, Balle, Kasiviswanathan 2019, Thm 9 around the Laplace curve at rate
  // 2/10 (mpmath, tests/reference/rdp_mechanisms_reference.py swor).
  const auto laplace_inside = test_mechanisms::sampled_without_replacement(10, 2, test_mechanisms::laplace(1));
  CHECK_REL(*laplace_inside->rdp_epsilon(2), 0.12854091140241819, 1e-9);
  CHECK(std::string(laplace_inside->rdp_method().method) == dpcalc::rdp::kSampledWithoutReplacementRdp.method);
  CHECK(std::string(sampled->rdp_method().method) == dpcalc::rdp::kSampledWithoutReplacementGaussianRdp.method);
}

TEST_CASE("[mechanisms] sampling without replacement: amplified pure ε, calibration, checks") {
  // ln(1 + 0.1 (e − 1)) = 0.15856507874042911 (mpmath), rounded up.
  const auto sampled = test_mechanisms::sampled_without_replacement(10, 1, test_mechanisms::laplace(1));
  check_upper_bound(*sampled->pure_epsilon(), 0.15856507874042911, 1e-15);
  CHECK_FALSE(test_mechanisms::sampled_without_replacement(10, 1, test_mechanisms::gaussian(1))->pure_epsilon());
  const auto noisier = sampled->with_noise("scale", 2);
  REQUIRE(noisier.ok());
  CHECK(std::get<dpcalc::pld::LaplacePair>(noisier.value()->pair(Relation::kSubstitute).base).scale == 2);

  dpcalc::mechanisms::Arguments arguments;
  arguments.mechanisms = {{"mechanism", test_mechanisms::laplace(1)}};
  const std::vector<std::tuple<double, double, std::string>> bad{{0, 1, "dataset_size"},
                                                                 {10.5, 1, "dataset_size"},
                                                                 {10, 0, "sample_size"},
                                                                 {10, 11, "sample_size"},
                                                                 {10, 2.5, "sample_size"}};
  for (const auto& [n, m, field] : bad) {
    arguments.numbers = {{"dataset_size", n}, {"sample_size", m}};
    const auto refused = dpcalc::mechanisms::create(dpcalc::mechanisms::sampled_without_replacement_type(), arguments);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().field == field);
  }
}

// Op 'group' answers it by group privacy over its privacy profile (tests/core/api/group_profile_test.cpp).
TEST_CASE("[mechanisms] sampling without replacement: no group transform, saying which sampling has one") {
  const auto sampled = test_mechanisms::sampled_without_replacement(60000, 256, test_mechanisms::gaussian(1.1));
  const auto group = sampled->for_group(4);
  REQUIRE_FALSE(group.ok());
  CHECK(group.error().code == dpcalc::kUnsupported);
  CHECK(group.error().message.find("poisson_subsampled") != std::string::npos);
}

TEST_CASE("[mechanisms] group inclusion without replacement: a sample of all but s records, at any population") {
  // J ~ Hypergeometric(n, k, m) with s = n − m < k left out: Pr[J = k − s] = C(k, s)/C(n, s), the
  // rest by the ratio recursion. n = 2^53, m = n − 1, k = 2: Pr[J = 1] = 2/n, Pr[J = 2] = 1 − 2/n
  // (by hand). n = 10, m = 8, k = 3: Pr[J = 1] = 1/15, Pr[J = 2] = 7/15, Pr[J = 3] = 7/15 (by hand:
  // C(3,j) C(7,8−j) / C(10,8)).
  using dpcalc::mechanisms::SampleDraw;
  const double n = 9007199254740992.0;
  const auto huge = dpcalc::mechanisms::group_inclusion_log_pmf(SampleDraw::without_replacement(n, n - 1), 2);
  REQUIRE(huge.size() == 3);
  CHECK(huge[0] == -std::numeric_limits<double>::infinity());
  CHECK_REL(huge[1], std::log(2 / n), 1e-14);
  CHECK(std::fabs(huge[2]) < 1e-14);
  const auto small = dpcalc::mechanisms::group_inclusion_log_pmf(SampleDraw::without_replacement(10, 8), 3);
  REQUIRE(small.size() == 4);
  CHECK_REL(std::exp(small[1]), 1.0 / 15, 1e-14);
  CHECK_REL(std::exp(small[2]), 7.0 / 15, 1e-14);
  CHECK_REL(std::exp(small[3]), 7.0 / 15, 1e-14);
}
