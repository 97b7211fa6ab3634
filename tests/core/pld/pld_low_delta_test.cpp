// δ far below the FFT's whole-grid rounding bound (about 4e-13): δ(ε) weighs only the masses above
// ε, so its rounding error is that of those points (pld::rounding_error_above), which at the δ of
// dp_accounting's own tests (1e-14) is a handful of grid points near the top of the loss.
#include <cmath>

#include "approx.hpp"
#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc::pld;

namespace {

EpsilonBracket bracket_at(const std::vector<CompositionItem>& items, double delta) {
  const auto result = epsilon_for_delta(items, delta);
  REQUIRE(result.ok());
  return result.value();
}

}  // namespace

TEST_CASE("[pld] δ = 1e-14 is certified for the compositions dp_accounting's tests ask it at") {
  SUBCASE("Laplace(b = 1) × 3 + Laplace(b = 2) × 2, pure 4-DP") {
    // δ(ε) = P[L = 4](1 − e^{ε − 4}) just below ε = 4, and P[L = 4] = 2^-5 (each Laplace pair puts
    // half of P beyond its shift), so the exact ε(1e-14) is 4 − 3.2e-13 (dp_accounting's
    // test_laplace_basic expects 4 within 1e-6).
    const EpsilonBracket b = bracket_at(
        {CompositionItem{DominatingPair{LaplacePair{1, 1}}, 3}, CompositionItem{DominatingPair{LaplacePair{2, 1}}, 2}},
        1e-14);
    CAPTURE(b.epsilon_upper);
    CAPTURE(b.epsilon_lower);
    CHECK(b.epsilon_lower <= 4 - 3.19e-13);
    CHECK(b.epsilon_upper >= 4 - 3.21e-13);
    // One grid holds both lattices (losses 1/b) only on a step that divides 1 and 1/2; the default
    // step is not one, so the upper end is the grid's, 2.3e-3 above (op 'compose' caps it by the
    // pure bound).
    CHECK(b.epsilon_upper <= 4.0024);
  }
  SUBCASE("Poisson-subsampled Laplace (q = 0.2, b = 0.5) × 3") {
    // Pure 3 ln(1 + 0.2 (e^2 − 1)) = 2.4696356... (dp_accounting's test_poisson_subsampled_laplace:
    // 2.46964 within 1e-3). The top atom of one use has P-mass 0.8 e^-2 / 2 + 0.1, three of them
    // 3.66e-3, so the exact ε(1e-14) is that pure ε − 2.731e-12 (1e-14 / 3.6617e-3).
    const double pure = 3 * std::log1p(0.2 * std::expm1(2.0));
    const EpsilonBracket b = bracket_at({CompositionItem{DominatingPair{LaplacePair{0.5, 1}, 0.2}, 3}}, 1e-14);
    CAPTURE(b.epsilon_upper);
    CAPTURE(b.epsilon_lower);
    CHECK(b.epsilon_lower <= pure - 2.72e-12);
    CHECK(b.epsilon_upper >= pure - 2.74e-12);
    CHECK(b.epsilon_upper <= pure + 1e-9);
  }
  SUBCASE("Poisson-subsampled Gaussian (q = 0.2, σ = 1) × 10, unbounded loss: sound, not tight") {
    // dp_accounting (commit b5b0286, from source): from_gaussian_mechanism(1, sampling_prob=0.2,
    // value_discretization_interval=h).self_compose(10).get_epsilon_for_delta(1e-14) is 12.013201 at
    // h = 1e-4 and 12.007989 at h = 2e-5, pessimistic estimates (>= the exact ε) converging down.
    const EpsilonBracket b = bracket_at({CompositionItem{DominatingPair{GaussianPair{1, 1}, 0.2}, 10}}, 1e-14);
    CAPTURE(b.epsilon_upper);
    CAPTURE(b.epsilon_lower);
    CHECK(b.epsilon_lower <= 12.007989087710333);
    CHECK(b.epsilon_upper >= b.epsilon_lower);
    // Answered, where the whole grid's bound (7.8e-13) refused it; the bracket is wide, [10.68, 14.60]:
    // the rounding of the FFT is spread evenly over the grid while the masses fall off, and an
    // unbounded loss leaves many points above ε.
    CHECK(b.epsilon_upper <= 14.6);
  }
}
