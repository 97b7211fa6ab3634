#include "dpcalc/closed_form/conversions.hpp"

#include <boost/math/tools/minima.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc {
namespace {

// A formula evaluated as a sum of terms, each within a few ulps of its exact value: adding
// 8 ulps of the sum of magnitudes keeps the reported value at or above the exact one.
struct TermSum {
  double sum = 0;
  double magnitude = 0;
  void add(double term) {
    sum += term;
    magnitude += std::fabs(term);
  }
  double rounded_up() const { return sum + 8 * DBL_EPSILON * magnitude; }
};

// Canonne, Kamath, Steinke 2020, Cor 13 at the order alpha = 1 + alpha_minus_one, rounded up:
//   alpha rho + (alpha ln(1 − 1/alpha) − ln(alpha − 1) − ln delta)/(alpha − 1)
//   = alpha rho − ln(1 + 1/(alpha − 1)) − ln(alpha)/(alpha − 1) − ln delta/(alpha − 1),
// the second form free of the cancellation between alpha ln(1 − 1/alpha) and ln(alpha − 1).
double canonne_kamath_steinke_at(double rho, double log_delta, double alpha_minus_one) {
  TermSum value;
  value.add((1 + alpha_minus_one) * rho);
  value.add(-std::log1p(1 / alpha_minus_one));
  value.add(-std::log1p(alpha_minus_one) / alpha_minus_one);
  value.add(-log_delta / alpha_minus_one);
  return value.rounded_up();
}

// Balle, Barthe, Gaboardi, Hsu, Sato 2020, Thm 21 at one order, rounded up.
double balle_et_al_at(double rdp_epsilon, double alpha, double log_delta) {
  const double alpha_minus_one = alpha - 1;
  TermSum value;
  value.add(rdp_epsilon);
  value.add(std::log1p(-1 / alpha));
  value.add(-log_delta / alpha_minus_one);
  value.add(-std::log(alpha) / alpha_minus_one);
  return value.rounded_up();
}

// The grid over x = ln(alpha − 1) that brackets the best order: wide enough for rho from 1e-30
// to 1e30, and fine enough that the best grid point is next to the minimum (the bounds are
// unimodal in x).
constexpr double kLowestLogOrder = -40;
constexpr double kHighestLogOrder = 60;
constexpr double kLogOrderStep = 0.5;
// Brent's method stops at half the bits of a double, the most a minimum resolves (the function is
// flat to second order there); it needs about 40 evaluations for that.
constexpr int kBrentBits = std::numeric_limits<double>::digits / 2;
constexpr std::uintmax_t kMaxBrentIterations = 100;

// Minimises f(alpha − 1) over alpha > 1: the grid, then Brent's method (Boost.Math
// brent_find_minima) around the best grid point. Whatever alpha it settles on, f there is a valid
// bound, so the search only has to be good, not exact; the value returned is f at an actual alpha,
// never an interpolation.
template <class Function>
double minimize_over_orders(const Function& f) {
  const auto value_at = [&](double x) { return f(std::exp(x)); };
  double best_x = kLowestLogOrder;
  double best = value_at(kLowestLogOrder);
  for (double x = kLowestLogOrder + kLogOrderStep; x <= kHighestLogOrder; x += kLogOrderStep) {
    const double value = value_at(x);
    if (value < best) {
      best = value;
      best_x = x;
    }
  }
  std::uintmax_t iterations = kMaxBrentIterations;
  const auto refined = boost::math::tools::brent_find_minima(value_at, best_x - kLogOrderStep, best_x + kLogOrderStep,
                                                             kBrentBits, iterations);
  return std::fmin(best, refined.second);
}

}  // namespace

Zcdp pure_to_zcdp(const PureDp& guarantee) { return Zcdp{multiply_up(guarantee.epsilon, guarantee.epsilon) / 2}; }

Zcdp gaussian_to_zcdp(double sigma, double sensitivity) {
  const double ratio = divide_up(sensitivity, sigma);
  return Zcdp{multiply_up(ratio, ratio) / 2};
}

ApproxDp zcdp_to_approx_bun_steinke(const Zcdp& guarantee, double delta) {
  // All terms are non-negative; the few roundings stay well inside 8 ulps.
  const double rho = guarantee.rho;
  // sqrt(rho)·sqrt(ln 1/delta): the product rho·ln(1/delta) overflows from rho ≈ 2.6e305.
  const double epsilon = rho + 2 * std::sqrt(rho) * std::sqrt(-std::log(delta));
  return ApproxDp{epsilon + 8 * DBL_EPSILON * epsilon, delta};
}

ApproxDp zcdp_to_approx_canonne_kamath_steinke(const Zcdp& guarantee, double delta) {
  const double rho = guarantee.rho;
  if (rho == 0) return ApproxDp{0, delta};
  const double log_delta = std::log(delta);
  const double best = minimize_over_orders(
      [&](double alpha_minus_one) { return canonne_kamath_steinke_at(rho, log_delta, alpha_minus_one); });
  // The exact infimum is never above Bun–Steinke; below rho ≈ 1e-50 its order lies beyond the
  // grid (alpha − 1 > e^60) and Bun–Steinke is the better of the two valid bounds. A negative
  // value still certifies (0, delta).
  return ApproxDp{std::fmax(0.0, std::fmin(best, zcdp_to_approx_bun_steinke(guarantee, delta).epsilon)), delta};
}

double largest_zcdp_for_approx(const ApproxDp& target) {
  // rho-zCDP meets (eps, delta) iff some order alpha has CKS(rho, alpha) <= eps, and
  // CKS(rho, alpha) = alpha rho + CKS(0, alpha), i.e. rho <= (eps − CKS(0, alpha))/alpha; the answer
  // is the largest such bound. CKS(0, alpha) is rounded up, so the bound errs low; the final
  // factor covers the division.
  const double log_delta = std::log(target.delta);
  const double negated = minimize_over_orders([&](double alpha_minus_one) {
    return -(target.epsilon - canonne_kamath_steinke_at(0, log_delta, alpha_minus_one)) / (1 + alpha_minus_one);
  });
  return std::fmax(0.0, -negated * (1 - 1e-12));
}

// True when δ ≥ √(1 − e^{−ε(α)}), which bounds the total variation distance, and with it δ(ε) for
// every ε ≥ 0, through the KL divergence (Bretagnolle & Huber 1979; KL ≤ D_α at every order α ≥ 1):
// 1 − e^{−r} rounded up against δ² rounded down.
bool total_variation_within(double rdp_epsilon, double delta) {
  return -std::expm1(-rdp_epsilon) * (1 + 4 * DBL_EPSILON) <= delta * delta * (1 - 2 * DBL_EPSILON);
}

RdpConversion rdp_to_approx(const RdpCurve& curve, double delta) {
  const double log_delta = std::log(delta);
  double best = kInfinity;
  std::size_t best_index = 0;
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    const double order = curve.orders[i], rdp_epsilon = curve.epsilons[i];
    double epsilon = kInfinity;
    if (total_variation_within(rdp_epsilon, delta)) {
      epsilon = 0;
    } else if (order == kInfinity) {
      epsilon = rdp_epsilon;  // ε-DP, the limit of Thm 21 as α → ∞
    } else if (order > 1) {
      epsilon = balle_et_al_at(rdp_epsilon, order, log_delta);
    }
    if (epsilon < best) {
      best = epsilon;
      best_index = i;
    }
  }
  const bool at_boundary = best_index == 0 || best_index + 1 == curve.orders.size();
  return RdpConversion{ApproxDp{std::fmax(0.0, best), delta}, curve.orders.empty() ? 0 : curve.orders[best_index],
                       best_index, at_boundary};
}

RdpDeltaConversion rdp_to_delta(const RdpCurve& curve, double epsilon) {
  double best = 1;
  double best_order = curve.orders.empty() ? 0 : curve.orders[0];
  for (std::size_t i = 0; i < curve.orders.size(); ++i) {
    const double order = curve.orders[i], rdp_epsilon = curve.epsilons[i];
    if (!(rdp_epsilon >= 0) || std::isinf(rdp_epsilon)) continue;
    // Bretagnolle–Huber: δ ≤ √(1 − e^{−KL}), 1 − e^{−r} within 2u, the root within u more.
    double delta = std::sqrt(-std::expm1(-rdp_epsilon) * (1 + 4 * DBL_EPSILON)) * (1 + 2 * DBL_EPSILON);
    if (order == kInfinity) {
      if (epsilon >= rdp_epsilon) delta = 0;
    } else if (order > 1) {
      // Thm 21 solved for δ: log δ = (α − 1)(ε(α) − ε + log(1 − 1/α)) − log α, each part rounded up.
      TermSum exponent;
      exponent.add((order - 1) * rdp_epsilon);
      exponent.add(-(order - 1) * epsilon);
      exponent.add((order - 1) * std::log1p(-1 / order));
      exponent.add(-std::log(order));
      delta = std::fmin(delta, std::exp(exponent.rounded_up()) * (1 + 4 * DBL_EPSILON));
    }
    if (delta < best) {
      best = delta;
      best_order = order;
    }
  }
  return RdpDeltaConversion{std::fmin(best, 1.0), best_order};
}

}  // namespace dpcalc
