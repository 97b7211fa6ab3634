// The privacy loss of a mixture of Laplace distributions of one scale b against the centred one:
//   P = sum_i w_i Lap(a_i, b) with every shift a_i >= 0,  Q = Lap(0, b),
//   l(x) = log(dP/dQ)(x) = log sum_i w_i e^{(|x| - |x - a_i|)/b}.
// Each exponent is -a_i/b for x <= 0, (2x - a_i)/b on [0, a_i] and a_i/b beyond, so l is
// non-decreasing: constant for x <= 0 (its infimum, log sum_i w_i e^{-a_i/b}) and for x >= a_max,
// the largest shift (its supremum, log sum_i w_i e^{a_i/b}), two point masses of the loss; strictly
// increasing in between, where on each segment [c, c'] between consecutive shifts
//   e^{l(x)} = A + B e^{2x/b},  A = sum_{a_i <= c} w_i e^{a_i/b},  B = sum_{a_i > c} w_i e^{-a_i/b},
// so the x at which l(x) = t is (b/2) (log(e^t - A) - log B), in closed form (no root search).
// Examples: the Laplace mechanism (one component at Δ), its Poisson subsample ((1 - q) at 0, q at
// Δ; Zhu, Dong, Wang 2022, Thm 11) and a group of k records of it, J ~ Binomial(k, q) of them in the
// subsample: w_j = Pr[J = j] at jΔ (Schuchardt, Stoian, Kosmala, Günnemann 2024).
//
// Masses at a cut x are prefix sums over the components on each side of x (O(1) per threshold):
// with W and S the weights below and above x,
//   P[X <= x] = W - (1/2) e^{-x/b} A + (1/2) e^{x/b} B,   P[X > x] = S + (1/2) e^{-x/b} A - (1/2) e^{x/b} B,
// where each subtracted term is at most half of the weight it is taken from: no cancellation, a
// few rounding errors relative to each mass (A and B are log-sum-exps). The discretisation keeps
// every cell's split within its masses (discretization.hpp).
// Negligible components of P may be dropped (mixture_components.hpp); Q keeps its one component.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "dpcalc/pld/mixture_components.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

class LaplaceMixtureLoss {
 public:
  // p: components with positive weights (validated by the caller) and shifts >= 0, at least one of
  // them positive (invalid_argument on `shifts_parameter`, the pair's parameter that holds the shifts otherwise).
  // prune_p allows dropping negligible ones.
  static Result<LaplaceMixtureLoss> create(double scale, std::vector<MixtureComponent> p, bool prune_p,
                                           const std::string& shifts_parameter);

  // Masses of {l <= t}, or of {l < t} when `strict`, and of its complement.
  SublevelMasses sublevel_masses(double threshold, bool strict) const;
  // The same within the interior 0 < x < a_max, where l is strictly increasing (the continuous part
  // of the loss; the two ends are its point masses).
  SublevelMasses interior_masses(double threshold, bool strict) const;

  // A point mass of l: the loss there and the masses of its outcomes under P and Q.
  struct Atom {
    double loss = 0, p = 0, q = 0;
  };
  Atom low_atom() const;   // x <= 0, at the infimum of l
  Atom high_atom() const;  // x >= a_max, at the supremum of l
  double infimum() const { return levels_.front(); }
  double supremum() const { return levels_.back(); }
  // Weight dropped from P (at most kPrunedMassLimit).
  double pruned_p() const { return pruned_p_; }

 private:
  double scale_ = 1;
  std::vector<MixtureComponent> p_;  // sorted by shift
  double pruned_p_ = 0;
  // The segment ends 0 = c_0 < c_1 < ... < c_n = a_max (the distinct positive shifts), l at each
  // (levels_), and for each segment [c_m, c_{m+1}] log A, log B (see above) and the weights of the
  // components at or below c_m and above it.
  std::vector<double> ends_, levels_, log_a_, log_b_, weight_below_, weight_above_;
  double low_p_ = 0, high_p_ = 0, interior_p_ = 0;  // P-masses of x <= 0, x >= a_max and between

  // {l <= t} (or {l < t}) is (-inf, x] up to a null set (x = -inf: none, +inf: all), with x on the
  // segment [c_m, c_{m+1}].
  struct Cut {
    double x;
    std::size_t segment;
  };
  Cut cut(double threshold, bool strict) const;
  SublevelMasses below(const Cut& cut) const;
};

}  // namespace dpcalc::pld
