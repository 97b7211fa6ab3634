// A complex number as one two-lane vector {re, im} (GCC / Clang vector extension): SSE2 natively,
// WebAssembly SIMD (f64x2) when built with -msimd128, plain scalar code otherwise. Every operation
// rounds exactly as the textbook formula written with doubles does (no fused multiply-add, no
// reassociation; a fused multiply-add, where a compiler forms one, only removes a rounding), so the
// error analysis of real_fft.hpp applies whichever instructions it becomes.
#pragma once

#include <complex>
#include <cstring>

namespace dpcalc::fft {

typedef double Vec2 __attribute__((vector_size(16)));

// std::complex<double> is an array of two doubles, re then im (C++17 [complex.numbers] p4).
inline Vec2 load(const double* pair) {
  Vec2 v;
  std::memcpy(&v, pair, sizeof v);
  return v;
}
inline Vec2 load(const std::complex<double>* z) { return load(reinterpret_cast<const double*>(z)); }
inline void store(double* pair, Vec2 v) { std::memcpy(pair, &v, sizeof v); }
inline void store(std::complex<double>* z, Vec2 v) { store(reinterpret_cast<double*>(z), v); }

inline Vec2 conjugate(Vec2 z) { return Vec2{z[0], -z[1]}; }
// -i z = (im, -re), exact.
inline Vec2 times_minus_i(Vec2 z) { return Vec2{z[1], -z[0]}; }

// a w = (a_re w_re - a_im w_im, a_im w_re + a_re w_im): four products, two additions.
inline Vec2 multiply(Vec2 a, Vec2 w) {
  const Vec2 swapped{a[1], a[0]};
  return a * Vec2{w[0], w[0]} + swapped * Vec2{-w[1], w[1]};
}
// a conj(w).
inline Vec2 multiply_conjugate(Vec2 a, Vec2 w) {
  const Vec2 swapped{a[1], a[0]};
  return a * Vec2{w[0], w[0]} + swapped * Vec2{w[1], -w[1]};
}

// The DFT of size kRadix of v (in place): y_j = sum_r v_r e^{-+2 pi i j r / kRadix} (+ for
// kInverse), for kRadix in {2, 3, 4, 5}; the additions and constants of real_fft.hpp's error
// analysis.
template <std::size_t kRadix, bool kInverse>
inline void butterfly(Vec2* v) {
  // i v for the inverse, -i v for the forward transform (the root e^{-+2 pi i / 4}).
  const auto quarter_turn = [](Vec2 z) { return kInverse ? Vec2{-z[1], z[0]} : times_minus_i(z); };
  if constexpr (kRadix == 2) {
    const Vec2 a = v[0], b = v[1];
    v[0] = a + b;
    v[1] = a - b;
  } else if constexpr (kRadix == 4) {
    const Vec2 sum02 = v[0] + v[2], difference02 = v[0] - v[2];
    const Vec2 sum13 = v[1] + v[3], rotated13 = quarter_turn(v[1] - v[3]);
    v[0] = sum02 + sum13;
    v[1] = difference02 + rotated13;
    v[2] = sum02 - sum13;
    v[3] = difference02 - rotated13;
  } else if constexpr (kRadix == 3) {
    // e^{-2 pi i / 3} = -1/2 - i sqrt(3)/2.
    constexpr double kSin = 0.86602540378443864676;
    const Vec2 sum = v[1] + v[2];
    const Vec2 rotated = quarter_turn(v[1] - v[2]) * Vec2{kSin, kSin};
    const Vec2 middle = v[0] - sum * Vec2{0.5, 0.5};
    v[0] = v[0] + sum;
    v[1] = middle + rotated;
    v[2] = middle - rotated;
  } else {
    static_assert(kRadix == 5, "radices 2, 3, 4 and 5");
    // e^{-2 pi i / 5} = c1 - i s1, e^{-4 pi i / 5} = c2 - i s2.
    constexpr double kC1 = 0.30901699437494742410, kC2 = -0.80901699437494742410;
    constexpr double kS1 = 0.95105651629515357212, kS2 = 0.58778525229247312917;
    const Vec2 sum14 = v[1] + v[4], difference14 = v[1] - v[4];
    const Vec2 sum23 = v[2] + v[3], difference23 = v[2] - v[3];
    const Vec2 real1 = v[0] + sum14 * Vec2{kC1, kC1} + sum23 * Vec2{kC2, kC2};
    const Vec2 real2 = v[0] + sum14 * Vec2{kC2, kC2} + sum23 * Vec2{kC1, kC1};
    const Vec2 imaginary1 = quarter_turn(difference14 * Vec2{kS1, kS1} + difference23 * Vec2{kS2, kS2});
    const Vec2 imaginary2 = quarter_turn(difference14 * Vec2{kS2, kS2} - difference23 * Vec2{kS1, kS1});
    v[0] = v[0] + sum14 + sum23;
    v[1] = real1 + imaginary1;
    v[4] = real1 - imaginary1;
    v[2] = real2 + imaginary2;
    v[3] = real2 - imaginary2;
  }
}

}  // namespace dpcalc::fft
