// The exact privacy profile of the Gaussian mechanism (Balle & Wang 2018, Thm 8). With
// mu = sensitivity / sigma:
//   delta(eps) = Φ(mu/2 − eps/mu) − e^eps · Φ(−mu/2 − eps/mu)
// The mechanism is (eps, delta)-DP iff delta >= delta(eps).
#pragma once

namespace dpcalc {

// delta(eps), exact up to floating point and rounded up: the value includes a bound on its own
// rounding error (measured: about 1e-11 relative for mu >= 0.01, up to 2e-9 at mu = 1e-3,
// looser as mu → 0). Evaluated in log space.
double gaussian_delta_for_epsilon(double mu, double epsilon);
// A lower bound on delta(eps), by the same error bound (0 where nothing is certain).
double gaussian_delta_lower_for_epsilon(double mu, double epsilon);

// Smallest eps >= 0 with delta(eps) <= delta, rounded up (never below the exact value).
// Returns 0 when delta >= delta(0), +inf when eps exceeds the double range (mu²/2 does, i.e.
// mu > 1.9e154). Requires mu > 0 and delta in (0, 1).
double gaussian_epsilon_for_delta(double mu, double delta);
// Largest eps found with delta(eps) > delta certainly (never above the exact root; within about
// 1e-13 relative of gaussian_epsilon_for_delta where the error bound is small). Same domain.
double gaussian_epsilon_lower_for_delta(double mu, double delta);

}  // namespace dpcalc
