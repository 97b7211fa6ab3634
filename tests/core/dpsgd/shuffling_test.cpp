// Shuffling (dpsgd/shuffling.hpp): the bound without amplification and the lower bound of Chua et al.
// Reference values: mpmath at 60 digits (tests/reference/shuffle_reference.py), and Google Research's
// dpsgd_batch_sampler_accounting/dpsgd_bounds.py (google-research/google-research commit
// 4c4299485319ed72ef782020c81784be5468924e, ShuffleAccountant().get_epsilons(1.0, (1e-5,), 234, E, reshuffle),
// DeterministicAccountant().get_epsilons(1.0, (1e-5,), E); run from /tmp with dp_accounting b5b0286 on the
// path). That code takes T = 234 steps and no examples left over, i.e. N = T·B = 59904; at N = 60000 the 96
// examples left over each epoch make the lower bound slightly smaller.
#include "dpcalc/dpsgd/shuffling.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "approx.hpp"
#include "dpcalc/log_math.hpp"

using namespace dpcalc;
using namespace dpcalc::dpsgd;

namespace {

constexpr double kDelta = 1e-5;

ShuffleSetting shuffle(double n, double epochs, ShuffleOrder order, Relation relation) {
  return ShuffleSetting{n, 256, epochs, order, relation};
}

double lower(const ShuffleSetting& s, double sigma = 1, const ShuffleLowerOptions& options = {}) {
  const auto result = shuffle_epsilon_lower(s, sigma, kDelta, options);
  REQUIRE(result.ok());
  return result.value().epsilon_lower;
}

double upper(const ShuffleSetting& s, double sigma = 1, double k = 1) {
  const auto result = shuffle_epsilon_upper(s, sigma, kDelta, k);
  REQUIRE(result.ok());
  return result.value().epsilon;
}

}  // namespace

TEST_CASE("[samplers] shuffling: one epoch and persistent shuffling against mpmath") {
  struct Row {
    double n, epochs;
    Relation relation;
    double lower, upper;  // mpmath: the best threshold event of eq. 9; the analytic Gaussian at √E·Δ/σ
  };
  const Row rows[] = {
      {59904, 1, Relation::kZeroOut, 3.76126785001036, 4.37717809568122},
      {59904, 10, Relation::kZeroOut, 17.8565868299771, 17.8565868301076},
      {59904, 1, Relation::kSubstitute, 4.55248619772682, 9.9972561464343},
      {59904, 10, Relation::kSubstitute, 40.7558890758604, 46.2112101912181},
      {60000, 1, Relation::kZeroOut, 3.76001649235111, 4.37717809568122},
      {60000, 10, Relation::kZeroOut, 17.855439203433, 17.8565868301076},
      {60000, 1, Relation::kSubstitute, 4.55017681255467, 9.9972561464343},
      {60000, 10, Relation::kSubstitute, 40.752012669881, 46.2112101912181},
  };
  for (const Row& row : rows) {
    CAPTURE(row.n);
    CAPTURE(row.epochs);
    CAPTURE(static_cast<int>(row.relation));
    const ShuffleSetting s = shuffle(row.n, row.epochs, ShuffleOrder::kPersistent, row.relation);
    const double l = lower(s), u = upper(s);
    CHECK(l <= row.lower * (1 + 1e-14));
    CHECK_REL(l, row.lower, 1e-10);
    check_upper_bound(u, row.upper, 1e-10);
    CHECK(l <= u);
  }
  // 10 epochs persistent under zero-out: the seat's shift stands 6σ/√E clear of the other steps, so the
  // mixture is as distinguishable as the Gaussian itself: lower and upper agree to 1e-10.
  const ShuffleSetting persistent = shuffle(59904, 10, ShuffleOrder::kPersistent, Relation::kZeroOut);
  CHECK(upper(persistent) - lower(persistent) < 1e-9);
}

TEST_CASE("[samplers] shuffling: Google Research's ShuffleAccountant numbers are lower bounds below ours") {
  // Its single-epoch search takes thresholds on a grid of 0.01 and its re-shuffled PLD rounds each slice's
  // loss down: both are lower bounds, at or below dpcalc's, which searches the threshold and composes the
  // binned pair with the engine's optimistic discretisation.
  const auto zero = [](double epochs, ShuffleOrder order) { return shuffle(59904, epochs, order, Relation::kZeroOut); };
  CHECK(3.761182501912117 <= lower(zero(1, ShuffleOrder::kPersistent)));
  CHECK(17.854278907179832 <= lower(zero(10, ShuffleOrder::kPersistent)));
  const double reshuffled = lower(zero(10, ShuffleOrder::kReshuffled));
  CHECK(7.24686540831513 <= reshuffled);
  // Its values at discretisation 1e-3, 5e-4, 2.5e-4: 7.24687, 7.24940, 7.25064, rising towards dpcalc's.
  CHECK_REL(reshuffled, 7.250635599106081, 2e-4);
  // DeterministicAccountant, the upper bound without amplification: 4.377178102731705 (1 epoch),
  // 17.85658687353134 (10 epochs; the same for either order).
  CHECK_REL(upper(zero(1, ShuffleOrder::kPersistent)), 4.377178102731705, 1e-8);
  CHECK_REL(upper(zero(10, ShuffleOrder::kReshuffled)), 17.85658687353134, 1e-8);
  // Substitute, ShuffleAccountant(mean_upper=2, mean_lower=0): 4.552474692463875, 40.75578525662422,
  // 8.524968596587154 (re-shuffled, discretisation 1e-3).
  const auto sub = [](double epochs, ShuffleOrder order) {
    return shuffle(59904, epochs, order, Relation::kSubstitute);
  };
  CHECK(4.552474692463875 <= lower(sub(1, ShuffleOrder::kPersistent)));
  CHECK(40.75578525662422 <= lower(sub(10, ShuffleOrder::kPersistent)));
  const double sub_reshuffled = lower(sub(10, ShuffleOrder::kReshuffled));
  CHECK(8.524968596587154 <= sub_reshuffled);
  CHECK_REL(sub_reshuffled, 8.524968596587154, 1e-3);
}

TEST_CASE("[samplers] shuffling: re-shuffled epochs converge from below as the grid refines") {
  const ShuffleSetting s = shuffle(59904, 10, ShuffleOrder::kReshuffled, Relation::kZeroOut);
  double previous = 0;
  for (double h : {4e-3, 2e-3, 1e-3, 5e-4}) {
    CAPTURE(h);
    ShuffleLowerOptions options;
    options.discretization_interval = h;
    const auto result = shuffle_epsilon_lower(s, 1, kDelta, options);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_lower >= previous - 1e-9);
    CHECK(result.value().discretization.discretization_interval == h);
    CHECK(result.value().bins > 1000);
    previous = result.value().epsilon_lower;
  }
  // Every value is a lower bound: at most the bound without amplification, and at least one epoch's.
  CHECK(previous <= upper(s));
  CHECK(previous >= lower(shuffle(59904, 1, ShuffleOrder::kPersistent, Relation::kZeroOut)));
}

TEST_CASE("[samplers] shuffling: lower <= upper and both fall as the noise grows") {
  for (Relation relation : {Relation::kZeroOut, Relation::kSubstitute}) {
    for (ShuffleOrder order : {ShuffleOrder::kPersistent, ShuffleOrder::kReshuffled}) {
      double previous_lower = kInfinity, previous_upper = kInfinity;
      for (double sigma : {0.7, 1.0, 1.5, 3.0}) {
        CAPTURE(sigma);
        CAPTURE(static_cast<int>(order));
        CAPTURE(static_cast<int>(relation));
        const ShuffleSetting s{10000, 100, 4, order, relation};
        const double l = lower(s, sigma), u = upper(s, sigma);
        CHECK(l <= u);
        CHECK(l > 0);
        CHECK(l < previous_lower);
        CHECK(u < previous_upper);
        previous_lower = l;
        previous_upper = u;
      }
    }
  }
}

TEST_CASE("[samplers] shuffling: the group upper bound is the Gaussian at √E·k·Δ/σ") {
  // mpmath, the analytic Gaussian: k = 2 and 5 at E = 10, σ = 1 (μ = 2√10, 5√10).
  const ShuffleSetting s = shuffle(60000, 10, ShuffleOrder::kReshuffled, Relation::kZeroOut);
  check_upper_bound(upper(s, 1, 2), 46.2112101912181, 1e-10);
  check_upper_bound(upper(s, 1, 5), 191.549201432711, 1e-10);
  const auto bound = shuffle_epsilon_upper(s, 1, kDelta, 5);
  REQUIRE(bound.ok());
  CHECK_REL(bound.value().mu, 5 * std::sqrt(10.0), 1e-14);
  // Under substitute each example moves a step by 2: k = 1 substitute is k = 2 zero-out.
  const ShuffleSetting sub = shuffle(60000, 10, ShuffleOrder::kReshuffled, Relation::kSubstitute);
  CHECK(upper(sub) == upper(s, 1, 2));
}

TEST_CASE("[samplers] shuffling: one step per epoch, and invalid inputs") {
  // B > N/2: T = 1, the pair is N(2, σ²) against N(1, σ²), a Gaussian of sensitivity 1 seated with
  // probability B/N = 1 when B = N: lower and upper are the same Gaussian.
  const ShuffleSetting whole{500, 500, 1, ShuffleOrder::kPersistent, Relation::kZeroOut};
  CHECK(shuffle_steps_per_epoch(whole) == 1);
  CHECK_REL(lower(whole), upper(whole), 1e-9);
  const auto field_of = [](const ShuffleSetting& s, double sigma = 1, double delta = 1e-5, double k = 1) {
    const auto up = shuffle_epsilon_upper(s, sigma, delta, k);
    REQUIRE_FALSE(up.ok());
    CHECK(up.error().code == kInvalidArgument);
    return up.error().field;
  };
  CHECK(field_of({0, 1, 1, ShuffleOrder::kPersistent, Relation::kZeroOut}) == "dataset_size");
  CHECK(field_of({100, 101, 1, ShuffleOrder::kPersistent, Relation::kZeroOut}) == "batch_size");
  CHECK(field_of({100, 10, 0.5, ShuffleOrder::kPersistent, Relation::kZeroOut}) == "epochs");
  CHECK(field_of({100, 10, 1, ShuffleOrder::kPersistent, Relation::kZeroOut}, 0) == "noise_multiplier");
  CHECK(field_of({100, 10, 1, ShuffleOrder::kPersistent, Relation::kZeroOut}, 1, 0) == "delta");
  CHECK(field_of({100, 10, 1, ShuffleOrder::kPersistent, Relation::kZeroOut}, 1, 1e-5, 101) == "group_size");
  ShuffleLowerOptions bad;
  bad.discretization_interval = -1;
  const auto refused = shuffle_epsilon_lower({100, 10, 2, ShuffleOrder::kReshuffled, Relation::kZeroOut}, 1, 1e-5, bad);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().field == "discretization_interval");
}
