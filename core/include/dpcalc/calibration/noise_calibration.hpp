// Noise calibration, the inverse of accounting: the smallest noise such that `count` adaptive uses
// of a mechanism (mechanisms::Mechanism, with one of its calibratable parameters unknown) are
// (ε_t, δ_t)-DP according to a sound upper bound. The noise is found by calibration::smallest_noise_meeting on that
// bound, so the answer is itself sound: recomposing it with the same method never exceeds the target, and lands within
// the reported tolerance below it.
//
// Forward bounds by method (Δ the sensitivity, k the count, ε at the target δ), each for the
// mechanisms that have what it needs:
//   basic     pure ε₀-DP (Laplace: ε₀ = Δ/b): ε = kε₀, δ = 0 (Dwork & Roth 2014, Thm 3.16)
//   optimal   pure ε₀-DP: exact k-fold composition (Kairouz, Oh, Viswanath 2015, Thm 3.3)
//   analytic  Gaussian noise: exact; k Gaussians compose to one with σ/√k, so ε = ε_AG(μ = √k Δ/σ, δ)
//             (Balle & Wang 2018, Thm 8)
//   zcdp      a zCDP bound ρ (Gaussian: Δ²/(2σ²), Bun & Steinke 2016, Prop 1.6): kρ (Lemma 2.3),
//             converted to (ε, δ) by Canonne, Kamath, Steinke 2020, Cor 13
//   pld       any:  the upper bound of the PLD accountant (dpcalc/pld/accountant.hpp), default options
#pragma once

#include <string>
#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::calibration {

enum class CalibrationMethod { kBasic, kOptimal, kAnalytic, kZcdp, kPld };

inline constexpr MethodInfo kAnalyticGaussianComposition{
    "Analytic Gaussian mechanism (exact); count compositions as one Gaussian with σ/√count", "Balle & Wang 2018, Thm 8",
    "balle2018improving"};
inline constexpr MethodInfo kGaussianZcdp{
    "zCDP of the Gaussian mechanism, converted to (ε, δ) by Canonne–Kamath–Steinke",
    "Bun & Steinke 2016, Prop 1.6, Lemma 2.3; Canonne, Kamath, Steinke 2020, Cor 13",
    "bun2016concentrated canonne2020discrete"};

// Relative tolerance on ε of the closed-form methods and of 'pld' (whose own upper bound is
// computed to about 5e-4 relative accuracy, so a tighter stop would chase its rounding).
inline constexpr double kClosedFormTolerance = 1e-9;
inline constexpr double kPldTolerance = 1e-3;
// The search range of the noise, as a multiple of the sensitivity.
inline constexpr double kLowestNoiseRatio = 1e-100;
inline constexpr double kHighestNoiseRatio = 1e100;

struct CalibrationProblem {
  // The mechanism, whose calibratable parameter `unknown` (one of mechanism->calibratable()) holds a
  // placeholder: the forward bound sets it with Mechanism::with_noise, as a request would (the noise
  // multiplier of DP-SGD times the sensitivity is σ), so that recomposing the returned unknown
  // reproduces the guarantee exactly.
  mechanisms::MechanismPtr mechanism;
  std::string unknown = "sigma";
  mechanisms::Relation relation = mechanisms::Relation::kAddRemove;  // one the mechanism supports
  double count = 1;  // number of compositions, a whole number in [1, 2^53]
  CalibrationMethod method = CalibrationMethod::kAnalytic;
  ApproxDp target;
  pld::AccountingOptions accounting;  // the PLD accountant's grid (method 'pld')
};

struct Calibration {
  double unknown = 0;      // the smallest unknown found whose bound meets the target
  ApproxDp guarantee;      // the bound at `unknown` (<= target)
  double bracket_low = 0;  // the largest unknown evaluated that does not meet the target
  double tolerance = 0;    // the search stopped once guarantee.epsilon >= (1 − tolerance) ε_t
  int evaluations = 0;     // forward bounds evaluated
  MethodInfo method;
};

// The method a request gets when it names none: the tightest sound one for the mechanism.
CalibrationMethod default_method(const mechanisms::Mechanism& mechanism, double target_delta);

// The methods whose forward bound applies to the mechanism ('pld' always does).
std::vector<CalibrationMethod> methods_for(const mechanisms::Mechanism& mechanism);
const char* method_name(CalibrationMethod method);

// The forward bound at a given unknown (used by the search and by tests to recompose answers).
// Errors of the underlying accountant come on this problem's parameters ("target_delta", "count",
// "target_epsilon"; its options keep their names).
Result<ApproxDp> forward_bound(const CalibrationProblem& problem, double unknown,
                               const pld::ProgressCallback& progress = {});

// Validates the combination (errors on "method", "target_epsilon", "target_delta", "count") and
// searches. Errors: invalid_argument when the method cannot apply or no noise in range reaches the
// target (the message says which limit was hit and what to change); the accountant's own errors
// where it could not evaluate a noise the search needed (as forward_bound names them);
// pld::kCancelled when `progress` returns false.
Result<Calibration> calibrate(const CalibrationProblem& problem, const pld::ProgressCallback& progress = {});

}  // namespace dpcalc::calibration
