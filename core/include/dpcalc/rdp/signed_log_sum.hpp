// Certified sums of signed terms held in log space. Each term is given by the logarithm of its
// magnitude and, where it was itself computed, the logarithm of a bound on its absolute error. The
// terms are scaled by e^{−L}, L the largest logarithm among them, and summed in double precision:
// a scaled term e^{l − L} is within (|l − L| + 2)u of exact (the subtraction and the exponential),
// the scaled terms are summed with their rounding errors recovered exactly (Ogita, Rump, Oishi 2005,
// "Accurate sum and dot product", Alg. 4.4 and Prop. 4.5: within u|S| + γ²_{n−1} Σ|terms|, γ_n =
// nu/(1 − nu)), and every such error is added, so that the upper bound is never below the exact sum
// while the cancellation of large terms costs no more than their own rounding. u = 2^−53 is the
// unit roundoff.
#pragma once

#include <cstddef>
#include <vector>

#include "dpcalc/log_math.hpp"

namespace dpcalc::rdp {

class SignedLogSum {
 public:
  // Adds ±e^{log_magnitude}, computed within e^{log_error} of its exact value.
  void add(double log_magnitude, bool negative, double log_error = kNegativeInfinity);
  // Adds an error bound alone (a term known only to lie within ±e^{log_error}).
  void add_error(double log_error) { add(kNegativeInfinity, false, log_error); }

  // The exact sum is at most e^{log_scale}·scaled, scaled ≥ 0 (log_scale = −∞ for an empty sum).
  struct Upper {
    double log_scale;
    double scaled;
  };
  Upper upper() const;

  // log |sum| of the terms as summed so far, without their errors (a stopping rule's estimate, not
  // a bound); −∞ while the sum is ≤ 0.
  double approximate_log() const;

 private:
  struct Entry {
    double log_magnitude;
    bool negative;
    double log_error;
  };
  std::vector<Entry> entries_;
  double log_positive_ = kNegativeInfinity, log_negative_ = kNegativeInfinity;
};

// log(1 + S) rounded up, for 0 ≤ S ≤ e^{log_scale}·scaled; a positive S too small for a double
// gives the smallest positive double.
double log1p_upper(const SignedLogSum::Upper& bound);
// log S rounded up, for 0 < S ≤ e^{log_scale}·scaled.
double log_upper(const SignedLogSum::Upper& bound);

// log of e^{l}(e^{e} − 1): the absolute error of a term e^{l} whose logarithm is within e ≥ 0 of
// exact (stable for large e, where the term itself is then meaningless).
double log_error_of(double log_magnitude, double log_error);

}  // namespace dpcalc::rdp
