// Algorithm 1 of Pujol & Desfontaines ("Open problem: better privacy guarantees for larger groups",
// DifferentialPrivacy.org, 2023): for a group of true count x,
//   X ~ N(x, sigma^2) with sigma^2 = 1/(2 rho),   Y ~ N(X, (r X)^2),   release Y.
// The first stage is the Gaussian mechanism, exactly rho-zCDP for sensitivity 1 (Bun & Steinke 2016,
// Prop 1.6); the second is post-processing, so every group is proven rho-zCDP. Nothing better is
// proven; dpcalc/groupwise/ estimates the group's guarantee numerically and labels it so.
#pragma once

#include <functional>

namespace dpcalc::groupwise {

struct TwoStageNoise {
  double sigma = 1;           // first-stage standard deviation, > 0
  double relative_error = 0;  // r in (0, 1]: the second stage's standard deviation is r |X|
};

// Called with the fraction of the work done; returning false cancels (error code "cancelled",
// the same contract as pld::ProgressCallback).
using ProgressCallback = std::function<bool(double fraction)>;

// The largest count the numeric tools accept: above it the privacy loss between x and x + 1 falls
// below the quadrature's resolution.
inline constexpr double kMaxGroupCount = 1e9;
// The largest rho accepted: sigma >= 0.07 keeps the tilted integrands inside the double range.
inline constexpr double kMaxRho = 100;

// Exact moments of Y: E[Y] = x, Var[Y] = sigma^2 + r^2 (x^2 + sigma^2) (law of total variance).
double output_sd(const TwoStageNoise& noise, double count);

}  // namespace dpcalc::groupwise
