// mu_upper of op 'tradeoff' (core/src/tradeoff/gdp_bound.cpp): the smallest μ for which an answer is
// μ-GDP, bounded from above through δ(ε) ≤ δ_μ(ε) at every ε ≥ 0 (Dong, Roth, Su 2019, Cor. 2.13).
// References (mpmath, 30 digits, tests/reference/gdp_bound_reference.py): the largest over ε of the μ
// solving δ_μ(ε) = δ(ε), for the exact profiles of randomized response at ε (what pure ε-DP allows)
// and of the Laplace mechanism, δ(ε) = 1 − e^{(ε − Δ/b)/2}. In both the largest is at ε = 0, so the
// smallest μ is 2Φ⁻¹(e^ε/(1 + e^ε)) for pure ε-DP.
#include <doctest/doctest.h>

#include <string>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"

namespace {

using dpcalc::api::Value;

Value tradeoff_of(const Value& of) {
  const Value response = dpcalc::api::compute(object().set("op", "tradeoff").set("of", of));
  return result_of(response);
}

Value items_of(const Value& mechanism, double count) {
  Value list = Value::array();
  list.push(object().set("mechanism", mechanism).set("count", count));
  return list;
}

Value pld_compose(const Value& mechanism, double count, double delta) {
  return object()
      .set("op", "compose")
      .set("method", "pld")
      .set("delta", delta)
      .set("items", items_of(mechanism, count));
}

// mu_upper is at least the exact smallest μ and within `slack` of it.
void check_mu_upper(const Value& result, double exact, double slack) {
  const Value* mu = result.find("mu_upper");
  REQUIRE(mu != nullptr);
  REQUIRE(mu->is_number());
  CHECK(mu->as_number() >= exact);
  CHECK(mu->as_number() <= exact * (1 + slack));
  CHECK(result.find("mu_upper_note") == nullptr);
}

void check_no_mu(const Value& result, const std::string& words) {
  const Value* mu = result.find("mu_upper");
  REQUIRE(mu != nullptr);
  CHECK(mu->is_null());
  REQUIRE(result.find("mu_upper_note") != nullptr);
  CHECK(result.find("mu_upper_note")->as_string().find(words) != std::string::npos);
}

}  // namespace

TEST_CASE("[tradeoff] mu_upper: pure ε-DP and Laplace noise against the exact smallest μ") {
  // Pure ε-DP: 2Φ⁻¹(e^ε/(1 + e^ε)) (mpmath: ε = 1 → 1.2320353853449, 0.5 → 0.623892592098508,
  // 3 → 3.3406837122406).
  check_mu_upper(tradeoff_of(object().set("guarantee", pure(1))), 1.2320353853449, 1.5e-3);
  check_mu_upper(tradeoff_of(object().set("guarantee", pure(0.5))), 0.623892592098508, 1.5e-3);
  check_mu_upper(tradeoff_of(object().set("guarantee", pure(3))), 3.3406837122406, 1.5e-3);
  check_mu_upper(tradeoff_of(object().set("guarantee", approx(1, 0))), 1.2320353853449, 1.5e-3);
  // Laplace b = 1 and b = 2 (Δ = 1) from their PLDs: mpmath 1.03006399762443, 0.561764323211019.
  const Value laplace = object().set("type", "laplace").set("scale", 1);
  check_mu_upper(tradeoff_of(pld_compose(laplace, 1, 1e-6)), 1.03006399762443, 1e-2);
  const Value wider = object().set("type", "laplace").set("scale", 2);
  check_mu_upper(tradeoff_of(pld_compose(wider, 1, 1e-6)), 0.561764323211019, 1e-2);
  // Composing more is never less: Laplace b = 1 twice needs at least the μ of once (and at most
  // √2 × that of once by the composition of GDP, Dong, Roth, Su 2019, Cor. 3.3, up to the grid).
  const Value twice_result = tradeoff_of(pld_compose(laplace, 2, 1e-6));
  const double twice = twice_result.find("mu_upper")->as_number();
  CHECK(twice > 1.03006399762443);
  CHECK(twice <= 1.03006399762443 * 1.4142135623730951 * 1.01);
}

TEST_CASE("[tradeoff] mu_upper: exactly μ where mu exists, none where no finite μ is certified") {
  // Gaussian σ = 2 four times: μ = √4 · 1/2 = 1 exactly (Dong, Roth, Su 2019, Cor. 3.3).
  const Value gaussian = object().set("type", "gaussian").set("sigma", 2);
  const Value composed = tradeoff_of(pld_compose(gaussian, 4, 1e-6));
  REQUIRE(composed.find("mu") != nullptr);
  CHECK(composed.find("mu_upper")->as_number() == composed.find("mu")->as_number());
  const Value group =
      tradeoff_of(object().set("op", "group").set("k", 2).set("delta", 1e-5).set("mechanism", gaussian));
  CHECK(group.find("mu_upper")->as_number() == group.find("mu")->as_number());
  // (ε, δ) with δ > 0; zCDP; the PLD of a subsampled Gaussian, whose truncated tail sits at +∞.
  check_no_mu(tradeoff_of(object().set("guarantee", approx(1, 1e-6))), "δ > 0");
  check_no_mu(tradeoff_of(object().set("guarantee", object().set("type", "zcdp").set("rho", 0.5))), "zCDP");
  const Value sampled = object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", gaussian);
  check_no_mu(tradeoff_of(pld_compose(sampled, 10, 1e-6)), "infinite loss");
  // ε = 0: no test beats a coin, μ = 0.
  CHECK(tradeoff_of(object().set("guarantee", pure(0))).find("mu_upper")->as_number() == 0);
}
