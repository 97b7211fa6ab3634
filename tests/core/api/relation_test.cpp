// The request's neighbouring relation (`relation`: 'add_remove' by default, or 'substitute') on
// compose, profile, group, calibrate, rdp and databases: each mechanism is accounted under it through
// its dominating pair for it, and a mechanism without one is refused on "relation", naming those it
// has. Where a mechanism has the same pair under both (additive noise of the sensitivity for the
// relation at hand), substitution never answers below add/remove.
#include <doctest/doctest.h>

#include <string>

#include "mechanisms/mechanism_requests.hpp"

namespace {

using mechanism_requests::Value;
using namespace mechanism_requests;

Value mechanism(const std::string& type, const std::string& noise, double value) {
  return object().set("type", type).set(noise, value);
}

}  // namespace

TEST_CASE("[api] relation: read, checked against every mechanism, refused where there is no pair") {
  const Value laplace = mechanism("laplace", "scale", 2);
  check_error(dpcalc::api::compute(compose("pld", laplace, 3, 1e-5, "neighbours")), "relation");
  // Poisson subsampling has a substitution pair with Gaussian noise inside (rdp_api_test.cpp), or a
  // bound where the inner mechanism has a group of two (poisson_substitution_test.cpp); a Gaussian
  // mixture has neither.
  const Value mixture = object()
                            .set("type", "gaussian_mixture")
                            .set("sigma", 1)
                            .set("shifts", Value::numbers({0, 1}))
                            .set("weights", Value::numbers({0.5, 0.5}));
  const Value subsampled = object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", mixture);
  const Value refused = dpcalc::api::compute(compose("pld", subsampled, 10, 1e-5, "substitute"));
  check_error(refused, "relation");
  CHECK(refused.find("error")->find("message")->as_string().find("'add_remove'") != std::string::npos);
  // A guarantee holds under the relation it was stated for.
  check_error(dpcalc::api::compute(object()
                                       .set("op", "group")
                                       .set("k", 2)
                                       .set("relation", "substitute")
                                       .set("guarantee", object().set("type", "pure").set("epsilon", 1))),
              "relation");
  // Randomized response has a pair under substitution only: every op refuses it by default (on its
  // type, the request having no relation field to name).
  const Value rr = object().set("type", "randomized_response").set("noise_parameter", 0.5).set("num_buckets", 3);
  check_error(dpcalc::api::compute(object().set("op", "group").set("k", 2).set("mechanism", rr)), "mechanism.type");
  Value databases = Value::array();
  databases.push(object().set("mechanism", rr).set("queries", 3));
  const Value request = object().set("op", "databases").set("method", "basic").set("databases", databases);
  check_error(dpcalc::api::compute(request), "databases.0.mechanism.type");
  Value with_relation = request;
  with_relation.set("relation", "substitute");
  // Basic composition of 3 releases of ln(1 + 3 · 0.5/0.5) = ln 4 (mpmath: 3 ln 4 = 4.1588830833596715).
  CHECK(number_at(result_of(dpcalc::api::compute(with_relation)), "guarantee", "epsilon") >= 4.1588830833596715);
  CHECK(number_at(result_of(dpcalc::api::compute(with_relation)), "guarantee", "epsilon") <=
        4.1588830833596715 * (1 + 1e-14));
  Value profile = object().set("op", "profile").set("items", items(rr, 5)).set("epsilons", Value::numbers({1.0, 3.0}));
  check_error(dpcalc::api::compute(profile), "items.0.mechanism.type");
  profile.set("relation", "substitute");
  CHECK(result_of(dpcalc::api::compute(profile)).find("delta_upper")->as_array().size() == 2);
  const Value calibrate = object()
                              .set("op", "calibrate")
                              .set("mechanism", object().set("type", "randomized_response").set("num_buckets", 2))
                              .set("unknown", "noise_parameter")
                              .set("target", object().set("epsilon", 1).set("delta", 1e-6));
  check_error(dpcalc::api::compute(calibrate), "mechanism.type");
  Value asked = calibrate;
  asked.set("relation", "add_remove");
  check_error(dpcalc::api::compute(asked), "relation");
}

TEST_CASE("[api] relation: substitution is never below add/remove where both apply") {
  const Value additive[] = {mechanism("laplace", "scale", 2), mechanism("gaussian", "sigma", 3),
                            mechanism("discrete_laplace", "scale", 2), mechanism("discrete_gaussian", "sigma", 3),
                            mechanism("permute_and_flip", "epsilon", 0.4)};
  for (const Value& noise : additive) {
    const double add_remove = pld_epsilon(noise, 10, 1e-6).upper;
    const double substitute = pld_epsilon(noise, 10, 1e-6, "substitute").upper;
    CHECK(substitute >= add_remove);
    const Value pure = dpcalc::api::compute(compose("zcdp", noise, 10, 1e-6, "substitute"));
    CHECK(number_at(result_of(pure), "guarantee", "rho") >=
          number_at(result_of(dpcalc::api::compute(compose("zcdp", noise, 10, 1e-6))), "guarantee", "rho"));
  }
}

TEST_CASE("[api] heterogeneous releases compose in one request") {
  // A statistics office's year: 12 monthly tables with discrete Gaussian noise σ = 5, 20
  // permute-and-flip selections at ε = 0.5, a Poisson-subsampled Gaussian training run, a
  // DP-FTRL epoch and 10 discrete Laplace counts. Each part alone is below the whole.
  const Value subsampled =
      object().set("type", "poisson_subsampled").set("rate", 0.01).set("mechanism", mechanism("gaussian", "sigma", 1));
  const Value tree = object().set("type", "tree_aggregation").set("noise_multiplier", 4).set("steps", 1000);
  Value all = Value::array();
  all.push(object().set("mechanism", mechanism("discrete_gaussian", "sigma", 5)).set("count", 12));
  all.push(object().set("mechanism", mechanism("permute_and_flip", "epsilon", 0.5)).set("count", 20));
  all.push(object().set("mechanism", subsampled).set("count", 1000));
  all.push(object().set("mechanism", tree).set("count", 1));
  all.push(object().set("mechanism", mechanism("discrete_laplace", "scale", 10)).set("count", 10));
  const Value response =
      dpcalc::api::compute(object().set("op", "compose").set("method", "pld").set("delta", 1e-5).set("items", all));
  const double total = number_at(result_of(response), "epsilon_upper");
  // The discrete Gaussian part alone: 2.8755878488020699 exactly (tests/reference/discrete_mechanisms_reference.py);
  // the selections alone: 9.8594110241156159 exactly (same script).
  CHECK(total > 9.8594110241156159);
  CHECK(total > pld_epsilon(subsampled, 1000, 1e-5).upper);
  CHECK(total < 9.8594110241156159 + 2.8755878488020699 + pld_epsilon(subsampled, 1000, 1e-5).upper +
                    pld_epsilon(tree, 1, 1e-5).upper +
                    pld_epsilon(mechanism("discrete_laplace", "scale", 10), 10, 1e-5).upper);
}
