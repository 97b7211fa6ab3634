#include "dpcalc/mechanisms/gaussian_composition.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace dpcalc::mechanisms {

ComposedGaussian compose_gaussians(const std::vector<GaussianUse>& uses) {
  // μ = m √(Σ countᵢ (μᵢ/m)²) with m = max μᵢ, so that no square overflows or underflows to 0
  // (μᵢ = Δᵢ/σᵢ spans 1e-300 to 1e300). Every operation is on positive numbers: the relative error
  // of the sum of n terms is at most (n − 1) u, each term carries 3 roundings (μᵢ, the ratio to m,
  // its square and the product with the count: 4), the square root halves the sum's error and adds
  // one, the final product one: within (n + 6) u in all (Higham 2002, Sec. 4.2), u = 2^-53; the
  // bracket is twice that wide.
  double largest = 0;
  for (const GaussianUse& use : uses) largest = std::max(largest, use.noise.sensitivity / use.noise.sigma);
  // Every Δ/σ below the smallest double: μ < √(n 2^53) × 5e-324, below the smallest normal double.
  if (largest == 0) return ComposedGaussian{0, DBL_MIN};
  double sum = 0;
  for (const GaussianUse& use : uses) {
    const double ratio = use.noise.sensitivity / use.noise.sigma / largest;
    sum += use.count * ratio * ratio;
  }
  const double mu = largest * std::sqrt(sum);
  const double slack = (static_cast<double>(uses.size()) + 6) * (DBL_EPSILON / 2);
  return ComposedGaussian{mu * (1 - 2 * slack), mu * (1 + 2 * slack)};
}

}  // namespace dpcalc::mechanisms
