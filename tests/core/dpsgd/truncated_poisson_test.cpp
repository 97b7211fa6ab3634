// Truncated Poisson sampling (dpsgd/truncated_poisson.hpp) against dp_accounting and mpmath.
// Reference values: tests/reference/truncated_poisson_reference.py, which runs dp_accounting from source
// (google/differential-privacy commit b5b0286e313b64a692abfc8c528d54ef47d960a0) and mpmath at 40 digits.
// Setting of every row: N = 60000, q = 256/N, σ = 1, 2344 steps, δ = 1e-5.
#include "dpcalc/dpsgd/truncated_poisson.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "approx.hpp"
#include "dpcalc/log_math.hpp"

using namespace dpcalc;
using namespace dpcalc::dpsgd;

namespace {

constexpr double kN = 60000, kQ = 256.0 / 60000, kSteps = 2344, kDelta = 1e-5;

TruncatedPoissonSetting setting(double cap, Relation relation = Relation::kZeroOut) {
  return TruncatedPoissonSetting{kN, kQ, cap, relation};
}

// The bracket holds a reference that is itself an upper estimate (dp_accounting, connect the dots,
// pessimistic, step 1e-4): the lower end below it, the upper end within 1e-3 of it.
void check_bracket(const pld::EpsilonBracket& bracket, double reference) {
  CHECK(bracket.epsilon_lower <= reference);
  CHECK_REL(bracket.epsilon_upper, reference, 1e-3);
}

}  // namespace

TEST_CASE("[samplers] truncated Poisson: the probabilities of the analysis against mpmath") {
  struct Row {
    double cap, truncation, conditional, inclusion;
  };
  // mpmath at 40 digits: w = Pr[Bin(N-1, q) >= C], ρ = C Pr[Bin(N, q) >= C+1]/(N w),
  // q_in = q (1 - w) + C Pr[Bin(N, q) >= C+1]/N, which equals E[min(Bin(N, q), C)]/N summed term by term.
  const Row rows[] = {{512, 2.276125826295006e-45, 0.0042502598927674095, 0.0042666666666666669},
                      {384, 4.8861698546878841e-14, 0.0042346640430820232, 0.0042666666666666653},
                      {307, 0.0010438541860111137, 0.0041957790125637794, 0.0042665926702921951},
                      {281, 0.064061509324316942, 0.0041543876259293318, 0.0042594739018515467}};
  for (const Row& row : rows) {
    CAPTURE(row.cap);
    const auto p = truncation_probabilities(setting(row.cap));
    REQUIRE(p.ok());
    CHECK(p.value().truncation_lower <= row.truncation);
    CHECK(p.value().truncation_upper >= row.truncation);
    CHECK_REL(p.value().truncation_lower, row.truncation, 2e-11);
    CHECK(p.value().conditional_inclusion_upper >= row.conditional);
    CHECK_REL(p.value().conditional_inclusion_upper, row.conditional, 4e-11);
    CHECK(p.value().inclusion_lower <= row.inclusion);
    CHECK(p.value().inclusion_upper >= row.inclusion);
    CHECK_REL(p.value().inclusion_lower, row.inclusion, 2e-11);
  }
  // A cap of N or more never truncates; q = 1 truncates every batch to C of N.
  const auto never = truncation_probabilities(setting(kN));
  REQUIRE(never.ok());
  CHECK(never.value().truncation_upper == 0);
  CHECK(never.value().inclusion_lower == kQ);
  const auto always = truncation_probabilities(TruncatedPoissonSetting{100, 1.0, 10, Relation::kZeroOut});
  REQUIRE(always.ok());
  CHECK_REL(always.value().truncation_lower, 1.0, 1e-10);
  CHECK_REL(always.value().conditional_inclusion_upper, 0.1, 1e-10);
  CHECK_REL(always.value().inclusion_lower, 0.1, 1e-10);
}

TEST_CASE("[samplers] truncated Poisson: dp_accounting's event reproduced by its pair in dpcalc's engine") {
  // dp_accounting's from_truncated_subsampled_gaussian_mechanism mixes the Poisson pair with the
  // substitute pair of the truncated batch, (1 − ρ)N(0) + ρN(2) against (1 − ρ)N(0) + ρN(−2), under
  // every relation: built here from dpcalc's probabilities, composed by dpcalc's engine.
  // PLDAccountant(REPLACE_SPECIAL), TruncatedSubsampledGaussianDpEvent(60000, 256/60000, C, 1), 2344 steps.
  struct Row {
    double cap, epsilon;
  };
  for (const Row& row : {Row{307, 2.3477888669862668}, Row{281, 4.776702138284579}}) {
    CAPTURE(row.cap);
    const auto p = truncation_probabilities(setting(row.cap));
    REQUIRE(p.ok());
    const double rho = p.value().conditional_inclusion_upper;
    pld::RevealedMixturePair pair;
    pair.parts = {pld::MixtureVsMixturePair{1, {0, 1}, {1 - kQ, kQ}, {0}, {1}},
                  pld::MixtureVsMixturePair{1, {0, 2}, {1 - rho, rho}, {0, -2}, {1 - rho, rho}}};
    pair.weights = {1 - p.value().truncation_upper, p.value().truncation_lower};
    pair.infinite_loss_weight = p.value().truncation_upper - p.value().truncation_lower;
    const auto bracket = pld::epsilon_for_delta({{pld::DominatingPair{pair, 1}, kSteps}}, kDelta);
    REQUIRE(bracket.ok());
    check_bracket(bracket.value(), row.epsilon);
  }
  // Caps far above the batch size truncate with probability 5e-14 and 2e-45: Poisson's 1.09993.
  for (const Row& row : {Row{384, 1.0999307806771284}, Row{512, 1.0999307792309756}}) {
    CAPTURE(row.cap);
    const auto result = truncated_poisson_epsilon({{setting(row.cap), 1, kSteps}}, kDelta);
    REQUIRE(result.ok());
    check_bracket(result.value().analysis, row.epsilon);
  }
}

TEST_CASE("[samplers] truncated Poisson: Ganesh's pairs, the analysis' lower bound and the sampler's") {
  struct Row {
    Relation relation;
    double cap;
    double analysis;  // the pair of Ganesh 2025 under the relation, dp_accounting's discretisation and composition
    double sampler;   // dp_accounting, PoissonSampledDpEvent(q_in, GaussianDpEvent(1)), 2344 steps
  };
  // Zero-out: reference script part 3 (the truncated part (1 − ρ)N(0) + ρN(2) against (1 − ρ)N(0) + ρN(−1),
  // through dp_accounting's own connect-the-dots discretisation); substitute: the event of dp_accounting
  // itself (PLDAccountant(REPLACE_ONE)), whose pair is Ganesh's. Sampler: part 4.
  const Row rows[] = {{Relation::kZeroOut, 307, 2.346659031267729, 1.0999099479509933},
                      {Relation::kZeroOut, 281, 4.707773289330837, 1.0979065982819414},
                      {Relation::kSubstitute, 307, 2.5233388819875184, 1.7639939988803006},
                      {Relation::kSubstitute, 281, 4.945339241643091, 1.760740375723443}};
  for (const Row& row : rows) {
    CAPTURE(row.cap);
    CAPTURE(static_cast<int>(row.relation));
    const auto result = truncated_poisson_epsilon({{setting(row.cap, row.relation), 1, kSteps}}, kDelta);
    REQUIRE(result.ok());
    const TruncatedPoissonEpsilon& r = result.value();
    check_bracket(r.analysis, row.analysis);
    check_bracket(r.sampler, row.sampler);
    CHECK(r.epsilon_upper == r.analysis.epsilon_upper);
    CHECK(r.epsilon_lower_analysis == r.analysis.epsilon_lower);
    CHECK(r.epsilon_lower_sampler == r.sampler.epsilon_lower);
    // The order of the three: the sampler's lower bound under the analysis' upper bound, and (here)
    // well under the analysis' own lower bound: the analysis is not tight.
    CHECK(r.epsilon_lower_sampler <= r.epsilon_lower_analysis);
    CHECK(r.epsilon_lower_analysis <= r.epsilon_upper);
  }
  // The analysis' bracket at cap 281 under zero-out, and with the looser substitute part of dp_accounting
  // above (4.7767): Ganesh's zero-out pair is the tighter.
  // Its exact ε is also bracketed independently, by privacy buckets on a loss step of 2e-5 composed
  // by dp_accounting's PMF (tests/reference/truncated_poisson_buckets.py): [4.684292, 4.731242].
  const auto tight = truncated_poisson_epsilon({{setting(281), 1, kSteps}}, kDelta);
  REQUIRE(tight.ok());
  CHECK(tight.value().epsilon_upper < 4.776702138284579);
  CHECK(tight.value().epsilon_upper >= 4.684292313573378);
  CHECK(tight.value().epsilon_lower_analysis <= 4.731242345522016);
}

TEST_CASE("[samplers] truncated Poisson: a cap of at least N is Poisson sampling, exactly") {
  for (Relation relation : {Relation::kZeroOut, Relation::kSubstitute}) {
    for (double cap : {kN, kN + 7}) {
      const auto truncated = truncated_poisson_epsilon({{setting(cap, relation), 1, kSteps}}, kDelta);
      const auto poisson = pld::epsilon_for_delta({{poisson_step_pair(kQ, 1, relation), kSteps}}, kDelta);
      REQUIRE(truncated.ok());
      REQUIRE(poisson.ok());
      CHECK(truncated.value().epsilon_upper == poisson.value().epsilon_upper);
      CHECK(truncated.value().epsilon_lower_analysis == poisson.value().epsilon_lower);
      CHECK(truncated.value().epsilon_lower_sampler == poisson.value().epsilon_lower);
    }
  }
  // dp_accounting, PLDAccountant(REPLACE_SPECIAL), PoissonSampledDpEvent(256/60000, GaussianDpEvent(1)), 2344 steps.
  const auto poisson = truncated_poisson_epsilon({{setting(kN), 1, kSteps}}, kDelta);
  REQUIRE(poisson.ok());
  check_bracket(poisson.value().analysis, 1.0999307823236508);
}

TEST_CASE("[samplers] truncated Poisson: monotone in the noise and in the cap") {
  double previous = kInfinity;
  for (double sigma : {0.8, 1.0, 1.25, 2.0}) {
    CAPTURE(sigma);
    const auto result = truncated_poisson_epsilon({{setting(281), sigma, 500}}, kDelta);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_upper < previous);
    CHECK(result.value().epsilon_lower_sampler <= result.value().epsilon_upper);
    previous = result.value().epsilon_upper;
  }
  previous = kInfinity;
  for (double cap : {270.0, 281.0, 300.0, 350.0}) {
    CAPTURE(cap);
    const auto result = truncated_poisson_epsilon({{setting(cap), 1, 500}}, kDelta);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_upper < previous);
    previous = result.value().epsilon_upper;
  }
}

TEST_CASE("[samplers] truncated Poisson: invalid inputs are refused on their names") {
  const auto field_of = [](const TruncatedPoissonSetting& s, double sigma = 1, double steps = 10, double delta = 1e-5) {
    const auto result = truncated_poisson_epsilon({{s, sigma, steps}}, delta);
    REQUIRE_FALSE(result.ok());
    CHECK(result.error().code == kInvalidArgument);
    return result.error().field;
  };
  CHECK(field_of({0, kQ, 10, Relation::kZeroOut}) == "dataset_size");
  CHECK(field_of({100.5, kQ, 10, Relation::kZeroOut}) == "dataset_size");
  CHECK(field_of({100, 0, 10, Relation::kZeroOut}) == "sampling_rate");
  CHECK(field_of({100, 1.5, 10, Relation::kZeroOut}) == "sampling_rate");
  CHECK(field_of({100, kQ, 0, Relation::kZeroOut}) == "max_batch_size");
  CHECK(field_of({100, kQ, std::nan(""), Relation::kZeroOut}) == "max_batch_size");
  CHECK(field_of(setting(281), -1) == "noise_multiplier");
  CHECK(field_of(setting(281), 1, 0) == "steps");
  CHECK(field_of(setting(281), 1, 10, 1) == "delta");
}
