// pld/pure_bound: the bounded loss of a dominating pair, and basic composition of such pairs capping
// the numeric answer of method 'pld'. Expected values are closed forms: Laplace's Δ/b, randomized
// response's ln(p/q), the amplification ln(1 + q(e^ε − 1)) (Balle, Barthe, Gaboardi 2018, Thm 2),
// the sum of the items' ε (Dwork & Roth 2014, Thm 3.16).
#include "dpcalc/pld/pure_bound.hpp"

#include <doctest/doctest.h>

#include <cmath>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"

namespace {

using dpcalc::api::Value;
using dpcalc::pld::DominatingPair;
using dpcalc::pld::pure_bound;

Value laplace_item(double scale, double count) {
  Value mechanism = object().set("type", "laplace").set("scale", scale);
  return object().set("mechanism", mechanism).set("count", count);
}

// 3 × Laplace(b = 1) + 2 × Laplace(b = 2): 4-DP (dp_accounting's pld_privacy_accountant_test asks
// δ(4) ≤ 1e-14 of it).
Value laplace_mix() {
  Value items = Value::array();
  items.push(laplace_item(1, 3));
  items.push(laplace_item(2, 2));
  return object().set("op", "compose").set("method", "pld").set("items", items);
}

}  // namespace

TEST_CASE("pure_bound: Laplace, randomized response and (ε, δ) pairs, amplified by their sampling rate") {
  const auto laplace = pure_bound(DominatingPair{dpcalc::pld::LaplacePair{2, 1}, 1});
  REQUIRE(laplace);
  CHECK(laplace->epsilon == 0.5);
  CHECK(laplace->delta == 0);

  const auto rr = pure_bound(DominatingPair{dpcalc::pld::FinitePair{{0.75, 0.25}, {0.25, 0.75}}, 1});
  REQUIRE(rr);
  CHECK(rr->epsilon >= std::log(3.0));
  CHECK(rr->epsilon <= std::log(3.0) * (1 + 1e-14));

  // ln(1 + 0.01 (e − 1)) = 0.017036187... (closed form), rounded up by a few ulps at most.
  const auto sampled = pure_bound(DominatingPair{dpcalc::pld::ApproxDpPair{1, 1e-6}, 0.01});
  REQUIRE(sampled);
  const double exact = std::log1p(0.01 * std::expm1(1.0));
  CHECK(sampled->epsilon >= exact);
  CHECK(sampled->epsilon <= exact * (1 + 1e-13));
  CHECK(sampled->delta >= 1e-8);
  CHECK(sampled->delta <= 1e-8 * (1 + 1e-15));
}

TEST_CASE("pure_bound: none where the loss is unbounded") {
  CHECK_FALSE(pure_bound(DominatingPair{dpcalc::pld::GaussianPair{1, 1}, 1}));
  // A lattice's truncated mass: an outcome only one side reaches has infinite loss.
  CHECK_FALSE(pure_bound(DominatingPair{dpcalc::pld::FinitePair{{0.5, 0.5, 0}, {0.4, 0.4, 0.2}}, 1}));
}

TEST_CASE("method 'pld' is never looser than basic composition of its pairs: a mix of Laplace scales") {
  // δ at ε = 4: 0, where the grid alone gave 5.6e-4.
  Value at_epsilon = laplace_mix();
  at_epsilon.set("epsilon", 4.0);
  const Value delta_response = dpcalc::api::compute(at_epsilon);
  const Value& delta = result_of(delta_response);
  CHECK(delta.find("delta_upper")->as_number() == 0);
  CHECK(delta.find("delta_lower")->as_number() == 0);
  CHECK(delta.find("note")->as_string().find("Basic composition") != std::string::npos);
  // ε ≤ 4 at every δ (the grid alone gave 4.0009 at δ = 1e-6, 4.0042 at 1e-11).
  for (double target : {1e-3, 1e-6, 1e-11}) {
    Value at_delta = laplace_mix();
    at_delta.set("delta", target);
    const Value response = dpcalc::api::compute(at_delta);
    const Value& epsilon = result_of(response);
    CHECK(epsilon.find("epsilon_upper")->as_number() <= 4);
    CHECK(epsilon.find("epsilon_lower")->as_number() <= epsilon.find("epsilon_upper")->as_number());
  }
  // At a large δ the numeric bound is the smaller one and stands, without the note.
  Value loose = laplace_mix();
  loose.set("delta", 0.1);
  const Value loose_response = dpcalc::api::compute(loose);
  const Value& numeric = result_of(loose_response);
  CHECK(numeric.find("epsilon_upper")->as_number() < 4);
  const Value* note = numeric.find("note");
  CHECK((note == nullptr || note->as_string().find("Basic composition") == std::string::npos));
}
