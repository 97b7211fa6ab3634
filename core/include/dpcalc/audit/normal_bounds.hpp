// The standard normal distribution function and its inverse, rounded in a chosen direction:
//   Φ(t) = erfc(−t/√2) / 2,        Φ⁻¹(p) = −√2 erfc⁻¹(2p),
// for the audits' Gaussian-DP statements (μ ≥ Φ⁻¹(TPR) − Φ⁻¹(FPR), Nasr et al. 2023) and the normal
// quantile in the Zubkov–Serov binomial bounds. Boost.Math's erfc and erfc_inv are taken within a few
// ulps: each result is moved outward by 32u relative (u = 2^-53) for erfc and by 64u (|z| + 1) for
// Φ⁻¹, the margin core/src/tradeoff/gaussian_tradeoff.cpp uses for the same functions.
#pragma once

namespace dpcalc::audit {

// Φ⁻¹(p) for p in [0, 1], rounded down (never above the exact value): −inf at 0, +inf at 1.
double normal_quantile_down(double p);
// Φ⁻¹(p) for p in [0, 1], rounded up (never below the exact value): −inf at 0, +inf at 1.
double normal_quantile_up(double p);

// An upper bound on Φ(t') for every t' ≤ t + t_error (t_error ≥ 0 bounds the caller's error in t):
// never below Φ there, at most 1; 0 only at t = −inf.
double normal_cdf_up(double t, double t_error);

}  // namespace dpcalc::audit
