// The trivial events peers accept (dp_accounting: noise_multiplier 0 gives ε = ∞, sampling
// probability 0 gives ε = 0): noise 0 is an honest "no guarantee" (vacuous: δ = 1, no finite ε,
// written "infinity"), a sampling rate of 0 is 0-DP, and the routes that cannot say so refuse on the
// noise's path naming method 'pld'. Exact values: a noise-free mechanism's pair is two point masses
// apart (δ(ε) = 1); on a Poisson subsample at rate q it reveals the record with probability q, so
// count uses have mass 1 − (1 − q)^count at infinite loss (1 − 0.99^10 = 0.095617924991 by mpmath).
#include <doctest/doctest.h>

#include <string>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"

namespace {

using dpcalc::api::Value;

Value mechanism(const char* type, const char* noise, double value) {
  return object().set("type", type).set(noise, value);
}

Value items_of(const Value& used, double count) {
  Value list = Value::array();
  list.push(object().set("mechanism", used).set("count", count));
  return list;
}

Value pld_request(const Value& used, double count, const char* asked, double value) {
  return object().set("op", "compose").set("method", "pld").set(asked, value).set("items", items_of(used, count));
}

Value answer_of(const Value& request) {
  const Value response = dpcalc::api::compute(request);
  return result_of(response);
}

void check_no_epsilon(const Value& result) {
  CHECK(result.find("vacuous")->as_bool());
  CHECK(result.find("epsilon_upper")->as_string() == "infinity");
  CHECK(result.find("guarantee")->find("delta")->as_number() == 1);
}

const Value kGaussian0 = mechanism("gaussian", "sigma", 0);

Value subsampled(double rate, const Value& inner) {
  return object().set("type", "poisson_subsampled").set("rate", rate).set("mechanism", inner);
}

}  // namespace

TEST_CASE("[api] noise 0: no guarantee, by method 'pld', op 'group' and op 'profile'") {
  for (const Value& noise_free :
       {kGaussian0, mechanism("laplace", "scale", 0), mechanism("discrete_gaussian", "sigma", 0),
        mechanism("discrete_laplace", "scale", 0)}) {
    check_no_epsilon(answer_of(pld_request(noise_free, 1, "delta", 1e-5)));
    const Value at_epsilon = answer_of(pld_request(noise_free, 3, "epsilon", 1));
    CHECK(at_epsilon.find("delta_upper")->as_number() == 1);
    CHECK(at_epsilon.find("vacuous")->as_bool());
  }
  check_no_epsilon(answer_of(object().set("op", "group").set("k", 2).set("delta", 1e-5).set("mechanism", kGaussian0)));
  // Its trade-off: every test reaches TPR 1.
  const Value curve = answer_of(object().set("op", "tradeoff").set("of", pld_request(kGaussian0, 1, "delta", 1e-5)));
  CHECK(curve.find("vacuous")->as_bool());
  CHECK(curve.find("advantage")->as_number() == 1);
  // Closed forms have nothing to say: refused on the noise, naming the method that answers.
  for (const char* method : {"zcdp", "rdp", "advanced", "optimal"}) {
    const Value response = dpcalc::api::compute(
        object().set("op", "compose").set("method", method).set("delta", 1e-5).set("items", items_of(kGaussian0, 1)));
    check_error(response, "items.0.mechanism.sigma", "unsupported");
    CHECK(response.find("error")->find("message")->as_string().find("'pld'") != std::string::npos);
  }
  // Solving for a count: even one release promises nothing, said so.
  Value unknown_items = Value::array();
  unknown_items.push(object().set("mechanism", kGaussian0));
  const Value solve = dpcalc::api::compute(object()
                                               .set("op", "compose")
                                               .set("method", "pld")
                                               .set("unknown", "count")
                                               .set("target", approx(1, 1e-5))
                                               .set("items", unknown_items));
  check_error(solve, "target.epsilon", "numeric");
  CHECK(solve.find("error")->find("message")->as_string().find("promises nothing") != std::string::npos);
}

TEST_CASE("[api] noise 0 on a Poisson subsample: mass q at infinite loss per use") {
  const Value sampled = subsampled(0.01, kGaussian0);
  // δ(1) = 1 − 0.99^10 = 0.095617924991 (the add direction has δ(1) = (1 − e · 0.99^10)_+ = 0).
  const Value at_epsilon = answer_of(pld_request(sampled, 10, "epsilon", 1));
  CHECK(at_epsilon.find("delta_upper")->as_number() >= 0.095617924991);
  CHECK(at_epsilon.find("delta_upper")->as_number() <= 0.095617924991 * (1 + 1e-9));
  // Below that mass no ε holds; above it ε = 0 (the remaining loss is log 0.99 < 0 and, added,
  // −10 log 0.99 = 0.1005 with δ_add(0) = 1 − 0.99^10 too).
  check_no_epsilon(answer_of(pld_request(sampled, 10, "delta", 1e-5)));
  const Value above = answer_of(pld_request(sampled, 10, "delta", 0.1));
  CHECK(above.find("epsilon_lower")->as_number() == 0);
  CHECK(above.find("epsilon_upper")->as_number() <= 1e-3);
}

TEST_CASE("[api] sampling rate 0: 0-DP by every method, group and calibration") {
  const Value none = subsampled(0, mechanism("gaussian", "sigma", 1));
  const Value at_delta = answer_of(pld_request(none, 100, "delta", 1e-5));
  CHECK(at_delta.find("epsilon_upper")->as_number() == 0);
  CHECK(answer_of(pld_request(none, 100, "epsilon", 0.5)).find("delta_upper")->as_number() == 0);
  const Value zcdp = answer_of(
      object().set("op", "compose").set("method", "zcdp").set("delta", 1e-5).set("items", items_of(none, 100)));
  CHECK(zcdp.find("guarantee")->find("rho")->as_number() == 0);
  const Value rdp = answer_of(
      object().set("op", "compose").set("method", "rdp").set("delta", 1e-5).set("items", items_of(none, 100)));
  CHECK(rdp.find("guarantee")->find("epsilon")->as_number() == 0);
  const Value group = answer_of(object().set("op", "group").set("k", 3).set("mechanism", none));
  CHECK(group.find("guarantee")->find("epsilon")->as_number() == 0);
  // Its trade-off is a coin's: μ = 0.
  const Value curve = answer_of(object().set("op", "tradeoff").set("of", pld_request(none, 3, "delta", 1e-5)));
  CHECK(curve.find("mu_upper")->as_number() == 0);
  // Calibration: any noise meets any target, said so on the target.
  const Value calibrate = dpcalc::api::compute(object()
                                                   .set("op", "calibrate")
                                                   .set("unknown", "sigma")
                                                   .set("count", 10)
                                                   .set("mechanism", subsampled(0, object().set("type", "gaussian")))
                                                   .set("target", approx(1, 1e-5)));
  check_error(calibrate, "mechanism.rate");
  CHECK(calibrate.find("error")->find("message")->as_string().find("Any noise meets") != std::string::npos);
}
