// Random allocation (balls-and-bins batches) against the peers' numbers and the theory.
// Reference rows (sigma = 1, t = 234 steps per epoch, 10 epochs, delta = 1e-5):
//  * dp_accounting, pull request 414 (google/differential-privacy commit 125d46c),
//    random_allocation.gaussian_allocation_pld(PrivacyParams(sigma=1, num_steps=234, num_selected=1),
//    AllocationSchemeConfig(value_discretization_interval=1e-3), DOMINATES / IS_DOMINATED),
//    self_compose(10), get_epsilon_for_delta(1e-5): upper 1.093488, lower 0.997923 (the
//    PLDAccountant with RandomAllocationDpEvent at that interval gives the same upper).
//  * RA_PLD (moshenfeld/RA_PLD commit 139082d), gaussian_allocation_epsilon_extended with
//    AllocationSchemeConfig(loss_discretization=1e-2) (GEOM convolution, tail_truncation 1e-12),
//    DOMINATES: 1.057455 (numpy 1.24, scipy 1.10 with lognorm.isf computed as exp(s isf_norm), numba 0.56).
//  * Poisson subsampling at q = 1/234 over the same 2340 steps: 1.10091 (dp_accounting PLD, the
//    samplers note); random allocation is below it.
//  * An independent, uncertified estimate of the remove direction (the worse one here): cell-midpoint
//    lattice of step 5e-3, numpy FFT, loss bins of 2e-4 (tests/reference/random_allocation_reference.py):
//    10 epochs 1.047479, one epoch 0.347458, t = 10 and 10 epochs 6.116863.
#include "dpcalc/dpsgd/random_allocation.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "approx.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"

using namespace dpcalc;
using namespace dpcalc::dpsgd;

namespace {
constexpr double kDelta = 1e-5;
constexpr double kDpAccountingUpper = 1.093488;
constexpr double kDpAccountingLower = 0.997923;
constexpr double kRaPldUpperCoarse = 1.057455;
constexpr double kPoisson = 1.10091;

pld::EpsilonBracket bracket_of(double t, double sigma, double epochs, double delta = kDelta, double accuracy = 5e-4) {
  const Result<RandomAllocationEpsilon> answer = random_allocation_epsilon(t, sigma, epochs, delta, accuracy);
  REQUIRE(answer.ok());
  return answer.value().bracket;
}
}  // namespace

TEST_CASE("[random_allocation] worked example: inside the peers' brackets and tighter") {
  const pld::EpsilonBracket b = bracket_of(234, 1, 10);
  CHECK(b.accuracy_met);
  CHECK(b.epsilon_lower <= b.epsilon_upper);
  // Every sound bracket contains the exact value, so ours must meet theirs.
  CHECK(b.epsilon_upper >= kDpAccountingLower);
  CHECK(b.epsilon_lower <= kDpAccountingUpper);
  CHECK(b.epsilon_lower <= kRaPldUpperCoarse);
  // At least as tight as dp_accounting at its 1e-3 grid, and below Poisson.
  CHECK(b.epsilon_upper <= kDpAccountingUpper);
  CHECK(b.epsilon_lower >= kDpAccountingLower);
  CHECK(b.epsilon_upper < kPoisson);
  // The bracket's width meets the accuracy asked for (4 relative_accuracy).
  CHECK(b.epsilon_upper - b.epsilon_lower <= 4 * 5e-4 * b.epsilon_upper);
  // Two accuracies: the finer bracket lies inside the coarser one's range up to its own width.
  const pld::EpsilonBracket fine = bracket_of(234, 1, 10, kDelta, 1e-4);
  CHECK(fine.epsilon_upper - fine.epsilon_lower < b.epsilon_upper - b.epsilon_lower);
  CHECK(fine.epsilon_upper >= b.epsilon_lower);
  CHECK(fine.epsilon_lower <= b.epsilon_upper);
  // Both bracket the independent estimate, 1.047479 (to its own accuracy, ~1e-5).
  CHECK(b.epsilon_lower <= 1.047479 + 1e-5);
  CHECK(b.epsilon_upper >= 1.047479 - 1e-5);
  CHECK(fine.epsilon_lower <= 1.047479 + 1e-5);
  CHECK(fine.epsilon_upper >= 1.047479 - 1e-5);
  CHECK_REL(fine.epsilon_upper, 1.047479, 3e-4);
}

TEST_CASE("[random_allocation] one epoch") {
  const Result<pld::ComposedPlds> epoch =
      random_allocation_epoch_plds(234, 1, RandomAllocationGrid{0.05, 0.005, 1e-14});
  REQUIRE(epoch.ok());
  const pld::EpsilonBracket from_plds = pld::epsilon_bracket(epoch.value(), kDelta);
  const pld::EpsilonBracket b = bracket_of(234, 1, 1);
  CHECK(b.epsilon_lower <= b.epsilon_upper);
  CHECK(from_plds.epsilon_upper >= b.epsilon_lower);
  CHECK(from_plds.epsilon_lower <= b.epsilon_upper);
  CHECK(b.epsilon_upper < bracket_of(234, 1, 10).epsilon_lower);
  // The independent estimate, 0.347458.
  CHECK(b.epsilon_lower <= 0.347458 + 1e-5);
  CHECK(b.epsilon_upper >= 0.347458 - 1e-5);
  CHECK_REL(b.epsilon_upper, 0.347458, 1e-3);
}

TEST_CASE("[random_allocation] one step per epoch is the Gaussian mechanism") {
  // t = 1: the analytic Gaussian at mu = sqrt(E) / sigma (Balle & Wang 2018).
  const double mu = std::sqrt(10.0) / 1.5;
  const Result<RandomAllocationEpsilon> exact = random_allocation_epsilon(1, 1.5, 10, kDelta);
  REQUIRE(exact.ok());
  CHECK(exact.value().exact);
  CHECK(exact.value().bracket.epsilon_upper == gaussian_epsilon_for_delta(mu, kDelta));
  // The lattice route on t = 1 (no special case) brackets the analytic value.
  const Result<pld::ComposedPlds> lattice = random_allocation_plds(1, 1.5, 10, RandomAllocationGrid{2e-3, 2e-3, 1e-14});
  REQUIRE(lattice.ok());
  const pld::EpsilonBracket b = pld::epsilon_bracket(lattice.value(), kDelta);
  const double analytic = gaussian_epsilon_for_delta(mu, kDelta);
  CHECK(b.epsilon_upper >= analytic);
  CHECK(b.epsilon_lower <= analytic);
  CHECK_REL(b.epsilon_upper, analytic, 1e-2);
  CHECK_REL(b.epsilon_lower, analytic, 1e-2);
}

TEST_CASE("[random_allocation] monotone in sigma and epochs, small and huge t") {
  const pld::EpsilonBracket base = bracket_of(234, 1, 10);
  const pld::EpsilonBracket more_noise = bracket_of(234, 1.2, 10);
  const pld::EpsilonBracket more_epochs = bracket_of(234, 1, 20);
  CHECK(more_noise.epsilon_upper < base.epsilon_lower);
  CHECK(more_epochs.epsilon_lower > base.epsilon_upper);
  // More steps per epoch: each example is in a smaller share of them, so epsilon falls.
  const pld::EpsilonBracket few = bracket_of(10, 1, 10);
  CHECK(few.epsilon_lower > base.epsilon_upper);
  CHECK(few.epsilon_lower <= few.epsilon_upper);
  CHECK(few.epsilon_lower <= 6.116863 + 1e-4);  // the independent estimate
  CHECK(few.epsilon_upper >= 6.116863 - 1e-4);
  CHECK_REL(few.epsilon_upper, 6.116863, 5e-3);
  const pld::EpsilonBracket two = bracket_of(2, 1, 10);
  CHECK(two.epsilon_lower <= two.epsilon_upper);
  CHECK(two.epsilon_lower > few.epsilon_upper);
  // Never above the Gaussian without amplification (t = 1 at the same epochs).
  CHECK(two.epsilon_lower <= gaussian_epsilon_for_delta(std::sqrt(10.0), kDelta));
  const pld::EpsilonBracket huge = bracket_of(1e5, 1, 10);
  CHECK(huge.epsilon_lower <= huge.epsilon_upper);
  CHECK(huge.epsilon_upper < base.epsilon_lower);
  CHECK(std::isfinite(huge.epsilon_upper));
}

TEST_CASE("[random_allocation] errors") {
  SUBCASE("parameters") {
    CHECK(random_allocation_epsilon(0, 1, 10, kDelta).error().field == "steps_per_epoch");
    CHECK(random_allocation_epsilon(2.5, 1, 10, kDelta).error().field == "steps_per_epoch");
    CHECK(random_allocation_epsilon(10, -1, 10, kDelta).error().field == "noise_multiplier");
    CHECK(random_allocation_epsilon(10, NAN, 10, kDelta).error().field == "noise_multiplier");
    CHECK(random_allocation_epsilon(10, 1, 0, kDelta).error().field == "epochs");
    CHECK(random_allocation_epsilon(10, 1, 10, 1).error().field == "delta");
    CHECK(random_allocation_epsilon(10, 1, 10, kDelta, 0).error().field == "relative_accuracy");
  }
  SUBCASE("a noise multiplier too small for the grid limits is refused, naming the limit") {
    const Result<RandomAllocationEpsilon> answer = random_allocation_epsilon(234, 0.5, 10, kDelta);
    REQUIRE(!answer.ok());
    CHECK(answer.error().code == kNumeric);
    CHECK(answer.error().message.find("2097152") != std::string::npos);
    CHECK(answer.error().message.find("NaN") == std::string::npos);
  }
  SUBCASE("delta below what the PLDs certify") {
    const Result<RandomAllocationEpsilon> answer = random_allocation_epsilon(234, 1, 10, 1e-12);
    REQUIRE(!answer.ok());
    CHECK(answer.error().code == kInvalidArgument);
    CHECK(answer.error().field == "delta");
  }
}
