#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc::pld;

namespace {

std::vector<CompositionItem> subsampled_gaussian(double sigma, double rate, double steps) {
  return {CompositionItem{DominatingPair{GaussianPair{sigma, 1}, rate}, steps}};
}

// |actual - expected| <= max(rel * expected, abs).
bool close(double actual, double expected, double rel, double abs) {
  return std::fabs(actual - expected) <= std::max(rel * expected, abs);
}

}  // namespace

TEST_CASE("[pld] Gaussian composed T times is the Gaussian with sigma / sqrt(T)") {
  struct Row {
    double sigma, steps, delta, exact_epsilon;
  };
  // Exact eps: mpmath 30 digits of delta(eps) = Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu),
  // mu = sqrt(T) / sigma (Balle & Wang 2018, Thm 8), bisection to 1e-25.
  const Row rows[] = {{10, 100, 1e-5, 4.3771780956812246086},
                      {2, 1, 1e-6, 2.2540846502197409399},
                      {5, 1000, 1e-5, 46.211210191218099402}};
  for (const Row& row : rows) {
    CAPTURE(row.sigma);
    CAPTURE(row.steps);
    const auto result =
        epsilon_for_delta({CompositionItem{DominatingPair{GaussianPair{row.sigma, 1}}, row.steps}}, row.delta);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_upper >= row.exact_epsilon);
    CHECK(result.value().epsilon_upper <= row.exact_epsilon * 1.001);
    CHECK(result.value().epsilon_lower <= row.exact_epsilon);
    CHECK(result.value().epsilon_lower >= row.exact_epsilon * 0.99);
  }
  SUBCASE("delta for eps") {
    // mpmath 30 digits, same formula, sigma = 10, T = 100 (mu = 1), eps = 1.
    const double exact = 0.1269367375066439458;
    const auto result = delta_for_epsilon({CompositionItem{DominatingPair{GaussianPair{10, 1}}, 100}}, 1.0);
    REQUIRE(result.ok());
    CHECK(result.value().delta_upper >= exact);
    // relative_accuracy targets eps; at this slope a 0.1% eps error is about 0.1% in delta.
    CHECK(result.value().delta_upper <= exact * 1.002);
    CHECK(result.value().delta_lower <= exact);
  }
}

TEST_CASE("[pld] Poisson-subsampled Gaussian matches dp_accounting with default settings") {
  struct Row {
    double sigma, rate, steps, delta, reference;
  };
  // /work/shared/references/public_values.json (dp_accounting 0.6.0 PLD, pessimistic, connect the
  // dots, step 1e-4), and three more rows from dp_accounting (google/differential-privacy HEAD
  // b5b0286, python/dp_accounting, from_gaussian_mechanism(..., sampling_prob, use_connect_dots),
  // step 1e-4, self_compose, get_epsilon_for_delta).
  const Row rows[] = {{1.1, 0.004266666666666667, 1000, 1e-5, 0.5987026623130971},
                      {1.1, 0.004266666666666667, 16384, 1e-5, 2.5902967307391584},
                      {1.1, 0.01, 1000, 1e-5, 1.515370248221417},
                      {1.1, 0.01, 16384, 1e-5, 6.89917732630333},
                      {1.0, 0.01, 10000, 1e-5, 6.187744976039963},
                      {0.5, 0.1, 16384, 1e-5, 1208.4436000697096},
                      {4.0, 0.001, 1, 1e-5, 0.00043936613260021744}};
  for (const Row& row : rows) {
    CAPTURE(row.sigma);
    CAPTURE(row.rate);
    CAPTURE(row.steps);
    const auto result = epsilon_for_delta(subsampled_gaussian(row.sigma, row.rate, row.steps), row.delta);
    REQUIRE(result.ok());
    const EpsilonBracket& bracket = result.value();
    CHECK(close(bracket.epsilon_upper, row.reference, 5e-3, 5e-4));
    CHECK(bracket.epsilon_lower <= bracket.epsilon_upper);
    // dp_accounting's value is itself an upper bound, so our lower bound stays below it.
    CHECK(bracket.epsilon_lower <= row.reference);
    CHECK(bracket.discretization.truncated_mass <= 1e-13);
    CHECK(bracket.discretization.grid_size > 0);
  }
}

TEST_CASE("[pld] Laplace composed T times matches dp_accounting") {
  // dp_accounting (google/differential-privacy HEAD b5b0286) from_laplace_mechanism(b, 1, step 1e-4,
  // pessimistic, connect the dots), self_compose(T), get_epsilon_for_delta.
  const auto ten = epsilon_for_delta({CompositionItem{DominatingPair{LaplacePair{10, 1}}, 100}}, 1e-5);
  REQUIRE(ten.ok());
  CHECK(close(ten.value().epsilon_upper, 4.22034734730915, 5e-3, 5e-4));
  CHECK(ten.value().epsilon_lower <= 4.22034734730915);
  const auto two = epsilon_for_delta({CompositionItem{DominatingPair{LaplacePair{2, 1}}, 10}}, 1e-6);
  REQUIRE(two.ok());
  CHECK(close(two.value().epsilon_upper, 4.9989780937250226, 5e-3, 5e-4));
}

TEST_CASE("[pld] pure eps items match the optimal homogeneous composition") {
  struct Row {
    double steps, delta, optimal;
  };
  // /work/shared/references/public_values.json, optimal_homogeneous_composition (Kairouz, Oh,
  // Viswanath 2015 Thm 3.3, mpmath 30 digits), eps0 = 0.1.
  const Row rows[] = {{10, 1e-5, 0.9936911767593359},   {10, 1e-6, 0.9993709057217588},
                      {100, 1e-5, 4.306791372516507},   {100, 1e-6, 4.7745675881079865},
                      {1000, 1e-5, 17.787128449700923}, {1000, 1e-6, 19.344671447993044}};
  for (const Row& row : rows) {
    CAPTURE(row.steps);
    CAPTURE(row.delta);
    const auto result =
        epsilon_for_delta({CompositionItem{DominatingPair{ApproxDpPair{0.1, 0}}, row.steps}}, row.delta);
    REQUIRE(result.ok());
    // The grid holds +-eps0 exactly, so the result is exact up to the certified bound on the FFT's
    // rounding error (about 1e-10 in delta for 1000 steps, which moves eps by ~3e-6 at delta 1e-6).
    CHECK_REL(result.value().epsilon_upper, row.optimal, 1e-5);
    CHECK(result.value().epsilon_upper >= row.optimal * (1 - 1e-12));
    CHECK(result.value().epsilon_lower <= row.optimal * (1 + 1e-12));
  }
  SUBCASE("k = 1 is the randomized-response curve itself") {
    // delta(eps) = p_high (1 - e^{eps - eps0}) with p_high = e^eps0 / (1 + e^eps0), solved for eps.
    const double p_high = 1 / (1 + std::exp(-0.1));
    const double expected = 0.1 + std::log1p(-1e-3 / p_high);
    const auto result = epsilon_for_delta({CompositionItem{DominatingPair{ApproxDpPair{0.1, 0}}, 1}}, 1e-3);
    REQUIRE(result.ok());
    CHECK_REL(result.value().epsilon_upper, expected, 1e-9);
  }
}

TEST_CASE("[pld] unreachable delta is an error on delta quoting the smallest reachable delta") {
  // Ten (0.1, 1e-6) items: infinite loss mass 1 - (1 - 1e-6)^10 ~ 1e-5.
  const auto result = epsilon_for_delta({CompositionItem{DominatingPair{ApproxDpPair{0.1, 1e-6}}, 10}}, 5e-6);
  REQUIRE(!result.ok());
  CHECK(result.error().code == "invalid_argument");
  CHECK(result.error().field == "delta");
  CHECK(result.error().message.find("9.99995") != std::string::npos);
  const auto reachable = epsilon_for_delta({CompositionItem{DominatingPair{ApproxDpPair{0.1, 1e-6}}, 10}}, 2e-5);
  CHECK(reachable.ok());
}

TEST_CASE("[pld] brackets: lower <= upper and the bracket narrows as the grid step shrinks") {
  const auto items = subsampled_gaussian(1.0, 0.01, 1000);
  double previous_width = 1e300;
  for (double step : {1e-2, 3e-3, 1e-3}) {
    CAPTURE(step);
    AccountingOptions options;
    options.discretization_interval = step;
    const auto result = epsilon_for_delta(items, 1e-5, options);
    REQUIRE(result.ok());
    const double width = result.value().epsilon_upper - result.value().epsilon_lower;
    CHECK(width >= 0);
    CHECK(width < previous_width);
    previous_width = width;
    CHECK(result.value().discretization.discretization_interval == step);
  }
  SUBCASE("privacy profile") {
    const auto profile = privacy_profile(items, {0.0, 0.5, 1.0, 2.0, 4.0});
    REQUIRE(profile.ok());
    const auto& p = profile.value();
    for (std::size_t i = 0; i < p.epsilons.size(); ++i) {
      CHECK(p.delta_lower[i] <= p.delta_upper[i]);
      if (i > 0) CHECK(p.delta_upper[i] <= p.delta_upper[i - 1]);
    }
  }
}

TEST_CASE("[pld] more accuracy than the grid can hold gives the bracket the grid holds") {
  // DP-SGD sigma 1, q 0.01, 10^6 steps at delta 1e-5: at relative_accuracy 1e-5 the automatic step
  // (about 9.4e-5) and the coarsest automatic limit (1e-4) both need more than kMaxGridPoints points,
  // which used to be an error although relative_accuracy 3e-5 answers. The bracket now comes from
  // the finest step that fits (1e-4 times sqrt 2): not met, but no wider than the one asked less.
  const auto at = [](double accuracy) {
    AccountingOptions options;
    options.relative_accuracy = accuracy;
    return epsilon_for_delta(subsampled_gaussian(1, 0.01, 1e6), 1e-5, options);
  };
  const auto looser = at(3e-5), tighter = at(1e-5);
  REQUIRE(looser.ok());
  REQUIRE(tighter.ok());
  const EpsilonBracket& a = looser.value();
  const EpsilonBracket& b = tighter.value();
  CHECK(!b.accuracy_met);
  CHECK(b.discretization.grid_size <= static_cast<std::int64_t>(kMaxGridPoints));
  CHECK(b.epsilon_upper - b.epsilon_lower <= a.epsilon_upper - a.epsilon_lower);
  // Both are sound, so they overlap.
  CHECK(b.epsilon_lower <= a.epsilon_upper);
  CHECK(a.epsilon_lower <= b.epsilon_upper);
}

TEST_CASE("[pld] composition properties") {
  SUBCASE("monotone in the number of compositions") {
    double previous = 0;
    for (double steps : {1.0, 10.0, 100.0}) {
      const auto result = epsilon_for_delta(subsampled_gaussian(2.0, 0.1, steps), 1e-5);
      REQUIRE(result.ok());
      CHECK(result.value().epsilon_upper > previous);
      previous = result.value().epsilon_upper;
    }
  }
  SUBCASE("one-component mixture equals the Gaussian") {
    MixtureVsGaussianPair mixture{2.0, {1.0}, {1.0}};
    const auto a = delta_for_epsilon({CompositionItem{DominatingPair{mixture}, 20}}, 1.0);
    const auto b = delta_for_epsilon({CompositionItem{DominatingPair{GaussianPair{2.0, 1}}, 20}}, 1.0);
    REQUIRE(a.ok());
    REQUIRE(b.ok());
    CHECK_REL(a.value().delta_upper, b.value().delta_upper, 1e-6);
  }
  SUBCASE("heterogeneous items equal self-composition of identical ones") {
    const auto split = epsilon_for_delta({CompositionItem{DominatingPair{GaussianPair{3.0, 1}}, 4},
                                          CompositionItem{DominatingPair{GaussianPair{3.0, 1}}, 6}},
                                         1e-5);
    const auto joint = epsilon_for_delta({CompositionItem{DominatingPair{GaussianPair{3.0, 1}}, 10}}, 1e-5);
    REQUIRE(split.ok());
    REQUIRE(joint.ok());
    CHECK_REL(split.value().epsilon_upper, joint.value().epsilon_upper, 1e-6);
  }
  SUBCASE("mixed-sign mixture: both directions bracket sensibly") {
    MixtureVsGaussianPair mixture{1.0, {-1.0, 0.5}, {0.3, 0.7}};
    const auto result = epsilon_for_delta({CompositionItem{DominatingPair{mixture, 0.5}, 10}}, 1e-6);
    REQUIRE(result.ok());
    CHECK(result.value().epsilon_lower <= result.value().epsilon_upper);
    CHECK(result.value().epsilon_upper > 0);
  }
}

TEST_CASE("[pld] errors: validation, grid limit, cancellation") {
  SUBCASE("invalid sigma names its field") {
    const auto result = epsilon_for_delta({CompositionItem{DominatingPair{GaussianPair{-1, 1}}, 1}}, 1e-5);
    REQUIRE(!result.ok());
    CHECK(result.error().code == "invalid_argument");
    CHECK(result.error().field == "sigma");
    CHECK(result.error().item == 0);
  }
  SUBCASE("weights must sum to 1") {
    MixtureVsGaussianPair mixture{1.0, {1.0, 2.0}, {0.5, 0.6}};
    const auto result = epsilon_for_delta({CompositionItem{DominatingPair{mixture}, 1}}, 1e-5);
    REQUIRE(!result.ok());
    CHECK(result.error().field == "weights");
  }
  SUBCASE("sampling rate and count") {
    const auto rate = epsilon_for_delta(subsampled_gaussian(1, 1.5, 1), 1e-5);
    REQUIRE(!rate.ok());
    CHECK(rate.error().field == "sampling_rate");
    const auto count = epsilon_for_delta(subsampled_gaussian(1, 0.5, 2.5), 1e-5);
    REQUIRE(!count.ok());
    CHECK(count.error().field == "count");
    CHECK(count.error().item == 0);
  }
  SUBCASE("tail_mass_truncation is checked as given, before the epsilon query lowers it to delta / 10") {
    // 0.5, NaN and -1 would each become a valid 1e-6 if lowered first (min(x, 1e-5 / 10)).
    for (const double tail : {0.5, std::nan(""), -1.0}) {
      AccountingOptions options;
      options.tail_mass_truncation = tail;
      const auto epsilon = epsilon_for_delta(subsampled_gaussian(1, 0.5, 10), 1e-5, options);
      REQUIRE(!epsilon.ok());
      CHECK(epsilon.error().code == "invalid_argument");
      CHECK(epsilon.error().field == "tail_mass_truncation");
      const auto delta = delta_for_epsilon(subsampled_gaussian(1, 0.5, 10), 1.0, options);
      REQUIRE(!delta.ok());
      CHECK(delta.error().field == "tail_mass_truncation");
    }
  }
  SUBCASE("a grid beyond the memory limit is refused before allocating") {
    AccountingOptions options;
    options.discretization_interval = 1e-7;
    const auto result = epsilon_for_delta(subsampled_gaussian(1, 0.5, 1000), 1e-5, options);
    REQUIRE(!result.ok());
    CHECK(result.error().code == "numeric");
    CHECK(result.error().field == "discretization_interval");
  }
  SUBCASE("cancel through the progress callback") {
    double last = -1;
    bool monotone = true;
    const auto result = epsilon_for_delta(subsampled_gaussian(1, 0.01, 100), 1e-5, {}, [&](double fraction) {
      monotone = monotone && fraction >= last && fraction <= 1;
      last = fraction;
      return fraction < 0.5;
    });
    REQUIRE(!result.ok());
    CHECK(result.error().code == kCancelled);
    CHECK(monotone);
  }
}
