// The truncated discrete Gaussian (discrete_gaussian with truncation_bound T: the noise conditioned
// on [−T, T], as dp_accounting's DiscreteGaussianPrivacyLoss(sigma, sensitivity, truncation_bound)).
// Exact references: mpmath at 40 digits, the pair (N_T + Δ, N_T) enumerated and its k-fold product
// convolved by loss, δ(ε) = P(loss = +∞) + Σ (P − e^ε Q)_+ (tests/reference/
// truncated_discrete_gaussian_reference.py);
// dp_accounting (github:google/differential-privacy, python/dp_accounting, run from source at
// value_discretization_interval 1e-4) agrees to its grid.
#include <doctest/doctest.h>

#include <numeric>
#include <variant>

#include "approx.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;
using dpcalc::mechanisms::Relation;

Value truncated(double sigma, double sensitivity, double truncation_bound) {
  return object()
      .set("type", "discrete_gaussian")
      .set("sigma", sigma)
      .set("sensitivity", sensitivity)
      .set("truncation_bound", truncation_bound);
}

// [delta_lower, delta_upper] of method 'pld' at ε for `count` uses of `mechanism`.
std::pair<double, double> pld_delta(const Value& mechanism, double count, double epsilon) {
  const Value request =
      object().set("op", "compose").set("method", "pld").set("epsilon", epsilon).set("items", items(mechanism, count));
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  return {number_at(result, "delta_lower"), number_at(result, "delta_upper")};
}

void check_delta(const Value& mechanism, double count, double epsilon, double exact, double width) {
  const auto [lower, upper] = pld_delta(mechanism, count, epsilon);
  CHECK(lower <= exact * (1 + 1e-12));
  CHECK(upper >= exact * (1 - 1e-12));
  CHECK(upper <= exact * (1 + width));
}

dpcalc::pld::FinitePair finite_pair_of(const Value& mechanism) {
  dpcalc::mechanisms::Arguments arguments;
  arguments.numbers = {{"sigma", number_at(mechanism, "sigma")},
                       {"sensitivity", number_at(mechanism, "sensitivity")},
                       {"truncation_bound", number_at(mechanism, "truncation_bound")}};
  const auto made = test_mechanisms::made(dpcalc::mechanisms::discrete_gaussian_type(), arguments);
  const auto pair = made->pair(Relation::kAddRemove);
  REQUIRE(std::holds_alternative<dpcalc::pld::FinitePair>(pair.base));
  return std::get<dpcalc::pld::FinitePair>(pair.base);
}

}  // namespace

TEST_CASE("[mechanisms] truncated discrete Gaussian: the exact pair, its mass at +∞ loss") {
  // σ = 1, Δ = 1, T = 1: P on {0, 1, 2}, Q on {−1, 0, 1}, each e^{−x²/2}/Z_1 with Z_1 = 1 + 2e^{−1/2}.
  // P(2) = e^{−1/2}/Z_1 = 0.27406861906119698 (mpmath) is the mass at loss +∞ (dp_accounting's test
  // test_discrete_gaussian_varying_sigma_and_sensitivity expects infinity mass 0.27406862).
  const dpcalc::pld::FinitePair pair = finite_pair_of(truncated(1, 1, 1));
  REQUIRE(pair.p.size() == 4);  // x = −1 … 2, no cut outcomes
  CHECK_REL(std::accumulate(pair.p.begin(), pair.p.end(), 0.0), 1, 1e-15);
  CHECK_REL(std::accumulate(pair.q.begin(), pair.q.end(), 0.0), 1, 1e-15);
  CHECK(pair.p[0] == 0);
  CHECK(pair.q[3] == 0);
  CHECK_REL(pair.p[3], 0.27406861906119698, 1e-15);
  CHECK_REL(pair.q[0], 0.27406861906119698, 1e-15);
  // δ(ε) of one use (mpmath; dp_accounting from source: 0.4518627618776061, 0.31706904617487236,
  // 0.7259313809388032, 0.32710442071449247, 0.15057442548494473, 0.14162219199647108).
  check_delta(truncated(1, 1, 1), 1, 0, 0.45186276187760604, 1e-9);
  check_delta(truncated(1, 1, 1), 1, 0.4, 0.31706904617487234, 1e-9);
  // Δ = 2T: the supports meet at one outcome, of loss 0; the rest is at +∞.
  check_delta(truncated(1, 2, 1), 1, 0, 0.72593138093880302, 1e-9);
  check_delta(truncated(3, 1, 1), 1, 0.1, 0.32710442071449249, 1e-9);
  check_delta(truncated(1, 1, 2), 1, 1, 0.15057442548494474, 1e-9);
  check_delta(truncated(1, 1, 3), 1, 1, 0.14162219199647107, 1e-9);
}

TEST_CASE("[mechanisms] truncated discrete Gaussian composed, and ε at δ above the mass at +∞") {
  // mpmath (the k-fold product by loss); dp_accounting from source at step 1e-4: 0.38104905154237456,
  // 0.49336696839444505, 0.040431894917490836.
  check_delta(truncated(2, 1, 5), 10, 1, 0.38104905154237329, 5e-3);
  check_delta(truncated(1, 1, 2), 5, 2, 0.49336696839444403, 5e-3);
  check_delta(truncated(5, 1, 10), 3, 0.5, 0.040431857047422891, 5e-3);
  // ε at δ (mpmath bisection on the exact δ(ε); dp_accounting: 0.3873478960447053, 3.6979802654763687).
  check_bracket(pld_epsilon(truncated(5, 1, 10), 3, 0.05), 0.38734652418629879);
  check_bracket(pld_epsilon(truncated(2, 1, 5), 10, 0.1), 3.697980265460031);
  // T at the window (⌈13.5723σ⌉ + 1 = 69 at σ = 5): the untruncated value within double precision
  // (mpmath: 2.8755878488019192 truncated, 2.8755878488020699 untruncated).
  check_bracket(pld_epsilon(truncated(5, 1, 69), 12, 1e-5), 2.8755878488019192);
  check_bracket(pld_epsilon(truncated(5, 1, 1e9), 12, 1e-5), 2.8755878488020699);
}

TEST_CASE("[mechanisms] truncated discrete Gaussian: Poisson subsampled, group, and the refused routes") {
  // q = 0.5, σ = 1, Δ = 1, T = 2 (mpmath: (qP + (1 − q)Q, Q) gives 0.028473754483328073 at ε = 1; at ε = 0.3 the
  // larger direction 0.10303732479869361; dp_accounting from source: 0.028474332514766804, 0.10303761184061119).
  const Value sampled =
      object().set("type", "poisson_subsampled").set("rate", 0.5).set("mechanism", truncated(1, 1, 2));
  // The mixture's losses are off the lattice: within the default accuracy.
  check_delta(sampled, 1, 1, 0.028473754483328073, 5e-3);
  check_delta(sampled, 1, 0.3, 0.10303732479869361, 5e-3);
  // No zCDP or Rényi route: each refusal names truncation_bound and the method that answers.
  const auto refused = [](const Value& response, const std::string& field) {
    check_error(response, field, "unsupported");
    const Value* error = response.find("error");
    REQUIRE(error != nullptr);
    CHECK(error->find("message")->as_string().find("'pld'") != std::string::npos);
  };
  refused(dpcalc::api::compute(compose("zcdp", truncated(2, 1, 5), 3, 1e-5)), "items.0.mechanism.truncation_bound");
  refused(dpcalc::api::compute(compose("rdp", truncated(2, 1, 5), 3, 1e-5)), "items.0.mechanism.truncation_bound");
  refused(dpcalc::api::compute(compose("rdp", sampled, 3, 1e-5)), "items.0.mechanism.mechanism.truncation_bound");
  // A group of 2 sees Δ = 2: the same as the mechanism at sensitivity 2.
  const Value group = object().set("op", "group").set("k", 2).set("delta", 0.3).set("mechanism", truncated(1, 1, 2));
  const Value grouped = result_of(dpcalc::api::compute(group));
  CHECK(number_at(grouped, "epsilon_upper") == pld_epsilon(truncated(1, 2, 2), 1, 0.3).upper);
  // Below the mass at +∞ no finite ε holds: σ = 5, T = 10, Δ = 1 has P(loss = +∞) = P(N_T = 10) =
  // 0.011194726943501 (mpmath), thrice 1 − (1 − 0.0111947)³ = 0.0332096180410618 (the reference's
  // infmass); a group of 2 sees Δ = 2, P(N_T ∈ {9, 10}) = 0.0275646036359067.
  const auto no_epsilon = [](const Value& request) {
    const Value response = dpcalc::api::compute(request);
    const Value& result = result_of(response);
    CHECK(result.find("epsilon_upper")->as_string() == "infinity");
    CHECK(result.find("vacuous")->as_bool());
  };
  no_epsilon(compose("pld", truncated(5, 1, 10), 3, 0.03));
  check_bracket(pld_epsilon(truncated(5, 1, 10), 3, 0.05), 0.38734652418629879);
  no_epsilon(object().set("op", "group").set("k", 2).set("delta", 1e-5).set("mechanism", truncated(5, 1, 10)));
  // Checks: a whole number ≥ 0 on its path.
  check_error(dpcalc::api::compute(compose("pld", truncated(1, 1, 1.5), 1, 1e-5)),
              "items.0.mechanism.truncation_bound");
  check_error(dpcalc::api::compute(compose("pld", truncated(1, 1, -1), 1, 1e-5)), "items.0.mechanism.truncation_bound");
}
