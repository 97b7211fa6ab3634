// Powers and products of Fourier coefficients that are known only within an error bound, with a
// proven bound on the result: the pointwise step of FFT composition (Koskela, Jalko, Honkela 2020),
// where the spectrum of count_1 copies of PLD_1, ..., count_k copies of PLD_k is
// prod_t (spectrum of PLD_t)^count_t. u = 2^-53; kappa = sqrt(2) gamma_2 bounds the relative error
// of one complex product (Higham 2002, "Accuracy and Stability of Numerical Algorithms", Lemma 3.5).
//
// For |z - zc| <= e (z exact, zc computed) and a whole number n >= 2:
//  * propagation: |z^n - zc^n| <= n (|zc| + e)^(n-1) e (mean value theorem);
//  * negligible coefficients: when (|zc| + e)^n <= kUnderflowAllowance the power is 0 within
//    kUnderflowAllowance (most of a PLD's spectrum: for n = 10^4 every |z| below 0.93);
//  * by squaring (n <= kMaxSquaringCount): left-to-right binary powering multiplies rounded
//    products; the rounding of multiplication j enters the result raised to the power of the
//    number of squarings after it, 2^(s-j) (s = floor(log2 n)), so the result is
//    zc^n prod_j (1 + eps_j)^{k_j} with |eps_j| <= kappa and sum_j k_j <= 2n: a relative error
//    <= e^{2 n kappa} - 1;
//  * through polar form (larger n): zc^n = exp(n log|zc|) e^{i n arg zc}, whose exponent and
//    phase carry absolute errors <= n (2u |log|zc|| + 2u) + u |n log|zc|| and
//    n (2u pi + 2u) + u |n arg zc| (libm within one ulp): a relative error
//    expm1(exponent error) + min(2, phase error) + 4u;
//  * product: |PZ - PcZc| <= E_P (|Zc| + E_Z) + |Pc| E_Z, plus kappa |Pc Zc| for its rounding.
// Every bound adds kUnderflowAllowance for gradual underflow (at most 2^-1075 per rounding in
// the subnormal range, and fewer than 2^60 of them).
#pragma once

#include <complex>

#include "dpcalc/floating_point.hpp"

namespace dpcalc::pld {

// Counts up to this are raised by squaring (at most 2 log2(count) products, no libm call); larger
// ones through polar form, whose error bound grows alike (about 10 n u in both).
inline constexpr double kMaxSquaringCount = 1 << 24;

// A computed spectral coefficient and a bound on its distance from the exact one.
struct BoundedComplex {
  std::complex<double> value;
  double error = 0;
};

// Upper bound on |z| (relative rounding included).
double modulus_upper(std::complex<double> z);

// z -> z^count with the bound above, for one count (a whole number in [1, 2^53]).
class SpectralPower {
 public:
  explicit SpectralPower(double count);
  double count() const { return count_; }
  // True when z^count is kUnderflowAllowance-small for every exact z within z.error of z.value.
  bool negligible(const BoundedComplex& z) const;
  // The same test for many coefficients with one error e: z^count is negligible when
  // re^2 + im^2 <= negligible_square(e) (computed in double); negative when e alone is too large or count is 1.
  double negligible_square(double error) const;
  BoundedComplex operator()(const BoundedComplex& z) const;

 private:
  double count_;
  double negligible_radius_;  // (|zc| + e) at most this makes z^count negligible
};

// a b with the product bound above.
BoundedComplex multiply(const BoundedComplex& a, const BoundedComplex& b);

}  // namespace dpcalc::pld
