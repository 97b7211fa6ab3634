// Solving for an unknown through dpcalc::api::compute (ops 'group', 'compose' and 'dpsgd' with
// `unknown`): each answer composes back within its target through the op's forward request, the
// value one step beyond does not, and a request that gives the unknown's field is refused on it.
#include <algorithm>
#include <cmath>
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/api/solve.hpp"

namespace {

using dpcalc::api::Value;

double number(const Value& value, const std::string& key) {
  const Value* member = value.find(key);
  REQUIRE_MESSAGE(member != nullptr, key);
  REQUIRE(member->is_number());
  return member->as_number();
}

// ε and δ of a forward answer's guarantee (δ = 0 when pure).
struct Bound {
  double epsilon, delta;
};
Bound bound_of(const Value& request) {
  const Value response = dpcalc::api::compute(request);
  const Value& guarantee = *result_of(response).find("guarantee");
  const Value* delta = guarantee.find("delta");
  return {number(guarantee, "epsilon"), delta != nullptr ? delta->as_number() : 0};
}

Value group_solve(Value guarantee, Value target) {
  return object()
      .set("op", "group")
      .set("unknown", "k")
      .set("guarantee", std::move(guarantee))
      .set("target", std::move(target));
}
Value group_forward(Value guarantee, double k) {
  return object().set("op", "group").set("k", k).set("guarantee", std::move(guarantee));
}

}  // namespace

TEST_CASE("[solve][api] the largest group of a pure guarantee: ⌊ε_t / ε⌋, and one more exceeds ε_t") {
  // Dwork & Roth 2014, Thm 2.2: kε. ε = 0.5, ε_t = 3: k = 6 exactly (binary fractions, no rounding).
  const Value result_response = dpcalc::api::compute(group_solve(pure(0.5), object().set("epsilon", 3)));
  const Value& result = result_of(result_response);
  CHECK(number(result, "k") == 6);
  CHECK(result.find("unknown")->as_string() == "k");
  CHECK(number(*result.find("beyond"), "k") == 7);
  CHECK(bound_of(group_forward(pure(0.5), 6)).epsilon <= 3);
  CHECK(bound_of(group_forward(pure(0.5), 7)).epsilon > 3);
}

TEST_CASE("[solve][api] the largest group of an (ε, δ) guarantee is limited by its growing δ") {
  // Vadhan 2017, Lemma 2.2: (kε, δ (e^{kε} − 1)/(e^ε − 1)). For (1, 1e-6), mpmath: δ_9 = 4.7152e-3 and
  // δ_10 = 1.2818e-2, so at the target (10, 1e-2) the answer is 9, though k = 10 keeps ε <= 10.
  const Value request = group_solve(approx(1, 1e-6), object().set("epsilon", 10).set("delta", 1e-2));
  const Value result_response = dpcalc::api::compute(request);
  const Value& result = result_of(result_response);
  CHECK(number(result, "k") == 9);
  CHECK_REL(number(*result.find("guarantee"), "delta"), 4.7152e-3, 1e-4);
  const Bound at = bound_of(group_forward(approx(1, 1e-6), 9));
  const Bound beyond = bound_of(group_forward(approx(1, 1e-6), 10));
  CHECK((at.epsilon <= 10 && at.delta <= 1e-2));
  CHECK(beyond.delta > 1e-2);
}

TEST_CASE("[solve][api] a group target every k meets, and requests that give the unknown") {
  const Value all_response = dpcalc::api::compute(group_solve(pure(0), object().set("epsilon", 1)));
  const Value& all = result_of(all_response);
  CHECK(all.find("all_meet")->as_bool());
  CHECK(number(all, "k") == 9007199254740992.0);
  CHECK(all.find("note")->as_string().find("2^53") != std::string::npos);
  check_error(dpcalc::api::compute(group_solve(pure(2), object().set("epsilon", 1))), "target.epsilon", "numeric");
  check_error(dpcalc::api::compute(group_solve(pure(1), object().set("epsilon", 3)).set("k", 2)), "k");
  check_error(dpcalc::api::compute(group_solve(pure(1), object().set("epsilon", 3)).set("unknown", "group_size")),
              "unknown");
  check_error(dpcalc::api::compute(group_solve(pure(1), object().set("epsilon", 3).set("delta", 1e-6))),
              "target.delta");
  check_error(dpcalc::api::compute(group_solve(approx(1, 1e-6), object().set("epsilon", 3))), "target.delta");
  check_error(dpcalc::api::compute(group_solve(object().set("type", "zcdp").set("rho", 1), object().set("epsilon", 3))),
              "guarantee.type", "unsupported");
  check_error(dpcalc::api::compute(object().set("op", "group").set("unknown", "k").set("guarantee", pure(1))),
              "target");
}

namespace {

Value items_of(Value first, Value second) {
  Value items = Value::array();
  items.push(std::move(first));
  items.push(std::move(second));
  return items;
}

Value compose_solve(const char* method, Value items, double epsilon, double delta) {
  return object()
      .set("op", "compose")
      .set("method", method)
      .set("unknown", "count")
      .set("items", std::move(items))
      .set("target", object().set("epsilon", epsilon).set("delta", delta));
}

}  // namespace

TEST_CASE("[solve][api] the most releases of one item under basic composition, beside a fixed item") {
  // Σ count·ε: 2 · 1 + n · 0.25 <= 5 for n <= 12 (exact in binary).
  const Value items =
      items_of(object().set("guarantee", pure(0.25)), object().set("guarantee", pure(1)).set("count", 2));
  const Value result_response = dpcalc::api::compute(compose_solve("basic", items, 5, 0));
  const Value& result = result_of(result_response);
  CHECK(number(result, "count") == 12);
  CHECK(number(result, "item") == 0);
  CHECK(number(*result.find("beyond"), "count") == 13);
  CHECK(number(*result.find("guarantee"), "epsilon") == 5);
}

TEST_CASE("[solve][api] the most releases under optimal composition compose back within the target") {
  // Kairouz, Oh, Viswanath 2015, Thm 3.3 (op 'compose' method 'optimal' at the target δ).
  Value items = Value::array();
  items.push(object().set("guarantee", pure(0.01)));
  const Value result_response = dpcalc::api::compute(compose_solve("optimal", items, 1, 1e-5));
  const Value& result = result_of(result_response);
  const double count = number(result, "count");
  const auto forward = [](double n) {
    Value one = Value::array();
    one.push(object().set("guarantee", pure(0.01)).set("count", n));
    return object().set("op", "compose").set("method", "optimal").set("delta", 1e-5).set("items", std::move(one));
  };
  CHECK(bound_of(forward(count)).epsilon <= 1);
  CHECK(bound_of(forward(count + 1)).epsilon > 1);
  // More than basic composition's 100 releases (the optimal bound is never above n ε₀), and a loose
  // upper limit; the answer itself is checked above by composing it back and one release beyond.
  CHECK(count > 100);
  CHECK(count < 1000);
}

TEST_CASE("[solve][api] compose with unknown count: which item, and no δ of its own") {
  Value one = Value::array();
  one.push(object().set("guarantee", pure(0.1)).set("count", 3));
  check_error(dpcalc::api::compute(compose_solve("basic", one, 1, 0)), "items.0.count");
  const Value both = items_of(object().set("guarantee", pure(0.1)), object().set("guarantee", pure(0.2)));
  check_error(dpcalc::api::compute(compose_solve("basic", both, 1, 0)), "items.1.count");
  const Value counted = items_of(object().set("guarantee", pure(0.1)).set("count", 1),
                                 object().set("guarantee", pure(0.2)).set("count", 1));
  check_error(dpcalc::api::compute(compose_solve("basic", counted, 1, 0)), "items");
  Value single = Value::array();
  single.push(object().set("guarantee", pure(0.1)));
  check_error(dpcalc::api::compute(compose_solve("optimal", single, 1, 1e-5).set("delta", 1e-5)), "delta");
  check_error(dpcalc::api::compute(compose_solve("optimal", single, 1, 0)), "target.delta");
  check_error(dpcalc::api::compute(compose_solve("basic", single, 1, 0).set("unknown", "steps")), "unknown");
}

namespace {

// A copy of the request object without the members `keys`.
Value without(const Value& value, const std::vector<std::string>& keys) {
  Value copy = object();
  for (const auto& [key, member] : value.as_object()) {
    if (std::find(keys.begin(), keys.end(), key) == keys.end()) copy.set(key, member);
  }
  return copy;
}

Value poisson_dpsgd() {
  return object()
      .set("op", "dpsgd")
      .set("sampling", "poisson")
      .set("sampling_rate", 0.01)
      .set("group_size", 1)
      .set("noise_multiplier", 1)
      .set("delta", 1e-5);
}

}  // namespace

TEST_CASE("[solve][api] DP-SGD: the most steps compose back within ε, one more step does not") {
  const Value request = poisson_dpsgd().set("unknown", "steps").set("target", object().set("epsilon", 3));
  const Value result_response = dpcalc::api::compute(request);
  const Value& result = result_of(result_response);
  const double steps = number(result, "steps");
  CHECK(bound_of(poisson_dpsgd().set("steps", steps)).epsilon <= 3);
  CHECK(bound_of(poisson_dpsgd().set("steps", steps + 1)).epsilon > 3);
  CHECK(number(*result.find("guarantee"), "epsilon") == bound_of(poisson_dpsgd().set("steps", steps)).epsilon);
}

TEST_CASE("[solve][api] DP-SGD with an unknown refuses the unknown's own field and a mismatched sampling") {
  const Value target = object().set("epsilon", 3);
  check_error(dpcalc::api::compute(poisson_dpsgd().set("unknown", "steps").set("target", target).set("steps", 10)),
              "steps");
  check_error(dpcalc::api::compute(poisson_dpsgd().set("unknown", "steps").set("target", target).set("epochs", 1)),
              "epochs");
  check_error(dpcalc::api::compute(poisson_dpsgd().set("unknown", "sampling_rate").set("target", target)),
              "sampling_rate");
  check_error(dpcalc::api::compute(poisson_dpsgd().set("unknown", "batch_size").set("target", target).set("steps", 10)),
              "unknown");
  check_error(dpcalc::api::compute(poisson_dpsgd().set("unknown", "steps")), "target");
  check_error(dpcalc::api::compute(poisson_dpsgd().set("unknown", "noise_multiplier").set("target", target)),
              "unknown");
}

TEST_CASE("[solve][api] a target beyond the privacy-loss engine's ε is refused at once, naming the limit") {
  // The engine represents privacy losses within ±700 (pld::kMaxLoss, where e^loss still fits a double)
  // and certifies no larger ε: a larger target would only find the engine's own limit, by composing
  // ever more steps near it (minutes for ε = 1e300 before the check).
  const auto refuses = [](const Value& request) {
    const Value response = dpcalc::api::compute(request);
    check_error(response, "target.epsilon");
    REQUIRE(response.find("error") != nullptr);
    CHECK(response.find("error")->find("message")->as_string().find("at most 700") != std::string::npos);
  };
  for (double epsilon : {700.5, 1e300}) {
    CAPTURE(epsilon);
    const Value target = object().set("epsilon", epsilon);
    refuses(poisson_dpsgd().set("unknown", "steps").set("target", target));
    refuses(poisson_dpsgd().set("unknown", "epochs").set("target", target));
    refuses(without(poisson_dpsgd(), {"sampling_rate"})
                .set("unknown", "sampling_rate")
                .set("steps", 1000)
                .set("target", target));
    refuses(
        without(poisson_dpsgd(), {"group_size"}).set("unknown", "group_size").set("steps", 1000).set("target", target));
    refuses(object()
                .set("op", "dpsgd")
                .set("sampling", "fixed_batch")
                .set("dataset_size", 100000)
                .set("group_size", 1)
                .set("noise_multiplier", 1)
                .set("delta", 1e-5)
                .set("steps", 1000)
                .set("unknown", "batch_size")
                .set("target", target));
    Value laplace = Value::array();
    laplace.push(object().set("mechanism", object().set("type", "laplace").set("scale", 1)));
    refuses(compose_solve("pld", laplace, epsilon, 1e-5));
  }
}

TEST_CASE("[solve][api] closed forms answer a huge target at once: every count up to 2^53 meets it") {
  // Basic composition of pure ε = 1 releases: n · 1 <= 1e300 for every n up to 2^53, the largest count
  // the API takes (kMaxCount, where doubles still count every whole number).
  Value one = Value::array();
  one.push(object().set("guarantee", pure(1)));
  const Value response = dpcalc::api::compute(compose_solve("basic", one, 1e300, 0));
  const Value& result = result_of(response);
  CHECK(number(result, "count") == 9007199254740992.0);
  CHECK(result.find("all_meet")->as_bool());
}

TEST_CASE("[solve][api] an item that is not an object is refused on its own path, not on a count it cannot have") {
  Value items = Value::array();
  items.push(object().set("guarantee", pure(0.1)));
  items.push(Value("pure"));
  check_error(dpcalc::api::compute(compose_solve("basic", items, 1, 0)), "items.1");
  Value single = Value::array();
  single.push(Value("pure"));
  check_error(dpcalc::api::compute(compose_solve("basic", single, 1, 0)), "items.0");
}
