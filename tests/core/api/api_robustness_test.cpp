// Robustness natively: the Value tree with many keys, work limits refused before the work,
// overflow reported on the input behind it, −0, field paths of non-objects, readable messages, and
// the optimal split landing at or below its target.
#include <cmath>
#include <limits>
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/budget_split.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"

namespace {

using dpcalc::api::Value;

Value one_item(Value item_object) { return Value::array().push(std::move(item_object)); }

const Value& error_of(const Value& response) {
  REQUIRE_FALSE(response.find("ok")->as_bool());
  return *response.find("error");
}

std::string field_of(const Value& response) { return error_of(response).find("field")->as_string(); }
std::string message_of(const Value& response) { return error_of(response).find("message")->as_string(); }

Value compose_optimal(Value items, double delta = 1e-5) {
  return dpcalc::api::compute(
      object().set("op", "compose").set("method", "optimal").set("delta", delta).set("items", std::move(items)));
}

}  // namespace

TEST_CASE("[api] Value objects: 10^5 keys, found and replaced in place, insertion order kept") {
  Value value = object();
  for (int i = 0; i < 100000; ++i) value.set("key" + std::to_string(i), i);
  value.set("key5", "replaced");
  REQUIRE(value.as_object().size() == 100000);
  CHECK(value.as_object()[5].first == "key5");
  CHECK(value.find("key5")->as_string() == "replaced");
  CHECK(value.find("key99999")->as_number() == 99999);
  CHECK(value.find("missing") == nullptr);
  const Value copy = value;  // the index travels with the copy
  CHECK(copy.find("key77777")->as_number() == 77777);
}

TEST_CASE("[api] the request as a whole: field '' when it is not an object") {
  for (const Value& request : {Value(), Value(42), Value("group"), Value::array()}) {
    CHECK(field_of(dpcalc::api::compute(request)) == "");
    CHECK(message_of(dpcalc::api::compute(request)).rfind("The request must be an object", 0) == 0);
  }
}

TEST_CASE("[api] −0 in a request is read as 0") {
  const Value response = dpcalc::api::compute(object().set("op", "group").set("k", 3).set("guarantee", pure(-0.0)));
  const double epsilon = response.find("result")->find("guarantee")->find("epsilon")->as_number();
  CHECK(epsilon == 0);
  CHECK_FALSE(std::signbit(epsilon));
}

TEST_CASE("[api] optimal composition: counts beyond the limit and ε·count overflow are refused before the work") {
  // Once: 2^53 never returned; the Laplace at scale 1e-310 spun on NaN.
  const Value huge = compose_optimal(one_item(object().set("guarantee", pure(0.01)).set("count", 9007199254740992.0)));
  CHECK(field_of(huge) == "items.0.count");
  CHECK(message_of(huge).find("at most 1e+07") != std::string::npos);
  const Value laplace = compose_optimal(
      one_item(object().set("mechanism", object().set("type", "laplace").set("scale", 1e-310)).set("count", 1)));
  CHECK(field_of(laplace) == "items.0.mechanism.scale");
  const Value overflow = compose_optimal(one_item(object().set("guarantee", pure(1e308)).set("count", 10)));
  CHECK(field_of(overflow) == "items.0.guarantee.epsilon");
  CHECK(dpcalc::check_optimal_composition_size(0.01, dpcalc::kMaxOptimalCompositionCount).ok());
  CHECK_FALSE(dpcalc::check_optimal_composition_size(0.01, dpcalc::kMaxOptimalCompositionCount + 1).ok());
}

TEST_CASE("[api] results that would overflow name the input behind them") {
  // Each formerly "not a finite number; please report this request" on field ''.
  const Value group =
      dpcalc::api::compute(object()
                               .set("op", "group")
                               .set("k", 2)
                               .set("delta", 1e-5)
                               .set("mechanism", object().set("type", "gaussian").set("sigma", 1e-300)));
  CHECK(field_of(group) == "mechanism.sigma");
  const Value convert =
      dpcalc::api::compute(object().set("op", "convert").set("guarantee", pure(1e200)).set("to", "zcdp"));
  CHECK(field_of(convert) == "guarantee.epsilon");
  const Value split = dpcalc::api::compute(object()
                                               .set("op", "split")
                                               .set("method", "zcdp")
                                               .set("count", 2)
                                               .set("target", object().set("epsilon", 1e308).set("delta", 1e-5)));
  CHECK(field_of(split) == "target.epsilon");
  Value rdp_group = object()
                        .set("op", "group")
                        .set("k", 2)
                        .set("guarantee", object()
                                              .set("type", "rdp")
                                              .set("orders", Value::numbers({4, 8}))
                                              .set("epsilons", Value::numbers({1, 1e308})));
  CHECK(field_of(dpcalc::api::compute(rdp_group)) == "guarantee.epsilons.1");
}

TEST_CASE("[checks] messages name the quantity, the rule and the value") {
  CHECK(dpcalc::check_delta(1.5, "target.delta").error().message ==
        "δ must be below 1 (δ = 1 promises nothing) (got 1.5).");
  CHECK(dpcalc::check_positive(-2, "items.3.mechanism.sigma").error().message == "σ must be greater than 0 (got -2).");
  CHECK(dpcalc::check_epsilon(INFINITY, "guarantee.epsilon").error().message ==
        "ε must be a finite number (got Infinity).");
  CHECK(dpcalc::check_rate(NAN, "items.0.mechanism.rate").error().message ==
        "The sampling rate must be a probability greater than 0 and at most 1 (got NaN, which is not a number).");
  CHECK(dpcalc::describe_name("guarantee.epsilons.3") == "ε at guarantee.epsilons.3");
  CHECK(dpcalc::describe_name("unknown_name") == "unknown_name");
}

TEST_CASE("[budget_split] the optimal split recomposes at or below its target, reported unclamped") {
  // Once `achieved` was min(recomposed, target), hiding recompositions up to 1.25e-13 above.
  for (double count : {1.0, 7.0, 10.0, 1000.0, 31337.0}) {
    for (const dpcalc::ApproxDp target : {dpcalc::ApproxDp{1, 1e-5}, dpcalc::ApproxDp{0.1, 1e-8}}) {
      CAPTURE(count);
      const auto split = dpcalc::split_budget(dpcalc::SplitMethod::kOptimal, target, count);
      REQUIRE(split.ok());
      const auto back = dpcalc::optimal_composition_epsilon(split.value().per_item, count, target.delta);
      REQUIRE(back.ok());
      CHECK(back.value() == split.value().achieved.epsilon);
      CHECK(back.value() <= target.epsilon);
    }
  }
  CHECK_FALSE(dpcalc::split_budget(dpcalc::SplitMethod::kOptimal, {1, 1e-5}, 1e12).ok());
}

TEST_CASE("[api] a request without op: a near miss of it among the keys is named") {
  const Value typo = dpcalc::api::compute(object().set("po", "compose"));
  CHECK(field_of(typo) == "op");
  CHECK(message_of(typo).find("did you mean 'op'") != std::string::npos);
  CHECK(message_of(typo).find("'po'") != std::string::npos);
  CHECK(message_of(dpcalc::api::compute(object().set("OP", "compose"))).find("did you mean 'op'") != std::string::npos);
  // No near miss: just required.
  const Value missing = dpcalc::api::compute(object().set("method", "pld"));
  CHECK(field_of(missing) == "op");
  CHECK(message_of(missing).find("did you mean") == std::string::npos);
}
