// The output density of Algorithm 1 (Pujol & Desfontaines 2023) and its privacy loss, against
// mpmath: p_x(y) = ∫ N(s; x, σ²) N(y; s, (r s)²) ds by mpmath.quad at 30 digits on pieces split at
// x ± k σ, y/(1 ± k r), 0 and y 10^-k (tests/reference/groupwise_mpmath.py density σ r x y...),
// and the expected absolute error against its small-r and small-σ limits.
#include <cmath>

#include "approx.hpp"
#include "dpcalc/groupwise/output_density.hpp"

using dpcalc::groupwise::expected_absolute_error;
using dpcalc::groupwise::output_density;
using dpcalc::groupwise::output_point;
using dpcalc::groupwise::output_sd;
using dpcalc::groupwise::TwoStageNoise;

namespace {
struct Reference {
  double sigma, r, x, y, log_density, loss;
};
}  // namespace

TEST_CASE("[groupwise] log p_x(y) and the loss log p_x/p_{x+1} match mpmath") {
  // mpmath.quad, mp.dps = 30 (values printed to 16 digits).
  const Reference references[] = {
      {10, 0.3, 10000, 10000, -8.925310656471554, 0.0001000463011517849},
      {10, 0.3, 10000, 3000, -11.64752043413697, 0.0003333120569042111},
      {10, 0.3, 10000, -2000, -16.92530710085121, -0.0001666428176573063},
      {10, 0.3, 10000, 1e-6, -14.48086065529686, 9.999520041541276e-5},
      {10, 0.3, 10000, 30000, -31.14548888935744, -0.006564030524410603},
      {10, 0.3, 10, 0.01, -3.55183886937446, 0.1034835447585464},
      {10, 0.3, 10, -5, -4.404021062112656, 0.1591707569875617},
      {10, 0.3, 10, 100, -17.9085733807426, -0.4095653309319673},
      {0.7071, 1, 0, 0.5, -1.197970283659463, -0.1780046216898015},
      {0.7071, 1, 0, -0.3, -0.8364007832609278, 0.7512600259212173},
      {0.7071, 1, 0, 1e-8, 1.634953409887294, 0.9259000841506573},  // next to the log singularity
      {0.7071, 1, 0, 5, -6.988629019513475, -2.723504435877371},
  };
  for (const Reference& reference : references) {
    CAPTURE(reference.x);
    CAPTURE(reference.y);
    const auto point = output_point(TwoStageNoise{reference.sigma, reference.r}, reference.x, reference.y);
    CHECK_REL(point.log_density, reference.log_density, 1e-12);
    CHECK_REL(point.loss, reference.loss, 1e-9);
    CHECK(point.density_error < 1e-9);
  }
}

TEST_CASE("[groupwise] the density is +infinity at y = 0 and positive elsewhere") {
  const TwoStageNoise noise{10, 0.3};
  CHECK(std::isinf(output_density(noise, 10, 0)));
  CHECK(output_density(noise, 10, 1e-300) > 0);
  CHECK(output_density(noise, 10, -1e5) >= 0);
}

TEST_CASE("[groupwise] exact moments and the expected absolute error") {
  // Var Y = σ² + r²(x² + σ²) (law of total variance): σ² = 100, r = 0.3, x = 10^4 gives 9000109.
  CHECK_REL(output_sd(TwoStageNoise{10, 0.3}, 10000), std::sqrt(9000109.0), 1e-15);
  // r → 0: Y → N(x, σ²), E|Y − x| → σ sqrt(2/π); the correction is O(r² x²/σ²) = 1e-8 here.
  CHECK_REL(expected_absolute_error(TwoStageNoise{10, 1e-5}, 100), 10 * std::sqrt(2 / M_PI), 1e-7);
  // σ → 0: Y → N(x, r² x²), E|Y − x| → r x sqrt(2/π); correction O(σ²/(r x)²) = 1e-8 here.
  CHECK_REL(expected_absolute_error(TwoStageNoise{1e-3, 0.1}, 1e5), 0.1 * 1e5 * std::sqrt(2 / M_PI), 1e-6);
}
