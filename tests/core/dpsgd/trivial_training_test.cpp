// Trainings that need no accounting (dpsgd/trivial_training.hpp): a sampling rate of 0, and Poisson
// sampling without noise. The chances P = 1 − (1 − q)^(k·T) are mpmath's at 40 digits, with q the
// double nearest the rate given (mpmath.mpf(0.01)).
#include "dpcalc/dpsgd/trivial_training.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <string>

using namespace dpcalc;
using namespace dpcalc::dpsgd;

namespace {

Phase poisson_phase(double rate, double noise, double steps) {
  Phase phase;
  phase.batches.sampling_rate = rate;
  phase.noise_multiplier = noise;
  phase.steps = steps;
  return phase;
}

Training training_of(std::vector<Phase> phases, double group_size = 1) {
  Training training;
  training.phases = std::move(phases);
  training.group_size = group_size;
  return training;
}

}  // namespace

TEST_CASE("[trivial training] a sampling rate of 0 reads no example: ε = 0 exactly, for any sampler and group") {
  for (const Sampler* sampler : {&poisson_sampler(), &truncated_poisson_sampler(), &cyclic_poisson_sampler()}) {
    CAPTURE(sampler->name());
    const auto bounds = trivial_bounds(*sampler, training_of({poisson_phase(0, 1, 100)}, 5), 1e-9).value();
    REQUIRE(bounds);
    CHECK(*bounds->epsilon_upper == 0);
    CHECK(*bounds->epsilon_lower == 0);
  }
  // Beside a phase that reads examples, a phase at rate 0 drops out; a noisy training is the sampler's to answer.
  const Training mixed = training_of({poisson_phase(0.01, 1, 100), poisson_phase(0, 1, 10)});
  CHECK(without_unread_phases(mixed).phases.size() == 1);
  CHECK_FALSE(trivial_bounds(poisson_sampler(), mixed, 1e-5).value());
}

TEST_CASE("[trivial training] Poisson without noise: no finite ε below P, ε = 0 at or above it") {
  // k = 3, q = 0.01, T = 100: P = 0.9509591059287141471862738334294758593001.
  const auto group = trivial_bounds(poisson_sampler(), training_of({poisson_phase(0.01, 0, 100)}, 3), 1e-5).value();
  REQUIRE(group);
  CHECK(std::isinf(*group->epsilon_upper));
  CHECK(std::isinf(*group->epsilon_lower));
  CHECK(group->note.find("0.950959105928714") != std::string::npos);
  // k = 1, q = 1e-9, T = 100: P = 9.999999505000016792815460796533571463646e-8 ≤ δ = 1e-7 < 1.0000001e-7.
  const Training rare = training_of({poisson_phase(1e-9, 0, 100)});
  const auto above = trivial_bounds(poisson_sampler(), rare, 1e-7).value();
  REQUIRE(above);
  CHECK(*above->epsilon_upper == 0);
  const auto below = trivial_bounds(poisson_sampler(), rare, 9.99999e-8).value();
  REQUIRE(below);
  CHECK(std::isinf(*below->epsilon_upper));
  // δ = P itself (q = 0.01, T = 1: P is the double 0.01) lies inside P's rounding bracket: no finite ε
  // is claimed, and no lower bound either.
  const auto at = trivial_bounds(poisson_sampler(), training_of({poisson_phase(0.01, 0, 1)}), 0.01).value();
  REQUIRE(at);
  CHECK(std::isinf(*at->epsilon_upper));
  CHECK_FALSE(at->epsilon_lower);
}

TEST_CASE("[trivial training] a noise-free phase beside noisy ones: vacuous below its P, refused above") {
  // The noise-free phase alone: q = 0.01, T = 10, P = 0.09561792499119551189163977790350400721074.
  const Training schedule = training_of({poisson_phase(0.01, 1, 100), poisson_phase(0.01, 0, 10)});
  const auto below = trivial_bounds(poisson_sampler(), schedule, 0.0956).value();
  REQUIRE(below);
  CHECK(std::isinf(*below->epsilon_upper));
  CHECK(std::isinf(*below->epsilon_lower));
  const auto above = trivial_bounds(poisson_sampler(), schedule, 0.0957);
  REQUIRE_FALSE(above.ok());
  CHECK(above.error().field == "noise_multiplier");
  CHECK(above.error().item == 1);  // the phase without noise
}

TEST_CASE("[trivial training] no noise under another sampler is refused on noise_multiplier") {
  Phase phase;
  phase.batches.dataset_size = 1000;
  phase.batches.batch_size = 10;
  phase.steps = 100;
  const auto refused = trivial_bounds(shuffle_sampler(), training_of({phase}), 1e-5);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().field == "noise_multiplier");
  CHECK(refused.error().message.find("'shuffle'") != std::string::npos);
}
