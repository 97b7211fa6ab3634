// The bounds of dpcalc/pld/spectral_power.hpp against long double references: for coefficients
// z within e of the computed zc, |z^n - computed| <= the returned error, by squaring, through
// polar form and for negligible coefficients; products likewise.
#include "dpcalc/pld/spectral_power.hpp"

#include <cmath>
#include <complex>
#include <random>

#include "approx.hpp"

using namespace dpcalc::pld;
using LongComplex = std::complex<long double>;

namespace {

// z^n in long double by squaring (relative error about 2 n 2^-64, far below the bounds tested).
LongComplex long_power(LongComplex z, unsigned long long n) {
  LongComplex result = 1;
  while (n > 0) {
    if (n & 1) result *= z;
    z *= z;
    n >>= 1;
  }
  return result;
}

// The exact coefficients a bound must cover: zc itself and points at distance e in a few directions.
std::vector<LongComplex> within(const BoundedComplex& z) {
  std::vector<LongComplex> points{LongComplex(z.value)};
  for (int k = 0; k < 8; ++k) {
    const long double angle = 0.785398163397448309616L * k;
    points.push_back(LongComplex(z.value) + std::polar(static_cast<long double>(z.error), angle));
  }
  return points;
}

void check_covers(const BoundedComplex& z, double count, const BoundedComplex& result) {
  for (const LongComplex& exact : within(z)) {
    const LongComplex power = long_power(exact, static_cast<unsigned long long>(count));
    CHECK(static_cast<double>(std::abs(power - LongComplex(result.value))) <= result.error);
  }
}

}  // namespace

TEST_CASE("[pld] spectral power: squaring, polar form and negligible coefficients stay within their bounds") {
  std::mt19937_64 random(20261124);
  std::uniform_real_distribution<double> unit(0, 1);
  for (double count : {2.0, 3.0, 17.0, 1000.0, 10000.0, 65537.0, 16777216.0}) {
    CAPTURE(count);
    const SpectralPower power(count);
    for (int trial = 0; trial < 200; ++trial) {
      // Moduli where z^n is of order one, tiny, and in between; errors from 0 to 1e-6 relative.
      const double modulus = std::pow(unit(random), 1.0 / count * (1 + 40 * unit(random)));
      const double angle = 6.283185307179586 * unit(random);
      const BoundedComplex z{std::polar(modulus, angle), modulus * std::pow(10.0, -6 - 10 * unit(random))};
      const BoundedComplex result = power(z);
      check_covers(z, count, result);
      if (power.negligible(z)) CHECK(result.value == 0.0);
    }
  }
  SUBCASE("counts above 2^24 go through polar form") {
    const double count = 1e9;
    const SpectralPower power(count);
    const BoundedComplex z{std::polar(1 - 1e-9, 0.3), 1e-19};
    const BoundedComplex result = power(z);
    // |z^n| = (1 - 1e-9)^1e9 = e^{-1.0000000005}: the bound stays meaningful (well below |z^n|).
    CHECK(result.error < 1e-4 * std::abs(result.value));
    check_covers(z, count, result);
  }
  SUBCASE("by squaring the bound is about 2 n kappa |z|^n for exact inputs") {
    const SpectralPower power(1000);
    const BoundedComplex result = power(BoundedComplex{std::polar(0.999, 1.0), 0.0});
    const double magnitude = std::pow(0.999, 1000);
    CHECK(result.error <= 2 * 1000 * 2.9 * 0x1p-53 * magnitude * 1.01);
    CHECK(result.error >= 2 * 1000 * 2.8 * 0x1p-53 * magnitude);
  }
  SUBCASE("count 1 is the identity") {
    const BoundedComplex z{{0.25, -0.5}, 1e-17};
    const BoundedComplex result = SpectralPower(1)(z);
    CHECK(result.value == z.value);
    CHECK(result.error == z.error);
  }
}

TEST_CASE("[pld] spectral product: the bound covers every pair of exact factors") {
  std::mt19937_64 random(7);
  std::uniform_real_distribution<double> unit(0, 1);
  for (int trial = 0; trial < 500; ++trial) {
    const BoundedComplex a{std::polar(unit(random), 6.3 * unit(random)), 1e-12 * unit(random)};
    const BoundedComplex b{std::polar(unit(random), 6.3 * unit(random)), 1e-12 * unit(random)};
    const BoundedComplex product = multiply(a, b);
    for (const LongComplex& x : within(a)) {
      for (const LongComplex& y : within(b)) {
        CHECK(static_cast<double>(std::abs(x * y - LongComplex(product.value))) <= product.error);
      }
    }
  }
}
