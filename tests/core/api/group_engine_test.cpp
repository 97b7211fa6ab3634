// api/group_engine: op 'group' on a Poisson-subsampled Gaussian, whose group is known by its pair
// only. Exact ε: the mixture pair of Schuchardt, Stoian, Kosmala, Günnemann 2024 integrated with
// mpmath at 50 digits (tests/reference/group_subsampled_reference.py; dp_accounting's mixture PLD at
// step 1e-4 agrees to 1e-8 relative).
#include "dpcalc/api/group_engine.hpp"

#include <doctest/doctest.h>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/api/kept_answer.hpp"

namespace {

using dpcalc::api::Value;

Value subsampled_group(double k, double rate, double sigma) {
  const Value gaussian = Value::object().set("type", "gaussian").set("sigma", sigma);
  const Value mechanism =
      Value::object().set("type", "poisson_subsampled").set("rate", rate).set("mechanism", gaussian);
  return Value::object().set("op", "group").set("k", k).set("delta", 1e-5).set("mechanism", mechanism);
}

}  // namespace

TEST_CASE("[api] group of a subsampled Gaussian: the engine's bracket holds the exact ε, and is kept") {
  const Value request = subsampled_group(32, 0.02, 1.5);
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  const double exact = 6.541129054249721;  // mpmath, see the file comment
  CHECK(result.find("epsilon_lower")->as_number() <= exact);
  CHECK(result.find("epsilon_upper")->as_number() >= exact);
  CHECK(result.find("epsilon_upper")->as_number() <= exact * 1.005);
  CHECK(result.find("guarantee")->find("epsilon")->as_number() == result.find("epsilon_upper")->as_number());

  // Its trade-off reads these PLDs, and gets what it would compose itself.
  const auto kept = dpcalc::api::kept_answer(request);
  REQUIRE(kept != nullptr);
  CHECK(kept->bracket.epsilon_upper == result.find("epsilon_upper")->as_number());
  const Value tradeoff = Value::object().set("op", "tradeoff").set("of", request);
  const Value with_kept = dpcalc::api::compute(tradeoff);
  dpcalc::api::compute(subsampled_group(4, 0.01, 1));  // replaces the kept entry
  CHECK(dpcalc::api::kept_answer(request) == nullptr);
  const Value composed = dpcalc::api::compute(tradeoff);
  CHECK(result_of(with_kept).find("beta")->as_array().size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(result_of(with_kept).find("beta")->as_array()[i].as_number() ==
          result_of(composed).find("beta")->as_array()[i].as_number());
  }
}

TEST_CASE("[api] group of a subsampled Gaussian: limits and engine errors on the request's fields") {
  check_error(dpcalc::api::compute(subsampled_group(100001, 0.01, 1)), "k");
  // A loss beyond the engine's ±700 (k Δ/σ far too large): the noise is what to change.
  check_error(dpcalc::api::compute(subsampled_group(1000, 1, 1)), "mechanism.mechanism.sigma", "numeric");
  Value grid = subsampled_group(4, 0.01, 1);
  grid.set("discretization", Value::object().set("relative_accuracy", 0.5));
  check_error(dpcalc::api::compute(grid), "discretization.relative_accuracy");
}
