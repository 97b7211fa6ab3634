// Op 'rdp' and compose method 'rdp' through the API: every mechanism with a Rényi curve, labelled by
// the curves it uses; orders 1 and "infinity"; the exact fractional orders of the Poisson-subsampled
// Gaussian; tuning by random repetition (`repetitions`). Reference values: mpmath from the
// definitions (tests/reference/rdp_api_reference.py, rdp_exact_reference.py) and dp_accounting 0.6.0
// run from source (tests/reference/repeat_and_select_reference.py, section dp_accounting).
#include <doctest/doctest.h>

#include <string>

#include "mechanisms/mechanism_requests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;

Value rdp_request(const Value& mechanism, double count, const Value& orders) {
  return object().set("op", "rdp").set("items", items(mechanism, count)).set("orders", orders);
}

Value orders_of(std::initializer_list<Value> values) {
  Value list = Value::array();
  for (const Value& value : values) list.push(value);
  return list;
}

Value subsampled_gaussian(double rate, double sigma) {
  return object()
      .set("type", "poisson_subsampled")
      .set("rate", rate)
      .set("mechanism", object().set("type", "gaussian").set("sigma", sigma));
}

// The result of an ok response, kept (result_of refers into the response).
Value answer(const Value& request) { return result_of(dpcalc::api::compute(request)); }

double epsilon_at(const Value& result, std::size_t i) { return result.find("epsilons")->as_array()[i].as_number(); }

void check_close(double value, double exact, double relative) {
  CHECK(value >= exact * (1 - 1e-12));
  CHECK(value <= exact * (1 + relative));
}

// DP-SGD of dp_accounting's tuning example: q = 0.01, σ = 1, 1000 steps, as one composition item.
Value dpsgd_item_compose(const Value& repetitions) {
  return object()
      .set("op", "compose")
      .set("method", "rdp")
      .set("delta", 1e-5)
      .set("items", items(subsampled_gaussian(0.01, 1), 1000))
      .set("repetitions", repetitions);
}

Value law(double mean, const std::string& distribution) {
  return object().set("mean", mean).set("distribution", distribution);
}

}  // namespace

TEST_CASE("[api] rdp: orders 1, 2 and infinity of Laplace; infinity of a Gaussian is infinite") {
  const Value laplace = object().set("type", "laplace").set("scale", 1);
  const Value result = answer(rdp_request(laplace, 3, orders_of({1, 2, "infinity"})));
  // mpmath (rdp_api_reference.py, curves): 3 e^{-1}, 1.8573708899957787, 3.
  check_close(epsilon_at(result, 0), 1.103638323514327, 1e-12);
  check_close(epsilon_at(result, 1), 1.8573708899957787, 1e-12);
  check_close(epsilon_at(result, 2), 3.0, 1e-15);
  CHECK(result.find("orders")->as_array()[2].as_string() == "infinity");
  CHECK(result.find("method")->as_string() == "Rényi DP of the Laplace mechanism");
  CHECK(result.find("dropped_orders") == nullptr);

  const Value gaussian = object().set("type", "gaussian").set("sigma", 2);
  const Value both = answer(rdp_request(gaussian, 1, orders_of({2, "infinity"})));
  CHECK(both.find("epsilons")->as_array()[0].as_number() == doctest::Approx(0.25));  // α/(2σ²)
  CHECK(both.find("epsilons")->as_array()[1].as_string() == "infinity");

  // Every order infinite: nothing to report.
  check_error(dpcalc::api::compute(rdp_request(gaussian, 1, orders_of({"infinity"}))), "orders", "numeric");
  check_error(dpcalc::api::compute(rdp_request(gaussian, 1, orders_of({2, "inf"}))), "orders.1");
  check_error(dpcalc::api::compute(rdp_request(gaussian, 1, orders_of({0.5}))), "orders.0");
}

TEST_CASE("[api] rdp: the exact fractional order of the Poisson-subsampled Gaussian, no order dropped") {
  // Quadrature (rdp_exact_reference.py; TF Privacy's compute_rdp agrees): 2.5090084724645965e-4, within
  // 1e-6 relative (the example; dp_accounting 0.6.0 prints 4.12e-3).
  const Value exact = answer(rdp_request(subsampled_gaussian(0.2, 10), 1, orders_of({1.25})));
  check_close(epsilon_at(exact, 0), 2.5090084724645965e-4, 1e-6);
  CHECK(exact.find("method")->as_string() == "Rényi DP of the Poisson-subsampled Gaussian");
  // q = 0.2, σ = 2, order 1.25, which dp_accounting leaves out: 0.0068247779061931632 (quadrature).
  const Value small = answer(rdp_request(subsampled_gaussian(0.2, 2), 1, orders_of({1.25, 2})));
  check_close(epsilon_at(small, 0), 0.0068247779061931632, 1e-6);
  CHECK(small.find("dropped_orders") == nullptr);
  CHECK(small.find("orders")->as_array().size() == 2);
}

TEST_CASE("[api] rdp: each mechanism's curve, labelled by it") {
  struct Case {
    Value mechanism;
    double exact;  // ε(2), mpmath (rdp_api_reference.py, curves)
    std::string method;
  };
  const Case cases[] = {
      {object().set("type", "randomized_response").set("noise_parameter", 0.5).set("num_buckets", 4),
       1.2237754316221157, "Rényi DP of randomized response (its exact pair)"},
      {object().set("type", "exponential").set("epsilon", 1), 0.24022901391655505,
       "Rényi DP of ε-bounded-range mechanisms (the supremum over the extremal two-point pairs)"},
      {object().set("type", "discrete_gaussian").set("sigma", 2), 0.25,
       "Rényi DP of the discrete Gaussian mechanism (its exact pair)"},
  };
  for (const Case& each : cases) {
    Value request = rdp_request(each.mechanism, 1, orders_of({2}));
    if (each.mechanism.find("type")->as_string() == "randomized_response") request.set("relation", "substitute");
    const Value result = answer(request);
    check_close(epsilon_at(result, 0), each.exact, 1e-9);
    CHECK(result.find("method")->as_string() == each.method);
  }
  // An exponential selection counts once per selection (dp_accounting counts the item once whatever
  // its count): 5 selections, 5 curves.
  const Value exponential = object().set("type", "exponential").set("epsilon", 1);
  const Value five = answer(rdp_request(exponential, 5, orders_of({2})));
  check_close(epsilon_at(five, 0), 5 * 0.24022901391655505, 1e-9);

  // Sampling without replacement around Laplace: Wang, Balle, Kasiviswanathan's, not the Poisson one.
  const Value swor = object()
                         .set("type", "sampled_without_replacement")
                         .set("dataset_size", 1000)
                         .set("sample_size", 10)
                         .set("mechanism", object().set("type", "laplace").set("scale", 1));
  Value swor_request = rdp_request(swor, 1, orders_of({2, 3}));
  swor_request.set("relation", "substitute");
  const Value sampled = answer(swor_request);
  CHECK(sampled.find("method")->as_string() == "Rényi DP of sampling without replacement");
  CHECK(sampled.find("citation")->as_string() == "Wang, Balle, Kasiviswanathan 2019, Thm 9");

  // Two curves composed: both named, both cited, each key once.
  Value two = Value::array();
  two.push(object().set("mechanism", object().set("type", "laplace").set("scale", 1)).set("count", 1));
  two.push(object().set("mechanism", object().set("type", "gaussian").set("sigma", 1)).set("count", 1));
  const Value mixed = answer(object().set("op", "rdp").set("items", two).set("orders", orders_of({2})));
  CHECK(mixed.find("method")->as_string() == "Rényi DP of the Laplace mechanism; Rényi DP of the Gaussian mechanism");
  CHECK(mixed.find("citation")->as_string() == "Mironov 2017, Prop. 6; Mironov 2017, Prop. 7");
  CHECK(mixed.find("citation_key")->as_string() == "mironov2017renyi");
  // Laplace's ε(2) = 0.61912363 (a third of 1.8573708899957787) plus the Gaussian's 1.
  check_close(epsilon_at(mixed, 0), 1.8573708899957787 / 3 + 1, 1e-12);
}

TEST_CASE("[api] rdp: the subsampled Gaussian's curve is refused under substitution (its pair is not)") {
  Value request = rdp_request(subsampled_gaussian(0.01, 1), 1, orders_of({2}));
  request.set("relation", "substitute");
  check_error(dpcalc::api::compute(request), "items.0.mechanism.type", "unsupported");
  request.set("relation", "zero_out");
  CHECK(result_of(dpcalc::api::compute(request)).find("epsilons") != nullptr);
  // A mechanism without a curve names itself.
  const Value mixture = object()
                            .set("type", "gaussian_mixture")
                            .set("sigma", 1)
                            .set("shifts", Value::numbers({0, 1}))
                            .set("weights", Value::numbers({0.5, 0.5}));
  check_error(dpcalc::api::compute(rdp_request(mixture, 1, orders_of({2}))), "items.0.mechanism.type", "unsupported");
}

TEST_CASE("[api] compose rdp with repetitions: Papernot & Steinke 2022 as dp_accounting computes it") {
  // dp_accounting 0.6.0 from source (repeat_and_select_reference.py, section dp_accounting):
  // geometric 4.10327065640215, logarithmic 3.5226334451373686, Poisson 4.329497680252047, 10 runs
  // composed 6.712756664482653. dpcalc's curve is exact at its fractional orders and its orders
  // differ (12 … 64 instead of 11 … 63), so its answers may lie a little either side (docs/rdp.md,
  // Sec. 4: 4.1033, 3.5226, 4.3294, 6.7127).
  struct Case {
    Value repetitions;
    double dp_accounting;
  };
  const Case cases[] = {
      {law(10, "geometric"), 4.10327065640215},
      {law(10, "logarithmic"), 3.5226334451373686},
      {law(10, "poisson"), 4.329497680252047},
      {law(10, "truncated_negative_binomial").set("shape", 1), 4.10327065640215},
  };
  for (const Case& each : cases) {
    const Value result = answer(dpsgd_item_compose(each.repetitions));
    CHECK(number_at(result, "guarantee", "epsilon") == doctest::Approx(each.dp_accounting).epsilon(1e-4));
    CHECK(number_at(*result.find("fixed_runs"), "guarantee", "epsilon") ==
          doctest::Approx(6.712756664482653).epsilon(1e-4));
    CHECK(number_at(*result.find("fixed_runs"), "runs") == 10);
    CHECK(result.find("citation")->as_string() ==
          "Papernot & Steinke 2022, Thms 2 and 6; Mironov, Talwar, Zhang 2019, Sec. 3");
    CHECK(result.find("repetitions")->find("distribution")->as_string() ==
          each.repetitions.find("distribution")->as_string());
  }
}

TEST_CASE("[api] repetitions: each bad input on its field") {
  check_error(dpcalc::api::compute(dpsgd_item_compose(law(0.5, "poisson"))), "repetitions.mean");
  check_error(dpcalc::api::compute(dpsgd_item_compose(law(10, "truncated_negative_binomial"))), "repetitions.shape");
  check_error(dpcalc::api::compute(dpsgd_item_compose(law(10, "truncated_negative_binomial").set("shape", -1))),
              "repetitions.shape");
  check_error(dpcalc::api::compute(dpsgd_item_compose(law(10, "geometric").set("shape", 2))), "repetitions.shape");
  const Value typo = dpcalc::api::compute(dpsgd_item_compose(law(10, "poison")));
  check_error(typo, "repetitions.distribution");
  CHECK(typo.find("error")->find("message")->as_string().find("did you mean 'poisson'") != std::string::npos);
  check_error(dpcalc::api::compute(dpsgd_item_compose(object().set("distribution", "poisson"))), "repetitions.mean");
  // Only method 'rdp' takes it (the schema).
  Value pld = dpsgd_item_compose(law(10, "poisson"));
  pld.set("method", "pld");
  check_error(dpcalc::api::compute(pld), "repetitions");
}

TEST_CASE("[api] poisson_subsampled under substitution: components at ±Δ") {
  // At rate 1 the pair is N(Δ, σ²) against N(−Δ, σ²): the Gaussian of shift 2Δ. mpmath (analytic
  // Gaussian, rdp_api_reference.py, replace): δ(1) = 0.12693673750664395 at σ = 2, Δ = 1.
  Value profile = object()
                      .set("op", "profile")
                      .set("items", items(subsampled_gaussian(1, 2), 1))
                      .set("epsilons", Value::numbers({1}))
                      .set("relation", "substitute");
  const Value result = answer(profile);
  const double upper = result.find("delta_upper")->as_array()[0].as_number();
  const double lower = result.find("delta_lower")->as_array()[0].as_number();
  CHECK(lower <= 0.12693673750664395 * (1 + 1e-9));
  CHECK(upper >= 0.12693673750664395 * (1 - 1e-9));
  CHECK(upper <= 0.12693673750664395 * 1.005);
  // DP-SGD's step (q = 0.01, σ = 1) 1000 times at δ = 1e-5: dp_accounting 0.6.0 from source,
  // PLDAccountant(REPLACE_ONE) on PoissonSampledDpEvent(0.01, GaussianDpEvent(1)) × 1000:
  // 2.8434458130196942 (its pessimistic estimate, an upper bound); add/remove gives 1.828243645616618.
  const Bracket replaced = pld_epsilon(subsampled_gaussian(0.01, 1), 1000, 1e-5, "substitute");
  CHECK(replaced.lower <= 2.8434458130196942);
  CHECK(replaced.upper >= 2.8434458130196942 * (1 - 2e-3));
  CHECK(replaced.upper <= 2.8434458130196942 * 1.005);
  const Bracket zeroed = pld_epsilon(subsampled_gaussian(0.01, 1), 1000, 1e-5, "zero_out");
  CHECK(zeroed.lower <= 1.828243645616618);
  CHECK(zeroed.upper >= 1.828243645616618 * (1 - 2e-3));
  // Laplace inside has no proven ±Δ pair (dp_accounting refuses it): it is accounted through the
  // profile bound of advanced joint convexity (poisson_substitution_test.cpp), and the result says so.
  const Value laplace = object()
                            .set("type", "poisson_subsampled")
                            .set("rate", 0.1)
                            .set("mechanism", object().set("type", "laplace").set("scale", 1));
  const Value bound = answer(compose("pld", laplace, 10, 1e-5, "substitute"));
  REQUIRE(bound.find("note") != nullptr);
  CHECK(bound.find("note")->as_string().find("advanced joint convexity") != std::string::npos);
}

TEST_CASE("[api] dpsgd with repetitions: the tuned ε beside the fixed runs by PLD") {
  const auto dpsgd = [](const Value& repetitions) {
    return object()
        .set("op", "dpsgd")
        .set("sampling", "poisson")
        .set("sampling_rate", 0.01)
        .set("noise_multiplier", 1)
        .set("steps", 1000)
        .set("delta", 1e-5)
        .set("repetitions", repetitions);
  };
  // dp_accounting 0.6.0 from source: RdpAccountant on RepeatAndSelectDpEvent (Poisson 4.329497680252047,
  // geometric 4.10327065640215; repeat_and_select_reference.py) and PLDAccountant on 10 000 steps
  // (6.1877449761406655, its pessimistic estimate).
  const Value poisson = answer(dpsgd(law(10, "poisson")));
  CHECK(number_at(poisson, "guarantee", "epsilon") == doctest::Approx(4.329497680252047).epsilon(1e-4));
  const Value& fixed = *poisson.find("fixed_runs");
  CHECK(number_at(fixed, "runs") == 10);
  CHECK(number_at(fixed, "epsilon_lower") <= 6.1877449761406655);
  CHECK(number_at(fixed, "guarantee", "epsilon") >= 6.1877449761406655 * (1 - 2e-3));
  CHECK(number_at(fixed, "guarantee", "epsilon") <= 6.1877449761406655 * 1.005);
  CHECK(poisson.find("steps")->as_number() == 1000);
  const Value geometric = answer(dpsgd(law(10, "geometric")));
  CHECK(number_at(geometric, "guarantee", "epsilon") == doctest::Approx(4.10327065640215).epsilon(1e-4));

  // Where no Rényi curve of the run is known, or the question is another.
  Value shuffled = dpsgd(law(10, "poisson"));
  shuffled.set("sampling", "fixed_batch").set("dataset_size", 1000).set("batch_size", 10);
  shuffled.set("sampling_rate", Value());
  check_error(dpcalc::api::compute(shuffled), "sampling", "unsupported");
  Value group = dpsgd(law(10, "poisson"));
  group.set("group_size", 2);
  check_error(dpcalc::api::compute(group), "group_size", "unsupported");
  Value replaced = dpsgd(law(10, "poisson"));
  replaced.set("relation", "substitute");
  check_error(dpcalc::api::compute(replaced), "relation", "unsupported");
  Value calibrating = dpsgd(law(10, "poisson"));
  calibrating.set("noise_multiplier", Value()).set("target", object().set("epsilon", 3));
  check_error(dpcalc::api::compute(calibrating), "repetitions");
  Value explained = dpsgd(law(10, "poisson"));
  explained.set("explain", true);
  check_error(dpcalc::api::compute(explained), "repetitions");
  check_error(dpcalc::api::compute(dpsgd(law(0, "geometric"))), "repetitions.mean");
}

TEST_CASE("[api] sampling without replacement of a Poisson-subsampled Gaussian: no pair, refused on relation") {
  const Value nested = object()
                           .set("type", "sampled_without_replacement")
                           .set("dataset_size", 1000)
                           .set("sample_size", 100)
                           .set("mechanism", subsampled_gaussian(0.1, 1));
  check_error(dpcalc::api::compute(compose("pld", nested, 10, 1e-5, "substitute")), "relation");
  check_error(dpcalc::api::compute(compose("rdp", nested, 10, 1e-5, "substitute")), "relation");
}

TEST_CASE("[api] rdp: every default order answered for q ≥ 0.05 and σ from 0.25 to 2") {
  // The divergence is finite at every finite order here; dp_accounting 0.6.0 leaves order 1.25 out for
  // these settings (its series has not met its stopping rule in 1000 terms).
  for (const double rate : {0.05, 0.2, 0.5, 0.9}) {
    for (const double sigma : {0.25, 0.5, 1.0, 2.0}) {
      const Value result = answer(object().set("op", "rdp").set("items", items(subsampled_gaussian(rate, sigma), 1)));
      CHECK(result.find("dropped_orders") == nullptr);
      for (const Value& epsilon : result.find("epsilons")->as_array()) {
        CHECK_MESSAGE(epsilon.is_number(), "q = ", rate, ", σ = ", sigma);
      }
    }
  }
}

TEST_CASE("[api] the trade-off of a Rényi composition with order infinity writes it as the string") {
  Value orders = Value::array();
  orders.push(2).push("infinity");
  const Value of = object()
                       .set("op", "compose")
                       .set("method", "rdp")
                       .set("delta", 1e-5)
                       .set("orders", orders)
                       .set("items", items(object().set("type", "laplace").set("scale", 1), 2));
  const Value result = answer(object().set("op", "tradeoff").set("of", of));
  const Value* guarantee = result.find("guarantee");
  REQUIRE(guarantee != nullptr);
  CHECK(guarantee->find("orders")->as_array()[1].as_string() == "infinity");
  CHECK(guarantee->find("epsilons")->as_array()[1].as_number() == doctest::Approx(2));  // pure 2-DP
}
