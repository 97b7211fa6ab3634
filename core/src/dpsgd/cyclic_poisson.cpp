#include "dpcalc/dpsgd/cyclic_poisson.hpp"

#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/dpsgd/truncated_poisson.hpp"

namespace dpcalc::dpsgd {

Result<double> cyclic_poisson_steps(double total_steps, double bands) {
  DPCALC_TRY(const double steps, check_count(total_steps, "steps"));
  DPCALC_TRY(const double b, check_count(bands, "bands"));
  // Both below 2^53: the quotient's ceiling is exact unless T/b rounds onto a whole number from
  // above, which the remainder check corrects.
  double uses = std::ceil(steps / b);
  if ((uses - 1) * b >= steps) uses -= 1;
  if (uses * b < steps) uses += 1;
  return uses;
}

Result<pld::CompositionItem> cyclic_poisson_item(double sampling_rate, double noise_multiplier, double total_steps,
                                                 double bands, Relation relation) {
  DPCALC_TRY(const double uses, cyclic_poisson_steps(total_steps, bands));
  DPCALC_TRY(const double q, check_rate(sampling_rate, "sampling_rate"));
  DPCALC_TRY(const double sigma, check_positive(noise_multiplier, "noise_multiplier"));
  return pld::CompositionItem{poisson_step_pair(q, sigma, relation), uses};
}

}  // namespace dpcalc::dpsgd
