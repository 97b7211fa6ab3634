// op 'databases' through dpcalc::api::compute: the request fields, the result shape, and
// errors naming the exact dotted field. Expected numbers: Kairouz, Oh, Viswanath 2015, Thm 3.3 and
// Corollary 7 of Hartmann, Bindschaedler, West 2022, each evaluated with mpmath at 50 digits
// (values noted beside each check).
#include <cmath>
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"

namespace {

using dpcalc::api::Value;

Value one_class(const Value& guarantee, double count) {
  Value databases = Value::array();
  databases.push(object().set("guarantee", guarantee).set("count", count));
  return databases;
}

Value hospitals(const std::string& neighbours) {
  return object()
      .set("op", "databases")
      .set("method", "optimal")
      .set("delta", 1e-5)
      .set("databases", one_class(approx(0.05, 1e-9), 1000))
      .set("constraint", object().set("type", "at_most").set("m", 365))
      .set("neighbours", neighbours);
}

// The result of an ok response (a copy: the response is a temporary).

double number(const Value& value, const char* a, const char* b = nullptr) {
  const Value* found = value.find(a);
  REQUIRE(found != nullptr);
  if (b) found = found->find(b);
  REQUIRE(found != nullptr);
  REQUIRE(found->is_number());
  return found->as_number();
}

// The error response to `request` (computed here).
void check_request_error(const Value& request, const std::string& field, const std::string& code = "invalid_argument") {
  const Value response = dpcalc::api::compute(request);
  REQUIRE_FALSE(response.find("ok")->as_bool());
  const Value* error = response.find("error");
  CHECK(error->find("code")->as_string() == code);
  CHECK(error->find("field")->as_string() == field);
  CHECK(error->find("message")->as_string().size() > 20);
}

}  // namespace

TEST_CASE("[api] databases: the hospital example, unbounded 365, bounded 730, classic 1000") {
  const Value unbounded = result_of(dpcalc::api::compute(hospitals("unbounded")));
  // Kairouz, Oh, Viswanath 2015, Thm 3.3 (mpmath, 50 digits): 365 → 4.1384581547536021,
  // 730 → 6.2319778877081557, 1000 → 7.5334288995699205.
  check_upper_bound(number(*unbounded.find("guarantee"), "epsilon"), 4.1384581547536021, 1e-9);
  CHECK(number(*unbounded.find("guarantee"), "delta") == 1e-5);
  CHECK(number(*unbounded.find("footprint"), "databases") == 365);
  CHECK(number(*unbounded.find("footprint"), "releases") == 365);
  check_upper_bound(number(*unbounded.find("classic"), "guarantee", "epsilon"), 7.5334288995699205, 1e-9);
  CHECK(unbounded.find("parallel") == nullptr);  // not pure: McSherry's form does not apply
  CHECK(unbounded.find("method")->as_string() == "Optimal composition (exact)");
  CHECK(unbounded.find("citation")->as_string() ==
        "Kairouz, Oh, Viswanath 2015, Thm 3.3; Hartmann, Bindschaedler, West 2022, Thm 1 and Sec. V-A");
  // Two works, two BibTeX keys in the citation's order.
  const Value::Array& keys = unbounded.find("citation_key")->as_array();
  REQUIRE(keys.size() == 2);
  CHECK(keys[0].as_string() == "kairouz2015composition");
  CHECK(keys[1].as_string() == "hartmann2022choice");
  CHECK(unbounded.find("exact")->as_bool());
  const Value bounded = result_of(dpcalc::api::compute(hospitals("bounded")));
  check_upper_bound(number(*bounded.find("guarantee"), "epsilon"), 6.2319778877081557, 1e-9);
  CHECK(number(*bounded.find("footprint"), "databases") == 730);
}

TEST_CASE("[api] databases: pure releases get the merged database's parallel composition") {
  // 1000 hospitals, Laplace scale 20 (ε = 0.05) queried twice, at most 365: parallel charges
  // 365 · 2 · 0.05 = 36.5; basic over the worst footprint the same sum, classic 100.
  Value databases = Value::array();
  databases.push(
      object().set("mechanism", object().set("type", "laplace").set("scale", 20)).set("count", 1000).set("queries", 2));
  const Value result =
      result_of(dpcalc::api::compute(object()
                                         .set("op", "databases")
                                         .set("method", "basic")
                                         .set("databases", databases)
                                         .set("constraint", object().set("type", "at_most").set("m", 365))));
  CHECK(result.find("guarantee")->find("type")->as_string() == "pure");
  CHECK_REL(number(*result.find("guarantee"), "epsilon"), 36.5, 1e-14);
  CHECK_REL(number(*result.find("parallel"), "guarantee", "epsilon"), 36.5, 1e-14);
  CHECK_REL(number(*result.find("classic"), "guarantee", "epsilon"), 100, 1e-14);
  CHECK(number(*result.find("footprint"), "releases") == 730);
}

TEST_CASE("[api] databases: the uninformative adversary, Corollary 7 and PLD") {
  // ln(((1 + e^{0.05})^1000 − 1)/(2^1000 − 1)) = 25.312467453340985 (mpmath).
  const Value request = object()
                            .set("op", "databases")
                            .set("method", "basic")
                            .set("databases", one_class(pure(0.05), 1000))
                            .set("adversary", "uninformative");
  const Value result = result_of(dpcalc::api::compute(request));
  check_upper_bound(number(*result.find("guarantee"), "epsilon"), 25.312467453340985, 1e-11);
  CHECK_REL(number(*result.find("classic"), "guarantee", "epsilon"), 50, 1e-14);
  CHECK(result.find("citation")->as_string().find("Cor. 7") != std::string::npos);
  Value pld = request;
  pld.set("method", "pld").set("delta", 1e-6);
  const Value numeric = result_of(dpcalc::api::compute(pld));
  CHECK(number(*numeric.find("guarantee"), "epsilon") <= 25.312467453340985 * (1 + 1e-12));
  CHECK(number(numeric, "epsilon_lower") <= number(numeric, "epsilon_upper"));
}

TEST_CASE("[api] databases: the uninformative prior says why a membership constraint does not enter it") {
  // The page shows it beside the constrained rows (the subsidiaries example: 13.915 beside 1.2), so
  // the result itself must say that its prior is over every set of databases.
  for (const char* method : {"basic", "optimal"}) {
    CAPTURE(method);
    const Value request = object()
                              .set("op", "databases")
                              .set("method", method)
                              .set("delta", 1e-6)
                              .set("databases", one_class(pure(0.05), 100))
                              .set("adversary", "uninformative");
    const Value result = result_of(dpcalc::api::compute(request));
    REQUIRE(result.find("note") != nullptr);
    const std::string note = result.find("note")->as_string();
    CHECK(note.find("No membership constraint applies") != std::string::npos);
    CHECK(note.find("every non-empty set of the databases") != std::string::npos);
  }
}

TEST_CASE("[api] databases: errors name the exact dotted field") {
  const Value base = object().set("op", "databases").set("method", "basic").set("databases", one_class(pure(0.1), 3));
  check_request_error(Value(base).set("constraint", object().set("type", "at_most").set("m", 0)), "constraint.m");
  check_request_error(Value(base).set("constraint", object().set("type", "at_most")), "constraint.m");
  check_request_error(Value(base).set("constraint", object().set("type", "families").set("families", Value::array())),
                      "constraint.families");
  Value families = Value::array();
  families.push(Value(Value::Array{Value(0)}));
  families.push(Value(Value::Array{Value(3)}));
  check_request_error(Value(base).set("constraint", object().set("type", "families").set("families", families)),
                      "constraint.families.1.0");
  check_request_error(Value(base).set("constraint", object().set("type", "sometimes")), "constraint.type");
  check_request_error(
      Value(base).set("constraint", object().set("type", "at_most").set("m", 2)).set("adversary", "uninformative"),
      "adversary");
  check_request_error(Value(base).set("neighbours", "sideways"), "neighbours");
  Value three = Value::array();
  three.push(object().set("guarantee", pure(0.1)));
  three.push(object().set("guarantee", pure(0.2)).set("queries", 2));
  three.push(object().set("guarantee", pure(0.3)).set("count", 1.5));
  check_request_error(Value(base).set("databases", three), "databases.2.count");
  check_request_error(Value(base).set("databases", Value::array()), "databases");
  check_request_error(Value(base).set("method", "parallel"), "method");
  // δ too small for the items: the worst 365 hospitals alone need 1 − (1 − 1e-9)^365 > 3.6e-7.
  Value hospital = hospitals("unbounded");
  check_request_error(hospital.set("delta", 1e-7), "delta");
  check_request_error(Value(base).set("method", "optimal"), "delta");
  Value gaussian = Value::array();
  gaussian.push(object().set("mechanism", object().set("type", "gaussian").set("sigma", 2)).set("count", 4));
  check_request_error(Value(base).set("databases", gaussian), "databases.0.mechanism", "unsupported");
}

TEST_CASE("[api] databases with method 'pld': a bracket wider than the accuracy asked for says so, as compose") {
  // 100 databases of 3 Gaussian releases (σ = 1) each, at most 1000 of them: the worst footprint is all
  // of them, a Gaussian of μ = √300 (Dong, Roth, Su 2019, Cor. 3.3), whose exact ε at δ = 1e-13 the
  // analytic Gaussian gives (Balle & Wang 2018, Thm 8; checked against mpmath in
  // analytic_gaussian_reference_test.cpp). So near the certifiable floor (δ = 1e-13) the bracket stays
  // about 0.74% wide, beyond 4 × 5e-4.
  Value databases = Value::array();
  databases.push(
      object().set("mechanism", object().set("type", "gaussian").set("sigma", 1)).set("count", 100).set("queries", 3));
  const Value request = object()
                            .set("op", "databases")
                            .set("method", "pld")
                            .set("delta", 1e-13)
                            .set("databases", databases)
                            .set("constraint", object().set("type", "at_most").set("m", 1000));
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  const double upper = number(result, "epsilon_upper"), lower = number(result, "epsilon_lower");
  const double exact = dpcalc::gaussian_epsilon_for_delta(std::sqrt(300.0), 1e-13);
  CHECK(lower <= exact);
  CHECK(upper >= exact);
  CHECK(upper - lower > 4 * 5e-4 * upper);
  REQUIRE(result.find("note") != nullptr);
  CHECK(result.find("note")->as_string().find("% wide") != std::string::npos);
}
