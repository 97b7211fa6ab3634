// api/group_engine: op 'group' on a Poisson-subsampled Gaussian or Laplace mechanism, whose group is
// known by its pair only. Exact ε: the mixture pairs of Schuchardt, Stoian, Kosmala, Günnemann 2024
// with mpmath at 50 digits (Gaussian: tests/reference/group_subsampled_reference.py, dp_accounting's
// mixture PLD at step 1e-4 agrees to 1e-8 relative; Laplace: in closed form,
// tests/reference/group_subsampled_laplace_reference.py, and the quadrature of Schuchardt et al.'s own
// code, tests/reference/schuchardt_laplace_group.py, agrees to 2e-9 relative).
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/api/group_op.hpp"

namespace {

using dpcalc::api::Value;

Value subsampled(double rate, const Value& inner) {
  return Value::object().set("type", "poisson_subsampled").set("rate", rate).set("mechanism", inner);
}

Value subsampled_group(double k, double rate, double sigma) {
  const Value gaussian = Value::object().set("type", "gaussian").set("sigma", sigma);
  return Value::object().set("op", "group").set("k", k).set("delta", 1e-5).set("mechanism", subsampled(rate, gaussian));
}

Value laplace_group(double k, double rate, double scale) {
  const Value laplace = Value::object().set("type", "laplace").set("scale", scale);
  return Value::object().set("op", "group").set("k", k).set("delta", 1e-5).set("mechanism", subsampled(rate, laplace));
}

double epsilon_of(const Value& request) {
  return result_of(dpcalc::api::compute(request)).find("epsilon_upper")->as_number();
}

}  // namespace

TEST_CASE(
    "[api] group of a subsampled Gaussian: the engine's bracket holds the exact ε, and its trade-off reads its PLDs") {
  const Value request = subsampled_group(32, 0.02, 1.5);
  const Value response = dpcalc::api::compute(request);
  const Value& result = result_of(response);
  const double exact = 6.541129054249721;  // mpmath, see the file comment
  CHECK(result.find("epsilon_lower")->as_number() <= exact);
  CHECK(result.find("epsilon_upper")->as_number() >= exact);
  CHECK(result.find("epsilon_upper")->as_number() <= exact * 1.005);
  CHECK(result.find("guarantee")->find("epsilon")->as_number() == result.find("epsilon_upper")->as_number());

  // Asked with explain: true, the answer is the same and its trade-off, read from the answer's PLDs,
  // is what op 'tradeoff' composes for the request on its own.
  Value explained_request = request;
  explained_request.set("explain", true);
  const Value explained_response = dpcalc::api::compute(explained_request);
  const Value& explained = result_of(explained_response);
  CHECK(explained.find("epsilon_upper")->as_number() == result.find("epsilon_upper")->as_number());
  const Value tradeoff = Value::object().set("op", "tradeoff").set("of", request);
  const Value composed = dpcalc::api::compute(tradeoff);
  const Value& curve = *explained.find("tradeoff");
  CHECK(curve.find("beta")->as_array().size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(curve.find("beta")->as_array()[i].as_number() == result_of(composed).find("beta")->as_array()[i].as_number());
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

TEST_CASE("[api] group of a subsampled Laplace mechanism: the engine's bracket holds the exact ε") {
  struct Row {
    double k, rate, scale, exact;  // mpmath, see the file comment
  };
  for (const Row& row : {Row{4, 0.01, 1, 0.06797998032499865}, Row{8, 0.1, 2, 0.5026417965041969},
                         Row{32, 0.02, 1.5, 0.6002883559917098}, Row{3, 0.5, 1, 1.8602810075326808}}) {
    CAPTURE(row.k);
    const Value response = dpcalc::api::compute(laplace_group(row.k, row.rate, row.scale));
    const Value& result = result_of(response);
    CHECK(result.find("epsilon_lower")->as_number() <= row.exact);
    CHECK(result.find("epsilon_upper")->as_number() >= row.exact);
    CHECK(result.find("epsilon_upper")->as_number() <= row.exact * 1.005);
    CHECK(result.find("method")->as_string().find("Laplace mixture") != std::string::npos);
    CHECK(result.find("citation")->as_string().find("Schuchardt, Stoian, Kosmala, Günnemann 2024") == 0);
  }
}

TEST_CASE("[api] group of a subsampled Laplace mechanism: k = 1, rate 1 and monotonicity") {
  const Value laplace = Value::object().set("type", "laplace").set("scale", 1.0);
  // k = 1 is the subsampled mechanism itself: the ε of composing it once.
  const Value once =
      Value::object()
          .set("op", "compose")
          .set("method", "pld")
          .set("delta", 1e-5)
          .set("items",
               Value::array().push(Value::object().set("mechanism", subsampled(0.01, laplace)).set("count", 1.0)));
  CHECK_REL(epsilon_of(laplace_group(1, 0.01, 1)), epsilon_of(once), 1e-9);
  // Rate 1: the Laplace mechanism at sensitivity kΔ, whose δ(ε) = 1 − e^{(ε − kΔ/b)/2}, so
  // ε(δ) = kΔ/b + 2 ln(1 − δ) (k = 2, b = 4: 0.49997999990, mpmath in the reference script).
  const double exact = 0.5 + 2 * std::log1p(-1e-5);
  CHECK(epsilon_of(laplace_group(2, 1, 4)) >= exact);
  CHECK(epsilon_of(laplace_group(2, 1, 4)) <= exact * 1.005);
  // Larger groups, less noise and more sampling each cost more.
  double previous = 0;
  for (double k : {1.0, 2.0, 3.0, 5.0, 8.0}) {
    const double epsilon = epsilon_of(laplace_group(k, 0.1, 2));
    CHECK(epsilon > previous);
    previous = epsilon;
  }
  CHECK(epsilon_of(laplace_group(4, 0.1, 1)) > epsilon_of(laplace_group(4, 0.1, 2)));
  CHECK(epsilon_of(laplace_group(4, 0.2, 2)) > epsilon_of(laplace_group(4, 0.1, 2)));
}

TEST_CASE("[api] group of a subsampled Laplace mechanism: its trade-off and errors on the request's fields") {
  // β of the exact pair's remove direction at α = 0.001, 0.01, 0.1 (mpmath, the reference script):
  // the reported curve bounds every test from below, so it never exceeds it.
  const Value tradeoff = Value::object().set("op", "tradeoff").set("of", laplace_group(8, 0.1, 2));
  const Value response = dpcalc::api::compute(tradeoff);
  const Value& curve = result_of(response);
  const double exact_remove[] = {0.9983465933633161, 0.983465933671886, 0.8352144287459077};
  for (std::size_t i = 0; i < 3; ++i) {
    const double beta = curve.find("beta")->as_array()[i].as_number();
    CHECK(beta <= exact_remove[i] + 1e-12);
    CHECK(beta >= exact_remove[i] - 0.005);
  }
  // A loss beyond the engine's ±700 (k Δ/b far too large): the scale is what to change.
  check_error(dpcalc::api::compute(laplace_group(2000, 1, 1)), "mechanism.mechanism.scale", "numeric");
  // Under substitution the group's pair is not known: group privacy over the profile bound of one
  // replaced record (mechanisms/poisson_substitution.hpp), never below the add/remove group.
  Value substitute = laplace_group(4, 0.1, 2);
  substitute.set("relation", "substitute");
  const Value replaced = dpcalc::api::compute(substitute);
  CHECK(result_of(replaced).find("guarantee")->find("epsilon")->as_number() >= epsilon_of(laplace_group(4, 0.1, 2)));
}
