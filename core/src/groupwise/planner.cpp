#include "dpcalc/groupwise/planner.hpp"

#include <boost/math/constants/constants.hpp>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <cstdint>

#include "dpcalc/groupwise/output_density.hpp"

namespace dpcalc::groupwise {
namespace {

// The search stops once the bracket on σ is this tight (relative): the quadrature of
// E|Y − x| is itself accurate to about 1e-10.
constexpr double kSigmaTolerance = 1e-12;
// Halvings from the starting σ plus TOMS 748's steps; about 50 are used, the walk needs one halving
// per factor 2 the answer lies below the start.
constexpr std::uintmax_t kMaxEvaluations = 200;

}  // namespace

Result<Plan> plan_first_stage(double relative_error, double count) {
  const double target = relative_error * count;
  const auto error_at = [&](double sigma) { return expected_absolute_error({sigma, relative_error}, count); };
  // Above 0 where σ is too large: E|Y − x| is non-decreasing in σ.
  const auto excess = [&](double sigma) { return error_at(sigma) - target; };
  // E|Y − x| >= E|σ W| = σ sqrt(2/π) (Jensen, conditioning on W), so σ = target sqrt(π/2) is too
  // large. Boost's bracket_and_solve_root halves σ from half of that until the target is met (it is
  // as σ → 0), then solves by TOMS 748 (Alefeld, Potra, Shi 1995); the low end of its bracket is
  // where the target was met.
  const double too_large = target * boost::math::constants::root_half_pi<double>();
  const auto narrow = [](double low, double high) { return high - low <= kSigmaTolerance * low; };
  std::uintmax_t evaluations = kMaxEvaluations;
  const double sigma =
      boost::math::tools::bracket_and_solve_root(excess, 0.5 * too_large, 2.0, true, narrow, evaluations).first;
  // Under the errno policy a search that runs out of evaluations answers its nearest point, which
  // need not meet the target: the answer is checked.
  const double error = error_at(sigma);
  if (!(sigma > 0 && error <= target)) {
    return Error{kNumeric, "relative_error",
                 "The first stage's noise could not be found for this relative error and count (the search did "
                 "not converge)."};
  }
  return Plan{sigma, 1 / (2 * sigma * sigma), error};
}

}  // namespace dpcalc::groupwise
