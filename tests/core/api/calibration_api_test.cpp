// {op:'calibrate'} through dpcalc::api::compute: the result's shape, that recomposing the answer
// with the matching 'compose' request gives back the reported guarantee, and field paths of errors.
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"

namespace {

using dpcalc::api::Value;

Value target(double epsilon, double delta) { return object().set("epsilon", epsilon).set("delta", delta); }

Value request(Value mechanism, const char* unknown, Value target_value) {
  return object()
      .set("op", "calibrate")
      .set("mechanism", std::move(mechanism))
      .set("unknown", unknown)
      .set("target", std::move(target_value));
}

double number(const Value& value, const std::string& key) {
  const Value* member = value.find(key);
  REQUIRE_MESSAGE(member != nullptr, key);
  REQUIRE(member->is_number());
  return member->as_number();
}

Value one_item(Value mechanism, double count) {
  Value items = Value::array();
  items.push(object().set("mechanism", std::move(mechanism)).set("count", count));
  return items;
}

}  // namespace

TEST_CASE("[calibration][api] Gaussian σ: result fields and the analytic method by default") {
  const Value response =
      dpcalc::api::compute(request(object().set("type", "gaussian"), "sigma", target(1, 1e-5)).set("count", 1));
  const Value& result = result_of(response);
  // Balle & Wang 2018, Thm 8 in mpmath: σ* = 3.7306316348159418 (calibration_noise_test.cpp).
  CHECK_REL(number(result, "sigma"), 3.7306316348159418, 1e-8);
  const Value& guarantee = *result.find("guarantee");
  CHECK(guarantee.find("type")->as_string() == "approx");
  CHECK(number(guarantee, "epsilon") <= 1);
  CHECK(number(guarantee, "epsilon") >= 1 - 1e-9);
  CHECK(number(guarantee, "delta") == 1e-5);
  CHECK(result.find("citation")->as_string() == "Balle & Wang 2018, Thm 8");
  CHECK(number(*result.find("bracket"), "high") == number(result, "sigma"));
  CHECK(number(*result.find("bracket"), "low") < number(result, "sigma"));
  CHECK(number(result, "tolerance") == 1e-9);
  CHECK(number(result, "evaluations") >= 2);
}

TEST_CASE("[calibration][api] DP-SGD noise multiplier: recomposing with 'compose' pld gives the guarantee") {
  const Value mechanism = object()
                              .set("type", "poisson_subsampled")
                              .set("rate", 0.01)
                              .set("mechanism", object().set("type", "gaussian").set("sensitivity", 2.0));
  const Value response =
      dpcalc::api::compute(request(mechanism, "noise_multiplier", target(1, 1e-5)).set("count", 1000));
  const Value& result = result_of(response);
  const double noise_multiplier = number(result, "noise_multiplier");
  CHECK(number(result, "sigma") == noise_multiplier * 2.0);
  CHECK(result.find("method")->as_string().find("Privacy loss distribution") == 0);
  CHECK(number(result, "tolerance") == 1e-3);
  // The same Gaussian with σ = noise_multiplier × clip norm, composed 1000 times.
  const Value inner = object().set("type", "gaussian").set("sigma", noise_multiplier * 2.0).set("sensitivity", 2.0);
  const Value compose =
      object()
          .set("op", "compose")
          .set("method", "pld")
          .set("delta", 1e-5)
          .set("items",
               one_item(object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", inner), 1000));
  const Value back_response = dpcalc::api::compute(compose);
  const Value& back = result_of(back_response);
  CHECK(number(*back.find("guarantee"), "epsilon") == number(*result.find("guarantee"), "epsilon"));
  CHECK(number(*back.find("guarantee"), "epsilon") <= 1);
  CHECK(number(*back.find("guarantee"), "epsilon") >= 0.999);
}

TEST_CASE("[calibration][api] Laplace scale: pure targets use basic composition, others the PLD") {
  const Value laplace = object().set("type", "laplace").set("sensitivity", 2.0);
  const Value pure_response = dpcalc::api::compute(request(laplace, "scale", target(0.5, 0)).set("count", 10));
  const Value& pure = result_of(pure_response);
  CHECK(number(pure, "scale") == 40);  // kΔ/ε (Dwork & Roth 2014, Thm 3.16)
  CHECK(pure.find("method")->as_string() == "Basic composition");
  const Value approx_response = dpcalc::api::compute(request(laplace, "scale", target(1, 1e-5)).set("count", 10));
  const Value& approx = result_of(approx_response);
  CHECK(approx.find("method")->as_string().find("Privacy loss distribution") == 0);
  // Below the optimal composition's b = 19.874987415944478 (mpmath, Kairouz et al. 2015, Thm 3.3).
  CHECK(number(approx, "scale") < 19.874987415944478);
  const Value optimal_response =
      dpcalc::api::compute(request(laplace, "scale", target(1, 1e-5)).set("count", 10).set("method", "optimal"));
  const Value& optimal = result_of(optimal_response);
  CHECK_REL(number(optimal, "scale"), 19.874987415944478, 1e-8);
}

TEST_CASE("[calibration][api] errors name the exact field") {
  const Value gaussian = object().set("type", "gaussian");
  const Value subsampled = object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", gaussian);
  using dpcalc::api::compute;
  check_error(compute(object().set("op", "calibrate").set("unknown", "sigma").set("target", target(1, 1e-5))),
              "mechanism");
  check_error(compute(request(object().set("type", "gaussian").set("sigma", 2.0), "sigma", target(1, 1e-5))),
              "mechanism.sigma");
  check_error(compute(request(object().set("type", "cauchy"), "sigma", target(1, 1e-5))), "mechanism.type");
  check_error(compute(request(object().set("type", "gaussian").set("sensitivity", -1.0), "sigma", target(1, 1e-5))),
              "mechanism.sensitivity");
  check_error(compute(request(gaussian, "scale", target(1, 1e-5))), "unknown");
  check_error(compute(request(object().set("type", "laplace"), "noise_multiplier", target(1, 1e-5))), "unknown");
  check_error(compute(object().set("op", "calibrate").set("mechanism", gaussian).set("target", target(1, 1e-5))),
              "unknown");
  check_error(compute(request(gaussian, "sigma", target(1, 1e-5)).set("count", 2.5)), "count");
  check_error(compute(request(gaussian, "sigma", target(1, 1e-5)).set("count", 0.0)), "count");
  check_error(compute(request(gaussian, "sigma", target(-1, 1e-5))), "target.epsilon");
  check_error(compute(request(gaussian, "sigma", target(1, 1.0))), "target.delta");
  check_error(compute(request(gaussian, "sigma", target(1, 0))), "target.delta");
  check_error(compute(request(gaussian, "sigma", object().set("epsilon", 1.0))), "target.delta");
  check_error(compute(request(gaussian, "sigma", target(1, 1e-5)).set("method", "optimal")), "method");
  check_error(compute(request(object().set("type", "laplace"), "scale", target(1, 0)).set("method", "pld")), "method",
              "unsupported");
  check_error(compute(request(gaussian, "sigma", target(1, 1e-5)).set("method", "exact")), "method");
  check_error(compute(request(subsampled, "noise_multiplier", target(1, 1e-5)).set("method", "analytic")), "method");
  check_error(compute(request(object().set("type", "poisson_subsampled").set("rate", 1.5).set("mechanism", gaussian),
                              "noise_multiplier", target(1, 1e-5))),
              "mechanism.rate");
  check_error(compute(request(object()
                                  .set("type", "poisson_subsampled")
                                  .set("rate", 0.1)
                                  .set("mechanism", object().set("type", "gaussian").set("sensitivity", 0.0)),
                              "noise_multiplier", target(1, 1e-5))),
              "mechanism.mechanism.sensitivity");
  check_error(compute(request(object().set("type", "poisson_subsampled").set("rate", 0.1).set("mechanism", subsampled),
                              "noise_multiplier", target(1, 1e-5))),
              "mechanism.mechanism.type", "unsupported");
  check_error(compute(request(object().set("type", "laplace"), "scale", target(1e-300, 0)).set("count", 1e6)),
              "target.epsilon");
  // Below the smallest δ the numeric accountant certifies (about 4e-13 here) at every noise.
  const Value tiny_delta = compute(request(subsampled, "noise_multiplier", target(1, 1e-300)).set("count", 1000));
  check_error(tiny_delta, "target.delta");
  CHECK(tiny_delta.find("error")->find("message")->as_string().find("δ must be larger than") == 0);
}

TEST_CASE("[calibration][api] cancelling a PLD calibration") {
  const Value mechanism =
      object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", object().set("type", "gaussian"));
  const Value response = dpcalc::api::compute(request(mechanism, "noise_multiplier", target(1, 1e-5)).set("count", 100),
                                              [](double) { return false; });
  check_error(response, "", "cancelled");
}
