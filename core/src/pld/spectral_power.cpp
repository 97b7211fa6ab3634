#include "dpcalc/pld/spectral_power.hpp"

#include <boost/math/constants/constants.hpp>
#include <cmath>
#include <cstdint>
#include <limits>

#include "dpcalc/floating_point.hpp"

namespace dpcalc::pld {
namespace {

// sqrt(2) gamma_2 = 2 sqrt(2) u / (1 - 2u), rounded up: the relative error of a complex product.
constexpr double kProductError = 2.83 * kUnitRoundoff;
// Above this, (1 + e/|z|)^(n-1) <= e^{(n-1) e/|z|} loses more than a factor 1 + 1e-3 per unit of
// the exponent, and the propagated error is bounded through logarithms instead.
constexpr double kRelativeInputErrorLimit = 1e-3;

// An upper bound on e^x - 1 for x >= 0, without a libm call for small x (e^x - 1 <= x + x^2 for
// x <= 1).
double expm1_upper(double x) { return x <= 1e-3 ? x + x * x : std::expm1(x) * (1 + 4 * kUnitRoundoff); }

// Squares of moduli above this are free of underflow to within a relative 2^-74.
constexpr double kSafeSquare = 0x1p-1000;

// A lower bound on |z|.
double modulus_lower(std::complex<double> z) {
  const double re = std::fabs(z.real()), im = std::fabs(z.imag());
  const double square = re * re + im * im;
  return square >= kSafeSquare ? std::sqrt(square) * (1 - 4 * kUnitRoundoff) : std::max(re, im);
}

// zc^n by left-to-right binary powering (textbook complex products, n >= 1).
std::complex<double> power_by_squaring(std::complex<double> z, std::uint64_t n) {
  int bit = std::numeric_limits<std::uint64_t>::digits - 1;
  while (((n >> bit) & 1) == 0) --bit;
  const double base_re = z.real(), base_im = z.imag();
  double re = base_re, im = base_im;
  for (--bit; bit >= 0; --bit) {
    const double squared_re = re * re - im * im;
    im = 2 * (re * im);
    re = squared_re;
    if ((n >> bit) & 1) {
      const double product_re = re * base_re - im * base_im;
      im = re * base_im + im * base_re;
      re = product_re;
    }
  }
  return {re, im};
}

// A power and bounds on its rounding: |zc^n - value| <= rounding, |zc|^n <= magnitude.
struct RoundedPower {
  std::complex<double> value;
  double rounding;
  double magnitude;
};

RoundedPower by_squaring(std::complex<double> z, double count) {
  const std::complex<double> value = power_by_squaring(z, static_cast<std::uint64_t>(count));
  const double relative = expm1_upper(2 * count * kProductError);
  // |value| >= (1 - relative) |zc|^n minus the underflow allowance.
  const double magnitude = (modulus_upper(value) + kUnderflowAllowance) / (1 - relative) * (1 + 4 * kUnitRoundoff);
  return {value, relative * magnitude, magnitude};
}

RoundedPower through_polar_form(std::complex<double> z, double count) {
  const double pi = boost::math::constants::pi<double>();
  const double log_magnitude = std::log(std::abs(z));  // |z| within one ulp
  const double exponent = count * log_magnitude;
  const double phase = count * std::arg(z);
  // exp() of a very negative argument underflows to 0 through libm's slow error path: skip it.
  if (exponent < kExpUnderflow) return {0.0, kUnderflowAllowance, kUnderflowAllowance};
  const double result_magnitude = std::exp(exponent);
  const double exponent_error = count * (2 * kUnitRoundoff * std::fabs(log_magnitude) + 2.02 * kUnitRoundoff) +
                                kUnitRoundoff * std::fabs(exponent);
  const double phase_error = count * (2 * kUnitRoundoff * pi + 2 * kUnitRoundoff) + kUnitRoundoff * std::fabs(phase);
  const double magnitude_error = expm1_upper(exponent_error) + 4 * kUnitRoundoff;  // relative
  return {std::polar(result_magnitude, phase), result_magnitude * (magnitude_error + std::min(2.0, phase_error)),
          result_magnitude * (1 + magnitude_error)};
}

}  // namespace

double modulus_upper(std::complex<double> z) {
  const double re = std::fabs(z.real()), im = std::fabs(z.imag());
  const double square = re * re + im * im;
  // Three roundings and a square root: within 2u of |z|. With underflow (tiny z), |re| + |im|.
  if (square >= kSafeSquare) return std::sqrt(square) * (1 + 4 * kUnitRoundoff);
  return (re + im) * (1 + kUnitRoundoff);
}

SpectralPower::SpectralPower(double count) : count_(count) {
  // radius^count <= kUnderflowAllowance: the factor 1 - 1e-12 covers the rounding of log, the
  // division and exp (raised to the power count: (1 + 2u)^n (1 - 1e-12)^n <= 1).
  negligible_radius_ = count > 1 ? std::exp(std::log(kUnderflowAllowance) / count) * (1 - 1e-12) : 0.0;
}

bool SpectralPower::negligible(const BoundedComplex& z) const {
  const double re = z.value.real(), im = z.value.imag();
  return re * re + im * im <= negligible_square(z.error);
}

double SpectralPower::negligible_square(double error) const {
  // |zc| + e <= radius iff |zc|^2 <= (radius - e)^2. The computed re^2 + im^2 is within 3u of
  // |zc|^2 plus 2^-1073 of underflow, far below the 8u margin since radius >= 1e-150 (count >= 2)
  // and (radius - e)^2 >= radius^2 / 4 >= 2^-1000 here.
  const double room = negligible_radius_ - error;
  if (count_ == 1 || !(room >= 0.5 * negligible_radius_)) return -1;  // never negligible
  return room * room * (1 - 8 * kUnitRoundoff);
}

BoundedComplex SpectralPower::operator()(const BoundedComplex& z) const {
  if (count_ == 1) return z;
  if (negligible(z)) return {0.0, kUnderflowAllowance};
  const double magnitude_lower = modulus_lower(z.value);
  if (magnitude_lower == 0) {
    // |z| <= e: |z^n| <= e^n (the slack e^{1e-9 n} covers the rounding of log and exp).
    return {0.0, std::exp(count_ * std::log(z.error) + 1e-9 * count_) + kUnderflowAllowance};
  }
  const RoundedPower power =
      count_ <= kMaxSquaringCount ? by_squaring(z.value, count_) : through_polar_form(z.value, count_);
  double propagated = 0;
  if (z.error > 0) {
    // (|zc| + e)^(n-1) = |zc|^n / |zc| (1 + e/|zc|)^(n-1) <= |zc|^n / |zc| e^x, x = (n-1) e / |zc|.
    const double x = (count_ - 1) * z.error / magnitude_lower * (1 + 4 * kUnitRoundoff);
    // (Tight only while e / |zc| is small: (1 + y)^(n-1) <= e^{(n-1) y} loses e^{(n-1) y^2 / 2}.)
    if (z.error <= kRelativeInputErrorLimit * magnitude_lower && x <= kMaxExpArgument) {
      propagated = count_ * z.error * power.magnitude / magnitude_lower * (1 + expm1_upper(x));
    } else {
      const double log_base = std::log(modulus_upper(z.value) + z.error);
      const double power_exponent = (count_ - 1) * log_base;
      const double slack = (count_ + 1) * (2 * kUnitRoundoff * std::fabs(log_base) + 2.02 * kUnitRoundoff) +
                           kUnitRoundoff * std::fabs(power_exponent);
      const double log_bound = power_exponent + slack;
      propagated = count_ * z.error * (log_bound < kExpUnderflow ? kUnderflowAllowance : std::exp(log_bound));
    }
  }
  return {power.value, (power.rounding + propagated + kUnderflowAllowance) * (1 + 8 * kUnitRoundoff)};
}

BoundedComplex multiply(const BoundedComplex& a, const BoundedComplex& b) {
  const double ar = a.value.real(), ai = a.value.imag(), br = b.value.real(), bi = b.value.imag();
  const std::complex<double> value{ar * br - ai * bi, ar * bi + ai * br};
  const double a_magnitude = modulus_upper(a.value), b_magnitude = modulus_upper(b.value);
  const double error = a.error * (b_magnitude + b.error) + a_magnitude * b.error +
                       kProductError * a_magnitude * b_magnitude + kUnderflowAllowance;
  return {value, error * (1 + 4 * kUnitRoundoff)};
}

}  // namespace dpcalc::pld
