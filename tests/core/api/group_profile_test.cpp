// Op 'group' on a mechanism with no group transform (sampling without replacement, other noise than
// Gaussian or Laplace under Poisson sampling, a Gaussian mixture): group privacy (Vadhan 2017, Lemma
// 2.2) over one record's privacy profile (pld/group_over_profile.hpp); discrete Gaussian noise beyond
// the lattice its group transform builds: its zCDP bound k²ρ. Exact references over the exact
// profile: mpmath at 50 digits, tests/reference/group_over_profile_reference.py.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "api_checks.hpp"
#include "approx.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"

namespace {

using dpcalc::api::Value;

Value gaussian(double sigma) { return object().set("type", "gaussian").set("sigma", sigma); }

// The inner mechanism on a sample of m of n records drawn without replacement.
Value without_replacement(double n, double m, const Value& inner) {
  return object()
      .set("type", "sampled_without_replacement")
      .set("dataset_size", n)
      .set("sample_size", m)
      .set("mechanism", inner);
}

Value poisson(double rate, const Value& inner) {
  return object().set("type", "poisson_subsampled").set("rate", rate).set("mechanism", inner);
}

// delta 0: none.
Value group(double k, const Value& mechanism, double delta = 1e-5) {
  Value request = object().set("op", "group").set("k", k).set("mechanism", mechanism);
  if (delta > 0) request.set("delta", delta);
  if (mechanism.find("type")->as_string() == "sampled_without_replacement") request.set("relation", "substitute");
  return request;
}

double epsilon_of(const Value& request) {
  return result_of(dpcalc::api::compute(request)).find("guarantee")->find("epsilon")->as_number();
}

}  // namespace

TEST_CASE("[api] group over a profile: against the bound over the exact profile, with what it rests on") {
  // A sample of all 100 records is the inner mechanism itself (its pair at rate 1).
  struct Row {
    const char* name;
    Value mechanism;
    double k, exact;  // mpmath, the reference script
  };
  const Value discrete_gaussian = object().set("type", "discrete_gaussian").set("sigma", 1);
  const Value randomized_response =
      object().set("type", "randomized_response").set("noise_parameter", 0.5).set("num_buckets", 4);
  for (const Row& row :
       {Row{"Gaussian σ 2", without_replacement(100, 100, gaussian(2)), 4, 11.444425309339106},
        Row{"Gaussian σ 2", without_replacement(100, 100, gaussian(2)), 8, 35.029535055501907},
        Row{"discrete Gaussian σ 1", poisson(1, discrete_gaussian), 3, 19.491640251636241},
        Row{"randomized response", without_replacement(100, 100, randomized_response), 2, 3.2188704915159044}}) {
    CAPTURE(row.name);
    CAPTURE(row.k);
    const Value response = dpcalc::api::compute(group(row.k, row.mechanism));
    const Value& result = result_of(response);
    const double epsilon = result.find("guarantee")->find("epsilon")->as_number();
    CHECK(epsilon >= row.exact);
    CHECK(epsilon <= row.exact * 1.001);
    CHECK(result.find("guarantee")->find("delta")->as_number() == 1e-5);
    // The per-record (ε, δ) it used: kε, and its δ within the group's through the lemma.
    const Value& per_record = *result.find("per_record");
    const double single = per_record.find("epsilon")->as_number();
    CHECK(epsilon == dpcalc::group_privacy(dpcalc::ApproxDp{single, 0}, row.k).epsilon);
    CHECK(dpcalc::group_privacy(dpcalc::ApproxDp{single, per_record.find("delta")->as_number()}, row.k).delta <= 1e-5);
    CHECK(result.find("method")->as_string().find("Vadhan 2017, Lemma 2.2") != std::string::npos);
    CHECK(result.find("citation_key")->as_array().front().as_string() == "vadhan2017complexity");
    CHECK(result.find("note")->as_string().find("not a tight analysis") != std::string::npos);
    CHECK(result.find("grid_size")->as_number() > 0);
  }
}

TEST_CASE("[api] group over a profile: k = 1 is one composition of the mechanism, and it grows with k") {
  const Value sampled = without_replacement(1000, 10, gaussian(1));
  const Value once = object()
                         .set("op", "compose")
                         .set("method", "pld")
                         .set("delta", 1e-5)
                         .set("relation", "substitute")
                         .set("items", Value::array().push(object().set("mechanism", sampled).set("count", 1)));
  const Value composed_response = dpcalc::api::compute(once);
  const Value& composed = result_of(composed_response);
  const double single = epsilon_of(group(1, sampled));
  CHECK(single >= composed.find("epsilon_lower")->as_number());
  CHECK_REL(single, composed.find("epsilon_upper")->as_number(), 1e-3);
  double previous = single;
  for (double k : {2.0, 3.0, 5.0, 8.0}) {
    CAPTURE(k);
    const double epsilon = epsilon_of(group(k, sampled));
    CHECK(epsilon > previous);
    previous = epsilon;
  }
  // Less noise, more sampling: larger.
  CHECK(epsilon_of(group(4, without_replacement(1000, 10, gaussian(0.8)))) > epsilon_of(group(4, sampled)));
  CHECK(epsilon_of(group(4, without_replacement(1000, 20, gaussian(1)))) > epsilon_of(group(4, sampled)));
}

TEST_CASE("[api] group over a profile: a pure mechanism without delta is pure, with delta no larger") {
  // Exponential selections at ε = 1 on a Poisson sample at rate 0.01: ε₀ = ln(1 + 0.01 (e − 1))
  // (Balle, Barthe, Gaboardi 2018), a group of 4 pure 4ε₀ (Dwork & Roth 2014, Thm 2.2).
  const Value sampled = poisson(0.01, object().set("type", "exponential").set("epsilon", 1));
  Value request = group(4, sampled, 0);
  const Value response = dpcalc::api::compute(request);
  const Value& pure = result_of(response);
  CHECK(pure.find("guarantee")->find("type")->as_string() == "pure");
  const double pure_epsilon = pure.find("guarantee")->find("epsilon")->as_number();
  CHECK_REL(pure_epsilon, 4 * std::log1p(0.01 * std::expm1(1.0)), 1e-14);
  CHECK(pure.find("per_record")->find("type")->as_string() == "pure");
  CHECK(pure.find("method")->as_string() == "Group privacy, pure DP");
  CHECK(epsilon_of(group(4, sampled)) <= pure_epsilon);
  // Without delta there is no grid to set; a mechanism that is not pure needs delta.
  request.set("discretization", 1e-3);
  check_error(dpcalc::api::compute(request), "discretization");
  check_error(dpcalc::api::compute(group(4, without_replacement(1000, 10, gaussian(1)), 0)), "delta");
}

TEST_CASE("[api] group over a profile: its trade-off stays below the group's exact curve") {
  // A sample of all records: the group of k is the Gaussian at kΔ, whose exact trade-off is
  // Φ(Φ⁻¹(1 − α) − kμ) (Dong, Roth, Su 2019; kμ = 1.5, the reference script): no reported β may exceed it; nor may the
  // curve say less than the answer's own (ε, δ): β ≥ 1 − δ − e^ε α (Kairouz, Oh, Viswanath 2015).
  const Value request = group(3, without_replacement(100, 100, gaussian(2)));
  const Value response = dpcalc::api::compute(request);
  const Value& answer = result_of(response);
  const Value tradeoff = object().set("op", "tradeoff").set("of", request);
  const Value curve_response = dpcalc::api::compute(tradeoff);
  const Value& curve = result_of(curve_response);
  CHECK(curve.find("source")->as_string() == "profile");
  CHECK(curve.find("group_size")->as_number() == 3);
  CHECK(curve.find("method")->as_string().find("privacy profile") != std::string::npos);
  const double epsilon = answer.find("guarantee")->find("epsilon")->as_number();
  const double exact_beta[] = {0.94410877452785737, 0.79569660824043429, 0.41353986569385364};  // mpmath
  for (std::size_t i = 0; i < 3; ++i) {
    const double alpha = curve.find("alphas")->as_array()[i].as_number();
    const double beta = curve.find("beta")->as_array()[i].as_number();
    CAPTURE(alpha);
    CHECK(beta <= exact_beta[i]);
    CHECK(beta >= 1 - 1e-5 - std::exp(epsilon) * alpha - 1e-12);
  }
}

TEST_CASE("[api] group over a profile: errors on the request's fields, refusals that stay") {
  const Value sampled = without_replacement(1000, 10, gaussian(1));
  // No per-record ε meets δ = 1e-5 for a group of 10000 under Gaussian noise.
  check_error(dpcalc::api::compute(group(10000, sampled)), "delta", "numeric");
  // A misspelt field is named, with the field it resembles.
  Value misspelt = group(4, sampled);
  misspelt.set("detla", 1e-5);
  const Value typo = dpcalc::api::compute(misspelt);
  check_error(typo, "detla");
  CHECK(typo.find("error")->find("message")->as_string().find("did you mean 'delta'") != std::string::npos);
  // The mechanism's own checks, on its fields.
  check_error(dpcalc::api::compute(group(4, without_replacement(10, 20, gaussian(1)))), "mechanism.sample_size");
  check_error(dpcalc::api::compute(group(4, without_replacement(1000, 10, gaussian(-1)))), "mechanism.mechanism.sigma");
  Value grid = group(4, sampled);
  grid.set("discretization", object().set("relative_accuracy", 0.5));
  check_error(dpcalc::api::compute(grid), "discretization.relative_accuracy");
  // Sampling without replacement has a pair under substitution only, Poisson sampling under add/remove
  // only: those stay refusals on the relation.
  Value add_remove = group(4, sampled);
  add_remove.set("relation", "add_remove");
  check_error(dpcalc::api::compute(add_remove), "relation");
  const Value rr = object().set("type", "randomized_response").set("noise_parameter", 0.5).set("num_buckets", 4);
  Value neither = group(4, poisson(0.1, rr));
  check_error(dpcalc::api::compute(neither), "mechanism.type");
  check_error(dpcalc::api::compute(neither.set("relation", "substitute")), "relation");
  // Poisson-subsampled Gaussian noise keeps its tight pair, and its limit on k.
  check_error(dpcalc::api::compute(group(100001, poisson(0.01, gaussian(1)))), "k");
}

TEST_CASE("[api] group of discrete Gaussian noise: its exact pair at kΔ, beyond its lattice its zCDP bound") {
  // σ = 300: the lattice at kΔ holds 2 (⌈300 · 13.5723⌉ + 1) + kΔ + 3 = 8149 + k points, at most 10⁴
  // for k ≤ 1851: there the group is its exact pair at kΔ, composed once (below the zCDP bound).
  // Beyond, the group is still (kΔ)²/(2σ²)-zCDP (Canonne, Kamath, Steinke 2020, Thm 4; Bun &
  // Steinke 2016, Prop 1.9), converted at δ (ibid., Cor 13).
  const Value noise = object().set("type", "discrete_gaussian").set("sigma", 300);
  const Value exact_response = dpcalc::api::compute(group(1851, noise));
  const Value& exact = result_of(exact_response);
  CHECK(exact.find("zcdp") == nullptr);
  const double exact_epsilon = exact.find("epsilon_upper")->as_number();
  CHECK(exact.find("guarantee")->find("epsilon")->as_number() == exact_epsilon);
  const double rho_below = 1851.0 * 1851.0 / (2 * 300.0 * 300.0);
  CHECK(exact_epsilon < dpcalc::zcdp_to_approx_canonne_kamath_steinke(dpcalc::Zcdp{rho_below}, 1e-5).epsilon);
  const Value response = dpcalc::api::compute(group(1852, noise));
  const Value& result = result_of(response);
  const double rho = result.find("zcdp")->find("rho")->as_number();
  CHECK_REL(rho, 1852.0 * 1852.0 / (2 * 300.0 * 300.0), 1e-14);
  CHECK(result.find("guarantee")->find("epsilon")->as_number() ==
        dpcalc::zcdp_to_approx_canonne_kamath_steinke(dpcalc::Zcdp{rho}, 1e-5).epsilon);
}
