// The output density of Algorithm 1 (two_stage_noise.hpp) for a true count x:
//   p_x(y) = ∫ N(s; x, sigma^2) N(y; s, (r s)^2) ds,
// and the privacy loss between neighbouring counts, L(y) = log p_x(y) − log p_{x+1}(y), computed as
//   L(y) = −log1p(E[expm1(l(S)) | Y = y]),   l(s) = log N(s; x+1, σ²)/N(s; x, σ²) = (2(s − x) − 1)/(2σ²),
// on the same quadrature nodes as p_x(y), so that a tiny loss keeps its relative accuracy.
// Quadrature: Boost.Math's adaptive Gauss–Kronrod (15 points) on pieces split at the prior's
// scale (x ± k σ), the second stage's scale around s ≈ y (y/(1 ± k r)), the integrand's mode and
// s = 0, where the second-stage variance vanishes: pieces that span more than a factor 3 in |s| are
// integrated in log|s|, which turns the 1/|s| of N(y; s, (r s)²) into a bounded integrand.
// p_x has an integrable logarithmic singularity at y = 0 (outputs near 0 come from X near 0).
#pragma once

#include "dpcalc/groupwise/two_stage_noise.hpp"

namespace dpcalc::groupwise {

struct OutputPoint {
  double log_density = 0;    // log p_x(y)
  double loss = 0;           // L(y) = log p_x(y) − log p_{x+1}(y)
  double density_error = 0;  // estimated relative quadrature error of p_x(y)
  double loss_error = 0;     // estimated absolute quadrature error of L(y)
};

// For y != 0 (finite). Numerical estimate (Boost's Gauss–Kronrod error estimates), not a bound.
OutputPoint output_point(const TwoStageNoise& noise, double count, double y);

// p_x(y); +infinity at y = 0.
double output_density(const TwoStageNoise& noise, double count, double y);

// E|Y − x| by quadrature over the first stage of the folded-normal mean
//   E|s + r|s| Z − x| = v sqrt(2/π) e^{−μ²/(2v²)} + μ erf(μ/(v√2)),  μ = s − x, v = r|s|.
// `error` (optional) receives Boost's error estimate.
double expected_absolute_error(const TwoStageNoise& noise, double count, double* error = nullptr);

}  // namespace dpcalc::groupwise
