// δ(ε) below ε = 0 (compose with method 'pld' and `epsilon`, op 'profile'): the hockey-stick
// divergence is defined at every real ε, at least 1 − e^ε below 0. Exact values:
// tests/reference/negative_epsilon_reference.py (mpmath quadrature, matching the closed forms).
#include <cmath>
#include <string>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"

namespace {

using dpcalc::api::Value;

Value one_item(const Value& mechanism) {
  return Value::array().push(object().set("mechanism", mechanism).set("count", 1));
}

Value gaussian(double sigma) { return object().set("type", "gaussian").set("sigma", sigma); }
Value laplace(double scale) { return object().set("type", "laplace").set("scale", scale); }

// [delta_lower, delta_upper] of compose 'pld' at ε.
void check_delta_at(const Value& mechanism, double epsilon, double exact, bool explain = false) {
  CAPTURE(epsilon);
  Value request =
      object().set("op", "compose").set("method", "pld").set("epsilon", epsilon).set("items", one_item(mechanism));
  if (explain) request.set("explain", true);
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  const double lower = result.find("delta_lower")->as_number(), upper = result.find("delta_upper")->as_number();
  CHECK(lower <= exact);
  CHECK(upper >= exact);
  CHECK(upper <= exact * 1.01);
  CHECK(result.find("guarantee")->find("epsilon")->as_number() == epsilon);
  if (explain) CHECK(result.find("tradeoff") != nullptr);
}

}  // namespace

TEST_CASE("[pld] δ(ε) at ε < 0: the exact Gaussian and the numeric Laplace") {
  // Gaussian (exact route): μ = 1, ε = −0.5: 0.53807941621222623678; μ = 2 (σ = 0.5), ε = −3:
  // 0.95936444584096310038; μ = 0.5 (σ = 2), ε = −0.01: 0.20144406289860108454.
  check_delta_at(gaussian(1), -0.5, 0.53807941621222623678, true);
  check_delta_at(gaussian(0.5), -3, 0.95936444584096310038);
  check_delta_at(gaussian(2), -0.01, 0.20144406289860108454);
  // Laplace (the PLD engine): b = 1, ε = −0.5: 1 − e^{−0.75} = 0.52763344725898529286; ε = −2 (below
  // −Δ/b): 1 − e^{−2} = 0.86466471676338730811; b = 2, ε = −0.25: 0.31271072120902780145.
  check_delta_at(laplace(1), -0.5, 0.52763344725898529286, true);
  check_delta_at(laplace(1), -2, 0.86466471676338730811);
  check_delta_at(laplace(2), -0.25, 0.31271072120902780145);
}

TEST_CASE("[pld] profile at ε < 0, and only finite ε") {
  Value epsilons = Value::array().push(-2).push(-0.5).push(0.5);
  const Value request = object().set("op", "profile").set("items", one_item(laplace(1))).set("epsilons", epsilons);
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  const Value& upper = *result.find("delta_upper");
  const Value& lower = *result.find("delta_lower");
  // 1 − e^{−2}, 1 − e^{−0.75}, 1 − e^{−0.25} (negative_epsilon_reference.py's closed form).
  const double exact[] = {0.86466471676338730811, 0.52763344725898529286, 0.22119921692859513};
  for (std::size_t i = 0; i < 3; ++i) {
    CAPTURE(i);
    CHECK(lower.as_array()[i].as_number() <= exact[i]);
    CHECK(upper.as_array()[i].as_number() >= exact[i]);
    CHECK(upper.as_array()[i].as_number() <= exact[i] * 1.01);
  }
  Value infinite = Value::array().push(-HUGE_VAL);
  check_error(
      dpcalc::api::compute(object().set("op", "profile").set("items", one_item(laplace(1))).set("epsilons", infinite)),
      "epsilons.0");
}
