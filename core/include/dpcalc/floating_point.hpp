// Facts about IEEE-754 double arithmetic that the numeric code's error bounds rest on, in one place.
#pragma once

namespace dpcalc {

// Unit roundoff u = 2^-53: every basic operation and square root is exact up to a relative u
// (round to nearest); libm's exp, log, sin, cos are within one ulp (2u relative).
inline constexpr double kUnitRoundoff = 0x1p-53;

// e^700 (about 1e304) is still a finite double: the largest argument the code passes to exp.
inline constexpr double kMaxExpArgument = 700;

// Below e^-740 (< 1e-321, deep in the subnormal range) exp() returns (about) 0, through libm's slow
// underflow path: callers treat such terms as 0 instead of evaluating them.
inline constexpr double kExpUnderflow = -740;

// Relative slack multiplied onto computed error bounds, for the rounding of their own evaluation
// (a few operations of relative error u each, far below 1e-6).
inline constexpr double kBoundSlack = 1e-6;

// An absolute amount added to error bounds for gradual underflow (at most 2^-1075 per rounding in
// the subnormal range, and far fewer than 2^60 roundings) and for values treated as 0: far below
// any probability the engine reports.
inline constexpr double kUnderflowAllowance = 1e-300;

}  // namespace dpcalc
