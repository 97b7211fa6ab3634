// The request/result layer (dpcalc::api::compute) natively: dispatch, error shapes and field paths,
// and that results carry the values of the typed core. Expected numbers come from the closed forms
// evaluated with mpmath at 40 digits (noted beside each).
#include <cmath>
#include <limits>
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/checks.hpp"

namespace {

using dpcalc::api::Value;

Value items_of(const Value& guarantee, double count) {
  Value items = Value::array();
  items.push(object().set("guarantee", guarantee).set("count", count));
  return items;
}

double number_at(const Value& value, const std::string& dotted) {
  const Value* current = &value;
  std::size_t start = 0;
  while (start <= dotted.size()) {
    const std::size_t end = dotted.find('.', start);
    const std::string key = dotted.substr(start, end == std::string::npos ? std::string::npos : end - start);
    current = current->find(key);
    REQUIRE_MESSAGE(current != nullptr, dotted);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  REQUIRE(current->is_number());
  return current->as_number();
}

}  // namespace

TEST_CASE("[api] group privacy results carry the core's values, method and citation") {
  const Value response =
      dpcalc::api::compute(object().set("op", "group").set("k", 4).set("guarantee", approx(1, 1e-6)));
  const Value& result = result_of(response);
  CHECK(result.find("guarantee")->find("type")->as_string() == "approx");
  CHECK(number_at(result, "guarantee.epsilon") == 4);
  // 1e-6 (e^4 − 1)/(e − 1), mpmath: 3.119287485057736e-05
  CHECK_REL(number_at(result, "guarantee.delta"), 3.119287485057736e-05, 1e-12);
  CHECK(result.find("citation")->as_string() == "Vadhan 2017, Lemma 2.2");
  // The BibTeX key of the work cited, for the page's bibliography (web/app/bibliography.js).
  CHECK(result.find("citation_key")->as_string() == "vadhan2017complexity");
  CHECK(result.find("vacuous") == nullptr);
}

TEST_CASE("[api] a vacuous group bound says so and reports delta 1") {
  const Value response =
      dpcalc::api::compute(object().set("op", "group").set("k", 5000).set("guarantee", approx(1, 1e-300)));
  const Value& result = result_of(response);
  CHECK(result.find("vacuous")->as_bool());
  CHECK(number_at(result, "guarantee.delta") == 1);
}

TEST_CASE("[api] compose dispatches every closed-form method") {
  SUBCASE("basic keeps pure items pure") {
    const Value response = dpcalc::api::compute(
        object().set("op", "compose").set("method", "basic").set("items", items_of(pure(0.1), 10)));
    const Value& result = result_of(response);
    CHECK(result.find("guarantee")->find("type")->as_string() == "pure");
    CHECK_REL(number_at(result, "guarantee.epsilon"), 1.0, 1e-15);
  }
  SUBCASE("optimal matches Kairouz–Oh–Viswanath (public_values.json, mpmath 30 digits)") {
    const Value response = dpcalc::api::compute(object()
                                                    .set("op", "compose")
                                                    .set("method", "optimal")
                                                    .set("delta", 1e-5)
                                                    .set("items", items_of(pure(0.1), 100)));
    const Value& result = result_of(response);
    CHECK_REL(number_at(result, "guarantee.epsilon"), 4.306791372516507, 1e-9);
  }
  SUBCASE("zcdp converts with Canonne–Kamath–Steinke (public_values.json: 5.221534)") {
    const Value response =
        dpcalc::api::compute(object()
                                 .set("op", "compose")
                                 .set("method", "zcdp")
                                 .set("delta", 1e-6)
                                 .set("items", items_of(object().set("type", "zcdp").set("rho", 0.25), 2)));
    const Value& result = result_of(response);
    CHECK_REL(number_at(result, "guarantee.rho"), 0.5, 1e-15);
    CHECK_REL(number_at(result, "approx.epsilon"), 5.221534, 1e-6);
  }
}

TEST_CASE("[api] RDP of plain Gaussians cites Mironov 2017, of subsampled ones Mironov, Talwar, Zhang 2019") {
  const auto gaussian = [](double sigma) { return object().set("type", "gaussian").set("sigma", sigma); };
  const auto subsampled = [&](double sigma) {
    return object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", gaussian(sigma));
  };
  const auto items = [](std::initializer_list<Value> mechanisms) {
    Value list = Value::array();
    for (const Value& mechanism : mechanisms) list.push(object().set("mechanism", mechanism).set("count", 10));
    return list;
  };
  for (const bool compose : {false, true}) {
    CAPTURE(compose);
    const auto ask = [&](const Value& list) {
      Value request = object().set("op", compose ? "compose" : "rdp").set("items", list);
      if (compose) request.set("method", "rdp").set("delta", 1e-5);
      return result_of(dpcalc::api::compute(request));
    };
    const Value plain = ask(items({gaussian(2)}));
    CHECK(plain.find("method")->as_string() == "Rényi DP of the Gaussian mechanism");
    CHECK(plain.find("citation")->as_string() == "Mironov 2017, Prop. 7");
    CHECK(plain.find("citation_key")->as_string() == "mironov2017renyi");
    const Value sampled = ask(items({subsampled(2)}));
    CHECK(sampled.find("citation")->as_string() == "Mironov, Talwar, Zhang 2019, Sec. 3");
    CHECK(sampled.find("citation_key")->as_string() == "mironov2019renyi");
    const Value both = ask(items({gaussian(2), subsampled(2)}));
    CHECK(both.find("citation")->as_string() == "Mironov 2017, Prop. 7; Mironov, Talwar, Zhang 2019, Sec. 3");
    CHECK(both.find("citation_key")->as_array().size() == 2);
  }
}

TEST_CASE("[api] pld refuses 100 items of (0.01, 1e-8) just above their δ mass and names the exact method") {
  // The items' own δ mass is 1 − (1 − 1e-8)^100 = 9.99999505e-7; the pessimistic PLD adds its cut tail
  // (2.5e-15) to it. At δ = 1e-6 the numeric composition answers (the rounding bound of the few masses
  // above ε is far below the 4.9e-13 left), at or above the exact optimal composition (Kairouz, Oh,
  // Viswanath 2015, Thm 3.3: 0.63355); at 9.999995052e-7 it cannot, and optimal composition can.
  const Value at_floor = object()
                             .set("op", "compose")
                             .set("method", "pld")
                             .set("delta", 1e-6)
                             .set("items", items_of(approx(0.01, 1e-8), 100));
  Value optimal_at_floor = at_floor;
  optimal_at_floor.set("method", "optimal");
  const double exact_at_floor = number_at(result_of(dpcalc::api::compute(optimal_at_floor)), "guarantee.epsilon");
  CHECK_REL(exact_at_floor, 0.633552278920128, 1e-12);
  const double numeric_at_floor = number_at(result_of(dpcalc::api::compute(at_floor)), "guarantee.epsilon");
  CHECK(numeric_at_floor >= exact_at_floor);
  CHECK(numeric_at_floor <= 0.65 + 1e-12);  // the next point of the items' loss lattice (steps of 0.01)
  Value request = at_floor;
  request.set("delta", 9.999995052e-7);
  const Value response = dpcalc::api::compute(request);
  check_error(response, "delta");
  const std::string message = response.find("error")->find("message")->as_string();
  CHECK(message.find("method 'optimal'") != std::string::npos);
  Value optimal = request;
  optimal.set("method", "optimal");
  const Value exact = result_of(dpcalc::api::compute(optimal));
  CHECK(message.find("ε = " + dpcalc::format_number(number_at(exact, "guarantee.epsilon"))) != std::string::npos);
}

TEST_CASE("[api] the DP-SGD pair at k = 5, σ = 0.1 is drawn although its accounting is refused") {
  Value request = object()
                      .set("op", "dpsgd")
                      .set("sampling", "poisson")
                      .set("sampling_rate", 0.01)
                      .set("steps", 1000)
                      .set("group_size", 5)
                      .set("noise_multiplier", 0.1)
                      .set("delta", 1e-5);
  check_error(dpcalc::api::compute(request), "noise_multiplier", "numeric");
  Value pair = object()
                   .set("op", "dpsgd_pair")
                   .set("sampling", "poisson")
                   .set("sampling_rate", 0.01)
                   .set("group_size", 5)
                   .set("noise_multiplier", 0.1);
  const Value result = result_of(dpcalc::api::compute(pair));
  REQUIRE(result.find("x")->as_array().size() == 161);
  REQUIRE(result.find("p")->as_array().size() == 161);
  REQUIRE(result.find("q")->as_array().size() == 161);
  CHECK(result.find("x")->as_array().front().as_number() == doctest::Approx(-0.4));
  CHECK(result.find("x")->as_array().back().as_number() == doctest::Approx(5.4));
  CHECK(result.find("mixture")->find("shifts")->as_array().size() == 6);
  CHECK(result.find("citation_key")->as_array().size() == 2);
  check_error(dpcalc::api::compute(pair.set("points", 1)), "points");
  check_error(
      dpcalc::api::compute(
          object().set("op", "dpsgd_pair").set("sampling", "poisson").set("sampling_rate", 0.01).set("group_size", 5)),
      "noise_multiplier");
}

TEST_CASE("[api] a DP-SGD bracket wider than the accuracy asked for says why and what narrows it") {
  // δ ≈ 1.2e-9 is near the smallest δ the grid certifies for two steps (about 4e-10, the bound on the
  // rounding error of their FFT composition): the bracket [16.96, 19.29] cannot narrow by refining,
  // so the tight row says so. (One step has no FFT: its bracket at this δ is [17.1661, 17.1662].)
  const Value request = object()
                            .set("op", "dpsgd")
                            .set("sampling", "fixed_batch")
                            .set("dataset_size", 1e9)
                            .set("batch_size", 2042700)
                            .set("steps", 2)
                            .set("group_size", 5)
                            .set("noise_multiplier", 0.4797840944784622)
                            .set("delta", 1.2364895404313976e-09);
  const Value response = dpcalc::api::compute(request);
  const Value* note = result_of(response).find("methods")->find("pld")->find("note");
  REQUIRE(note != nullptr);
  CHECK(note->as_string().find("smallest certifiable δ") != std::string::npos);
  CHECK(note->as_string().find("a larger δ narrows the bracket") != std::string::npos);
}

TEST_CASE("[api] malformed requests name the offending field and never crash") {
  // docs/API.md: the field is '' when the request as a whole is not an object.
  check_error(dpcalc::api::compute(Value()), "");
  check_error(dpcalc::api::compute(Value("group")), "");
  check_error(dpcalc::api::compute(object()), "op");
  check_error(dpcalc::api::compute(object().set("op", 3)), "op");
  check_error(dpcalc::api::compute(object().set("op", "nope")), "op");
  const Value group = object().set("op", "group");
  check_error(dpcalc::api::compute(Value(group).set("k", "4").set("guarantee", pure(1))), "k");
  check_error(dpcalc::api::compute(Value(group).set("k", 2.5).set("guarantee", pure(1))), "k");
  check_error(dpcalc::api::compute(Value(group).set("k", 0).set("guarantee", pure(1))), "k");
  check_error(dpcalc::api::compute(Value(group).set("k", std::nan("")).set("guarantee", pure(1))), "k");
  check_error(dpcalc::api::compute(Value(group).set("k", 2).set("guarantee", approx(1, 1))), "guarantee.delta");
  check_error(
      dpcalc::api::compute(Value(group).set("k", 2).set("guarantee", pure(std::numeric_limits<double>::infinity()))),
      "guarantee.epsilon");
  check_error(dpcalc::api::compute(Value(group).set("k", 2).set("guarantee", Value::array())), "guarantee");
  const Value compose = object().set("op", "compose");
  check_error(dpcalc::api::compute(Value(compose).set("method", "magic").set("items", items_of(pure(1), 1))), "method");
  check_error(dpcalc::api::compute(Value(compose).set("method", "basic").set("items", Value::array())), "items");
  check_error(dpcalc::api::compute(Value(compose).set("method", "basic").set("items", items_of(pure(-1), 1))),
              "items.0.guarantee.epsilon");
  check_error(dpcalc::api::compute(Value(compose).set("method", "basic").set("items", items_of(pure(1), 1.5))),
              "items.0.count");
  // Optimal composition cannot reach a delta below 1 − (1 − delta0)^k (Kairouz et al. 2015, Thm 3.3).
  check_error(
      dpcalc::api::compute(
          Value(compose).set("method", "optimal").set("delta", 1e-7).set("items", items_of(approx(0.1, 1e-7), 10))),
      "delta");
  Value heterogeneous = items_of(pure(0.1), 3);
  heterogeneous.push(object().set("guarantee", pure(0.2)).set("count", 1));
  check_error(
      dpcalc::api::compute(Value(compose).set("method", "optimal").set("delta", 1e-6).set("items", heterogeneous)),
      "items", "unsupported");
  Value gaussian_items = Value::array();
  gaussian_items.push(object().set("mechanism", object().set("type", "gaussian").set("sigma", 1)).set("count", 1));
  check_error(dpcalc::api::compute(Value(compose).set("method", "basic").set("items", gaussian_items)),
              "items.0.mechanism", "unsupported");
  check_error(dpcalc::api::compute(
                  object().set("op", "split").set("method", "advanced").set("count", 10).set("target", approx(1, 0))),
              "target.delta");
  check_error(dpcalc::api::compute(object().set("op", "convert").set("guarantee", approx(1, 1e-6)).set("to", "zcdp")),
              "guarantee.type", "unsupported");
}
