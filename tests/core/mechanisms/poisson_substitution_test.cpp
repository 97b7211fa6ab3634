// Poisson subsampling under substitution with Laplace and other non-Gaussian noise inside: the pair of
// the advanced-joint-convexity profile bound (mechanisms/poisson_substitution.hpp). Its δ(ε) lies
// between two numbers computed with mpmath (30 digits, /usr/bin/python3) for Laplace noise (q = 0.2,
// b = 1, Δ = 1):
//   below: the exact δ of the inputs f(S) = 0, f(S ∪ x) = Δ, f(S ∪ x′) = −Δ, the pair
//          (1 − q)Lap(0, b) + qLap(Δ, b) against (1 − q)Lap(0, b) + qLap(−Δ, b) (what dp_accounting's
//          REPLACE_ONE pair would be; a lower bound: these inputs exist), by quadrature;
//   above: the bound itself, q[(1 − β) δ_Lap(Δ)(ε) + β δ_Lap(2Δ)(ε)] with δ_Lap(s)(ε) = 1 − e^{(ε − s/b)/2}.
#include <cmath>

#include "approx.hpp"
#include "mechanism_requests.hpp"

using namespace mechanism_requests;

namespace {

Value laplace(double scale) { return object().set("type", "laplace").set("scale", scale); }
Value subsampled(double rate, const Value& inner) {
  return object().set("type", "poisson_subsampled").set("rate", rate).set("mechanism", inner);
}

// δ_upper of method 'pld' at ε under 'substitute'.
double delta_upper_at(const Value& mechanism, double count, double epsilon) {
  Value request = object()
                      .set("op", "compose")
                      .set("method", "pld")
                      .set("epsilon", epsilon)
                      .set("relation", "substitute")
                      .set("items", items(mechanism, count));
  return number_at(result_of(dpcalc::api::compute(request)), "delta_upper");
}

}  // namespace

TEST_CASE("[mechanisms] Poisson-subsampled Laplace under substitution: between the ±Δ inputs and its bound") {
  const Value mechanism = subsampled(0.2, laplace(1));
  struct Row {
    double epsilon, attained, bound;
  };
  const Row rows[] = {{0.1, 0.089668008, 0.09285981}, {0.3, 0.03296634, 0.038298628}, {0.5, 0.0, 0.018817352}};
  for (const Row& row : rows) {
    CAPTURE(row.epsilon);
    const double delta = delta_upper_at(mechanism, 1, row.epsilon);
    CAPTURE(delta);
    CHECK(delta >= row.attained);
    // The grid of 160 points and the PLD's own step add 2e-5 relative here (0.092862, 0.038301,
    // 0.0188181).
    CHECK(delta <= row.bound * 1.0001);
  }
  // Pure ln(1 + q(e^{2Δ/b} − 1)) = 0.8131..., where the ±Δ inputs reach ln((1 − q + qe)/(1 − q + q/e)).
  Value basic = compose("basic", mechanism, 3, 0, "substitute");
  CHECK_REL(number_at(result_of(dpcalc::api::compute(basic)), "guarantee", "epsilon"),
            3 * std::log1p(0.2 * std::expm1(2.0)), 1e-12);
}

TEST_CASE("[mechanisms] Poisson subsampling under substitution: every inner mechanism with a group of two") {
  for (const Value& inner : {laplace(2), object().set("type", "discrete_laplace").set("scale", 2),
                             object().set("type", "discrete_gaussian").set("sigma", 2),
                             object().set("type", "exponential").set("epsilon", 0.5),
                             object().set("type", "permute_and_flip").set("epsilon", 0.5)}) {
    CAPTURE(inner.find("type")->as_string());
    const Bracket substitute = pld_epsilon(subsampled(0.1, inner), 10, 1e-6, "substitute");
    const Bracket add_remove = pld_epsilon(subsampled(0.1, inner), 10, 1e-6, "add_remove");
    // One record replaced is never less than one added or removed, and never more than two of them
    // (group privacy; the AJC bound at q = 1 is the group of two itself).
    CHECK(substitute.upper >= add_remove.lower);
    const Bracket unsampled_two = pld_epsilon(subsampled(1, inner), 10, 1e-6, "substitute");
    CHECK(substitute.upper <= unsampled_two.upper);
  }
  // Gaussian noise keeps its exact ±Δ pair (a mixture pair, not the bound's finite pair).
  const Value gaussian = object().set("type", "gaussian").set("sigma", 1);
  const Bracket exact = pld_epsilon(subsampled(0.2, gaussian), 1, 1e-6, "substitute");
  CHECK(exact.upper - exact.lower <= 4 * 5e-4 * exact.upper);
}
