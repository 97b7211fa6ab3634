// The privacy loss of a pair of Gaussian mixtures with a common standard deviation sigma:
//   P = sum_i w_i N(a_i, sigma^2),  Q = sum_j v_j N(b_j, sigma^2),
//   l(x) = log(dP/dQ)(x) = LSE_i(log w_i + (a_i x - a_i^2/2)/sigma^2) - LSE_j(log v_j + (b_j x - b_j^2/2)/sigma^2)
// (the common factor e^{-x^2/(2 sigma^2)} cancels). Two shapes have sublevel sets {l <= t} that are
// intervals, and only those are accepted:
//  * separated shifts, min a >= max b (or, mirrored, max a <= min b): l is monotone, because
//    l'(x) = (E_soft[a] - E_soft[b]) / sigma^2 with softmax weights, and E_soft[a] >= min a >= max b;
//  * a single component in Q: l is a log-sum-exp minus a linear function, hence convex.
// Examples: subsampled Gaussians and the DP-SGD group pairs (P a mixture, Q = N(0, sigma^2)), and
// the substitution pair of Schuchardt, Stoian, Kosmala, Guennemann 2024 (shifts +j against -j).
//
// Negligible components: one distribution may drop components of total weight at most
// kPrunedMassLimit, accounted soundly (mixture_components.hpp).
#pragma once

#include <string>
#include <vector>

#include "dpcalc/pld/mixture_components.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

class GaussianMixtureLoss {
 public:
  // p and q: components with positive weights (validated by the caller). prune_p (prune_q) allows
  // dropping negligible components of P (of Q). Errors (invalid_argument on `shifts_parameter`, the pair's parameter
  // that holds the shifts): P = Q, or shifts that are neither separated nor against a single Q component.
  static Result<GaussianMixtureLoss> create(double sigma, std::vector<MixtureComponent> p,
                                            std::vector<MixtureComponent> q, bool prune_p, bool prune_q,
                                            const std::string& shifts_parameter);

  SublevelMasses sublevel_masses(double threshold) const;
  // inf and sup of l over the real line (possibly infinite).
  double infimum() const { return infimum_; }
  double supremum() const { return supremum_; }
  // Weight dropped from P and from Q (at most kPrunedMassLimit each; one of them is 0).
  double pruned_p() const { return pruned_p_; }
  double pruned_q() const { return pruned_q_; }

  // Internal: a component with its exponent coefficients, e(x) = offset + slope x.
  struct Term {
    double shift, weight, offset, slope;
  };
  // Internal: one normal component's mass inside a sublevel set and outside it.
  struct ComponentMasses {
    double inside = 0, outside = 0;
  };
  // Internal: a root x of l(x) = threshold found earlier, with l'(x).
  struct Hint {
    double x = 0, threshold = 0, slope = 0;
  };

 private:
  double sigma_ = 1;
  std::vector<Term> p_, q_;
  double pruned_p_ = 0, pruned_q_ = 0;
  std::vector<std::ptrdiff_t> shared_;  // per Q term: the P term at the same shift, or -1
  bool convex_ = false;                 // false: monotone increasing in x (mirrored if needed)
  // Monotone with a single Q component and P of one component, or two with one at Q's shift (the
  // Gaussian and the Poisson-subsampled Gaussian): l(x) = t is solved in closed form.
  bool explicit_root_ = false;
  double minimiser_ = 0;  // convex case: argmin of l
  double infimum_ = 0, supremum_ = 0;
  // Roots found by the previous call, from which the next search starts one Newton step ahead:
  // the discretisation asks for consecutive thresholds, whose roots are close. Only speed depends
  // on them.
  mutable Hint hint_low_, hint_high_;
  mutable std::vector<ComponentMasses> p_masses_;  // scratch of sublevel_masses

  double loss(double x) const;
  std::pair<double, double> loss_and_slope(double x) const;
  double explicit_root(double threshold) const;
};

}  // namespace dpcalc::pld
