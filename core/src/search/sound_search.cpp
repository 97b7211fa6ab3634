#include "dpcalc/search/sound_search.hpp"

#include <algorithm>
#include <boost/math/tools/roots.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <utility>

namespace dpcalc {
namespace {

// A bracket of doubles reaches adjacent ends after at most about 2100 halvings (from ±DBL_MAX down
// through the subnormals), so this budget never stops a bisection before its tolerance does.
constexpr std::uintmax_t kMaxBisections = 2200;

// Excess values are clamped to this size before TOMS 748 interpolates them: far below the range
// where its divided differences could overflow, far above the values near a root.
constexpr double kLargestExcess = 1e6;

// Short decimals lie within this share of relative_width of the geometric midpoint they stand for.
constexpr double kShortDecimalReach = 0.125;

// `value` rounded to `digits` significant decimal digits.
double round_significant(double value, int digits) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*e", digits - 1, value);
  return std::strtod(text, nullptr);
}

// The shortest decimal within a relative `reach` of `value` (> 0), or `value` itself.
double shortest_decimal_near(double value, double reach) {
  for (int digits = 1; digits <= 17; ++digits) {
    const double candidate = round_significant(value, digits);
    if (std::fabs(candidate - value) <= reach * value) return candidate;
  }
  return value;
}

}  // namespace

std::optional<Boundary> step_until_met(const SoundPredicate& meets, double start, double limit, double first_step) {
  if (meets(start)) return Boundary{start, start};
  const double direction = limit > start ? 1 : -1;
  double previous = start;
  for (double step = first_step > 0 ? first_step : std::numeric_limits<double>::denorm_min(); previous != limit;
       step *= 2) {
    double next = start + direction * step;
    if (direction * (next - limit) > 0) next = limit;
    if (next == previous) continue;  // a step below half an ulp of start
    if (meets(next)) return Boundary{next, previous};
    previous = next;
  }
  return std::nullopt;
}

Boundary bisect_boundary(const SoundPredicate& meets, const Boundary& boundary, double relative_width,
                         Midpoint midpoint) {
  if (boundary.meeting == boundary.failing) return boundary;
  // Bisection runs on u: x = e^u for geometric midpoints (positive ends only), x = u otherwise.
  const bool short_decimal = midpoint == Midpoint::kShortDecimal && std::min(boundary.meeting, boundary.failing) > 0;
  const bool geometric =
      (midpoint == Midpoint::kGeometric || short_decimal) && std::min(boundary.meeting, boundary.failing) > 0;
  const double width = short_decimal ? relative_width / 2 : relative_width;
  const auto to_u = [geometric](double x) { return geometric ? std::log(x) : x; };
  const double u_meeting = to_u(boundary.meeting), u_failing = to_u(boundary.failing);
  // The ends keep their own values: e^(ln x) need not be x, and they are not evaluated again.
  const auto to_x = [&](double u) {
    if (u == u_meeting) return boundary.meeting;
    if (u == u_failing) return boundary.failing;
    if (short_decimal) return shortest_decimal_near(std::exp(u), kShortDecimalReach * relative_width);
    if (geometric) return std::exp(u);
    return midpoint == Midpoint::kWhole ? std::floor(u) : u;
  };
  // Boost's bisect keeps the end whose sign differs from the midpoint's: meeting is −1, failing +1.
  const auto sign = [&](double u) {
    if (u == u_meeting) return -1.0;
    if (u == u_failing) return 1.0;
    return meets(to_x(u)) ? -1.0 : 1.0;
  };
  const auto narrow = [&](double low, double high) {
    if (midpoint == Midpoint::kWhole) return high - low <= 1;
    if (geometric) return high - low <= std::log1p(width);
    return high - low <= width * std::max(std::fabs(low), std::fabs(high));
  };
  std::uintmax_t iterations = kMaxBisections;
  const auto [low, high] = boost::math::tools::bisect(sign, std::min(u_meeting, u_failing),
                                                      std::max(u_meeting, u_failing), narrow, iterations);
  const bool meeting_is_low = u_meeting < u_failing;
  return Boundary{to_x(meeting_is_low ? low : high), to_x(meeting_is_low ? high : low)};
}

double farthest_meeting(const SoundPredicate& meets, double meeting, double towards, double relative_width,
                        Midpoint midpoint) {
  if (meets(towards)) return towards;
  return bisect_boundary(meets, Boundary{meeting, towards}, relative_width, midpoint).meeting;
}

Boundary solve_boundary(const Excess& excess, const Boundary& boundary, const SolveOptions& options) {
  if (boundary.meeting == boundary.failing) return boundary;
  // An excess of exactly 0 meets: it is passed on as the smallest negative value, so that the solver
  // never stops on a zero with both ends there, and the failing end is always a point that failed.
  const auto clamped = [&](double x) {
    const double value = std::clamp(excess(x), -kLargestExcess, kLargestExcess);
    return value == 0 ? -DBL_MIN : value;
  };
  // The caller's classification of the ends, checked: where `excess` disagrees with it, the caller's
  // own boundary is all that is known.
  const double at_meeting = clamped(boundary.meeting), at_failing = clamped(boundary.failing);
  if (!(at_meeting <= 0 && at_failing > 0)) return boundary;
  const auto narrow = [&](double low, double high) {
    return (options.stop && options.stop()) ||
           high - low <= options.relative_width * std::max(std::fabs(low), std::fabs(high));
  };
  std::uintmax_t evaluations = options.max_evaluations > 2 ? options.max_evaluations - 2 : 0;
  const bool meeting_is_low = boundary.meeting < boundary.failing;
  const auto [low, high] =
      meeting_is_low ? std::pair{boundary.meeting, boundary.failing} : std::pair{boundary.failing, boundary.meeting};
  const auto [f_low, f_high] = meeting_is_low ? std::pair{at_meeting, at_failing} : std::pair{at_failing, at_meeting};
  const auto [solved_low, solved_high] =
      boost::math::tools::toms748_solve(clamped, low, high, f_low, f_high, narrow, evaluations);
  // Under the errno policy Boost answers NaN on a domain error (it cannot happen after the checks
  // above, but its answer is then not a bracket).
  if (std::isnan(solved_low) || std::isnan(solved_high)) return boundary;
  return Boundary{meeting_is_low ? solved_low : solved_high, meeting_is_low ? solved_high : solved_low};
}

}  // namespace dpcalc
