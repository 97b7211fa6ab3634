// Method 'pld' (and op 'profile') on compositions of Gaussian mechanisms: answered exactly as one
// Gaussian with μ² = Σ count (Δ/σ)² (Dong, Roth, Su 2019, Cor. 3.3; Balle & Wang 2018, Thm 8), and
// the Gaussian part of a mixed request folded into one item before the FFT. Expected values: the
// analytic Gaussian at the composed μ with mpmath at 40 digits (bisection on δ(ε)); the property
// cases compare with the FFT engine itself on the unfolded items, whose bracket holds the exact ε.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "api_checks.hpp"
#include "dpcalc/api/compute.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace {

using dpcalc::api::Value;

struct Noise {
  double sigma, sensitivity, count;
};

Value gaussian_item(const Noise& noise) {
  Value mechanism = Value::object();
  mechanism.set("type", "gaussian").set("sigma", noise.sigma).set("sensitivity", noise.sensitivity);
  Value item = Value::object();
  item.set("mechanism", mechanism).set("count", noise.count);
  return item;
}

Value gaussian_items(const std::vector<Noise>& noises) {
  Value items = Value::array();
  for (const Noise& noise : noises) items.push(gaussian_item(noise));
  return items;
}

Value compose(const Value& items, const std::string& query, double value) {
  Value request = Value::object();
  request.set("op", "compose").set("method", "pld").set("items", items).set(query, value);
  return dpcalc::api::compute(request);
}

double number(const Value& result, const std::string& key) {
  REQUIRE(result.find(key) != nullptr);
  return result.find(key)->as_number();
}

// The same items for the engine directly (nothing folded).
std::vector<dpcalc::pld::CompositionItem> engine_items(const std::vector<Noise>& noises) {
  std::vector<dpcalc::pld::CompositionItem> items;
  for (const Noise& noise : noises) {
    items.push_back(
        {dpcalc::pld::DominatingPair{dpcalc::pld::GaussianPair{noise.sigma, noise.sensitivity}}, noise.count});
  }
  return items;
}

}  // namespace

TEST_CASE("[exact gaussian] 50 Gaussians σ = 20…69 are one Gaussian: exact ε and δ, cited, no grid") {
  std::vector<Noise> noises;
  for (int sigma = 20; sigma < 70; ++sigma) noises.push_back({static_cast<double>(sigma), 1, 1});
  // μ = 0.19204838438357987; ε(1e-5) = 0.69404698800153289420, δ(0.5) = 3.55591587110191648e-4
  // (mpmath), compared through the doubles just below and just above each.
  const Value epsilon_response = compose(gaussian_items(noises), "delta", 1e-5);
  const Value& epsilon = result_of(epsilon_response);
  CHECK(number(epsilon, "epsilon_upper") >= 0.6940469880015329);
  CHECK(number(epsilon, "epsilon_lower") <= 0.694046988001533);
  CHECK(number(epsilon, "epsilon_upper") - number(epsilon, "epsilon_lower") <= 1e-12);
  CHECK(number(*epsilon.find("guarantee"), "epsilon") == number(epsilon, "epsilon_upper"));
  CHECK(number(epsilon, "grid_size") == 0);
  CHECK(number(epsilon, "truncated_mass") == 0);
  CHECK(epsilon.find("citation")->as_string() == "Dong, Roth, Su 2019, Cor. 3.3; Balle & Wang 2018, Thm 8");
  const Value delta_response = compose(gaussian_items(noises), "epsilon", 0.5);
  const Value& delta = result_of(delta_response);
  CHECK(number(delta, "delta_upper") >= 0.0003555915871101916);
  CHECK(number(delta, "delta_lower") <= 0.00035559158711019167);
  CHECK(number(delta, "delta_upper") - number(delta, "delta_lower") <= 1e-9 * 3.6e-4);
}

TEST_CASE("[exact gaussian] heterogeneous Δ and counts: 3 × (σ 2, Δ 1) and 5 × (σ 4, Δ 3)") {
  // μ = √(3/4 + 45/16) = 1.8874586088176874; ε(1e-6) = 10.255879089071073377 (mpmath), compared
  // through the doubles just below and just above it.
  const Value result_response = compose(gaussian_items({{2, 1, 3}, {4, 3, 5}}), "delta", 1e-6);
  const Value& result = result_of(result_response);
  CHECK(number(result, "epsilon_upper") >= 10.255879089071072);
  CHECK(number(result, "epsilon_lower") <= 10.255879089071074);
  CHECK(number(result, "epsilon_upper") <= 10.255879089071074 * (1 + 1e-12));
}

TEST_CASE("[exact gaussian] random heterogeneous Gaussian lists: the exact answer lies in the FFT bracket") {
  std::mt19937_64 generator(20261125);
  std::uniform_real_distribution<double> log_sigma(std::log(0.5), std::log(30.0));
  std::uniform_real_distribution<double> sensitivity(0.2, 3.0);
  std::uniform_int_distribution<int> count(1, 300), length(1, 6);
  for (int list = 0; list < 12; ++list) {
    std::vector<Noise> noises;
    for (int i = length(generator); i > 0; --i) {
      noises.push_back({std::exp(log_sigma(generator)), sensitivity(generator), static_cast<double>(count(generator))});
    }
    const double delta = list % 2 == 0 ? 1e-5 : 1e-8;
    CAPTURE(list);
    const Value exact_response = compose(gaussian_items(noises), "delta", delta);
    const Value& exact = result_of(exact_response);
    const auto fft = dpcalc::pld::epsilon_for_delta(engine_items(noises), delta);
    REQUIRE(fft.ok());
    const double upper = number(exact, "epsilon_upper"), lower = number(exact, "epsilon_lower");
    CHECK(lower <= upper);
    CHECK(upper - lower <= 1e-11 * upper + 1e-300);
    CHECK(fft.value().epsilon_lower <= upper);
    CHECK(lower <= fft.value().epsilon_upper);

    const double epsilon = 0.5 * upper;
    const Value exact_delta_response = compose(gaussian_items(noises), "epsilon", epsilon);
    const Value& exact_delta = result_of(exact_delta_response);
    const auto fft_delta = dpcalc::pld::delta_for_epsilon(engine_items(noises), epsilon);
    REQUIRE(fft_delta.ok());
    CHECK(fft_delta.value().delta_lower <= number(exact_delta, "delta_upper"));
    CHECK(number(exact_delta, "delta_lower") <= fft_delta.value().delta_upper);
  }
}

TEST_CASE("[exact gaussian] a mixed request folds its Gaussians into one item: same bracket as unfolded") {
  // 4 × (σ 3, Δ 1) and 2 × (σ 5, Δ 2) around a Laplace b = 10 used 20 times.
  Value items = Value::array();
  items.push(gaussian_item({3, 1, 4}));
  Value laplace = Value::object();
  laplace.set("type", "laplace").set("scale", 10);
  items.push(Value::object().set("mechanism", laplace).set("count", 20));
  items.push(gaussian_item({5, 2, 2}));
  const Value folded_response = compose(items, "delta", 1e-6);
  const Value& folded = result_of(folded_response);
  std::vector<dpcalc::pld::CompositionItem> unfolded = engine_items({{3, 1, 4}, {5, 2, 2}});
  unfolded.push_back({dpcalc::pld::DominatingPair{dpcalc::pld::LaplacePair{10, 1}}, 20});
  const auto direct = dpcalc::pld::epsilon_for_delta(unfolded, 1e-6);
  REQUIRE(direct.ok());
  CHECK(number(folded, "epsilon_lower") <= direct.value().epsilon_upper);
  CHECK(direct.value().epsilon_lower <= number(folded, "epsilon_upper"));
  CHECK(folded.find("citation")->as_string().find("Doroshenko") != std::string::npos);
}

TEST_CASE("[exact gaussian] errors after a fold name the request's fields") {
  // The subsampled Gaussian is the engine's second item once both Gaussians are folded, but its
  // count is the request's items.2.count.
  Value subsampled = Value::object();
  Value inner = Value::object();
  inner.set("type", "gaussian").set("sigma", 1);
  subsampled.set("type", "poisson_subsampled").set("rate", 0.5).set("mechanism", inner);
  Value items = gaussian_items({{2, 1, 1}, {3, 1, 1}});
  items.push(Value::object().set("mechanism", subsampled).set("count", 1e9));
  check_error(compose(items, "delta", 1e-5), "items.2.count", "numeric");
  // Options are checked on the exact path as on the numeric one.
  Value request = Value::object();
  Value discretization = Value::object();
  discretization.set("tail_mass_truncation", 0.5);
  request.set("op", "compose").set("method", "pld").set("delta", 1e-5).set("items", gaussian_items({{2, 1, 1}}));
  request.set("discretization", discretization);
  check_error(dpcalc::api::compute(request), "discretization.tail_mass_truncation");
}
