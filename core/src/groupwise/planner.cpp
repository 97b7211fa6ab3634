#include "dpcalc/groupwise/planner.hpp"

#include <cmath>

#include "dpcalc/groupwise/output_density.hpp"

namespace dpcalc::groupwise {

Plan plan_first_stage(double relative_error, double count) {
  const double target = relative_error * count;
  const auto error_at = [&](double sigma) { return expected_absolute_error({sigma, relative_error}, count); };
  // E|Y − x| >= E|σ W| = σ sqrt(2/π) (Jensen, conditioning on W), so σ = target sqrt(π/2) is too
  // large; halve until the target is met (it is as σ → 0).
  double bad = target * std::sqrt(std::acos(-1.0) / 2);
  double good = 0.5 * bad;
  while (!(error_at(good) <= target)) bad = good, good *= 0.5;
  for (int i = 0; i < 200 && bad - good > 1e-12 * good; ++i) {
    const double mid = 0.5 * (good + bad);
    (error_at(mid) <= target ? good : bad) = mid;
  }
  return {good, 1 / (2 * good * good), error_at(good)};
}

}  // namespace dpcalc::groupwise
