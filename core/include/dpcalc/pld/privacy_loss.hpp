// Mechanisms as dominating pairs (P, Q) and their privacy loss L = log(dP/dQ)(X), X ~ P.
//   delta(eps) = P[L > eps] - e^eps Q[L > eps] = E_P[(1 - e^{eps - L})_+]      (hockey stick)
// A pair dominates a mechanism if its hockey-stick curve is >= the mechanism's for every eps
// (Zhu, Dong, Wang 2022, "Optimal accounting of differential privacy via characteristic function",
// Def. 7); composing dominating pairs dominates the composition (ibid., Thm 10).
//
// Neighbouring relation: add/remove one record. The "remove" direction is (M(D), M(D')) with
// D = D' + {x}; the "add" direction is the swapped pair. Every query answers for the worse one.
// Pairs used here (sensitivity Delta):
//   Laplace(b):        P = Lap(Delta, b), Q = Lap(0, b)
//   Gaussian(sigma):   P = N(Delta, sigma^2), Q = N(0, sigma^2)
//   Gaussian mixture:  P = sum_j w_j N(shift_j, sigma^2), Q = N(0, sigma^2)
//   Laplace mixture:   P = sum_j w_j Lap(shift_j, b), Q = Lap(0, b), shifts >= 0
//                      (laplace_mixture_loss.hpp; the Laplace pair is its one-component case)
//   Mixture pair:      P = sum_i w_i N(a_i, sigma^2), Q = sum_j v_j N(b_j, sigma^2) (the pair itself;
//                      see gaussian_mixture_loss.hpp for the shapes accepted)
//   (eps, delta)-DP:   the randomized-response pair of Kairouz, Oh, Viswanath 2015 (Thm 2.1):
//                      P = (delta, (1-delta) e^eps/(1+e^eps), (1-delta)/(1+e^eps), 0),
//                      Q = (0, (1-delta)/(1+e^eps), (1-delta) e^eps/(1+e^eps), delta);
//                      it dominates every (eps, delta)-DP mechanism; delta = 0 is pure eps-DP.
//   Finite pair:       the lists P, Q themselves.
//   Revealed mixture:  with probability w_i the pair (P_i, Q_i) of part i runs and the outcome says which
//                      (and with probability w_inf the record is revealed outright): the PLD is the
//                      mixture of the parts' PLDs, delta(eps) = sum_i w_i delta_i(eps) + w_inf. By joint
//                      convexity it dominates the hidden mixture (sum_i w_i P_i, sum_i w_i Q_i).
//   Poisson subsampling at rate q (Zhu, Dong, Wang 2022, Thm 11): remove (qP + (1-q)Q, Q),
//                      add (Q, qP + (1-q)Q).
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "dpcalc/pld/gaussian_mixture_loss.hpp"
#include "dpcalc/pld/laplace_mixture_loss.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::pld {

// Laplace noise of scale b > 0 added to a query of sensitivity > 0.
struct LaplacePair {
  double scale = 1;
  double sensitivity = 1;
};

// Gaussian noise of standard deviation sigma > 0 added to a query of sensitivity > 0.
struct GaussianPair {
  double sigma = 1;
  double sensitivity = 1;
};

// Any (epsilon, delta)-DP mechanism, through its dominating randomized-response pair; epsilon
// finite >= 0, delta in [0, 1). delta = 0 is pure epsilon-DP (a two-point PLD at +-epsilon).
struct ApproxDpPair {
  double epsilon = 1;
  double delta = 0;
};

// P = sum_j weights[j] N(shifts[j], sigma^2) against Q = N(0, sigma^2). weights >= 0 summing to 1
// (within 1e-9; renormalised), shifts finite, at least one nonzero shift with positive weight.
struct MixtureVsGaussianPair {
  double sigma = 1;
  std::vector<double> shifts;
  std::vector<double> weights;
};

// P = sum_i p_weights[i] N(p_shifts[i], sigma^2) against Q = sum_j q_weights[j] N(q_shifts[j], sigma^2),
// given as the dominating pair of the remove direction (the add direction is the swapped pair).
// Each weight list as for MixtureVsGaussianPair; the shifts of P all on one side of those of Q,
// or Q a single Gaussian. Sampling rate must be 1 (subsample before forming the pair).
struct MixtureVsMixturePair {
  double sigma = 1;
  std::vector<double> p_shifts, p_weights;
  std::vector<double> q_shifts, q_weights;
};

// P = sum_j weights[j] Lap(shifts[j], scale) against Q = Lap(0, scale). weights as for
// MixtureVsGaussianPair, shifts finite and >= 0, at least one positive with positive weight.
struct LaplaceMixturePair {
  double scale = 1;
  std::vector<double> shifts;
  std::vector<double> weights;
};

// Any pair on finitely many outcomes: P = p[i] and Q = q[i], each list non-negative and summing to 1
// (within 1e-9; renormalised), of the same length >= 1. An outcome with q[i] = 0 < p[i] has infinite
// loss: a mechanism on an infinite lattice puts the P-mass it truncates there, so that the pair
// still dominates (randomized response, discrete Laplace and Gaussian noise, bounded-range pairs).
struct FinitePair {
  std::vector<double> p, q;
};

// The revealed mixture above, of Gaussian mixture pairs: part i (each as for MixtureVsMixturePair,
// given as the pair of its remove direction; the add direction swaps every part) with probability
// weights[i], and the record revealed (P and Q disjoint: loss +infinity) with probability
// infinite_loss_weight. weights and infinite_loss_weight >= 0, summing to 1 (within 1e-9;
// renormalised), at least one part of positive weight; sampling rate 1. The parts' widths are
// reported on the first part's sigma.
struct RevealedMixturePair {
  std::vector<MixtureVsMixturePair> parts;
  std::vector<double> weights;
  double infinite_loss_weight = 0;
};

using BasePair = std::variant<LaplacePair, GaussianPair, ApproxDpPair, MixtureVsGaussianPair, MixtureVsMixturePair,
                              LaplaceMixturePair, FinitePair, RevealedMixturePair>;

// The pair of a base mechanism run on a Poisson subsample: each record is kept independently with
// probability sampling_rate in (0, 1]; sampling_rate = 1 is the base mechanism itself.
struct DominatingPair {
  BasePair base;
  double sampling_rate = 1;
};

enum class Direction { kRemove, kAdd };

// Masses of the events {L > threshold} and {L <= threshold} under P and under Q, each computed
// directly (not as 1 - the other) so that tiny tails keep their relative accuracy. Finite losses
// only: P[L = +inf] is PrivacyLossPair::infinite_loss_mass(), and Q-mass where P = 0 (L = -inf)
// is in neither event (it carries no P-mass, so it adds nothing to delta(eps) = E_P[...]).
struct LossMasses {
  double p_above = 0;
  double q_above = 0;
  double p_at_most = 0;
  double q_at_most = 0;
};

// A point mass of the privacy loss: the outcomes where L = loss (finite), of mass p under P and
// q = p e^{-loss} under Q.
struct LossAtom {
  double loss = 0;
  double p = 0;
  double q = 0;
};

// One direction of a validated mechanism: the dominating pair and its privacy loss.
class PrivacyLossPair {
 public:
  // Validates the mechanism; errors are invalid_argument on the pair's parameter that is wrong
  // (scale, sensitivity, sigma, epsilon, delta, shifts, weights, p, q, sampling_rate, a revealed mixture's
  // weights and infinite_loss_weight or its part's parameters; an element of a list with its index as
  // Error::item).
  static Result<PrivacyLossPair> create(const DominatingPair& mechanism, Direction direction);

  // Exact masses (up to double rounding) of {L > threshold} and {L <= threshold}.
  LossMasses masses(double threshold) const;
  // The same masses without the atoms (the continuous part of L: everything for Gaussian pairs,
  // the interior 0 < x < largest shift for Laplace pairs, nothing for finite pairs), so that
  // continuous part + atoms + P[L = +inf] = P.
  LossMasses continuous_masses(double threshold) const;
  // P[L = +inf] (the delta of an (eps, delta) item, scaled by the sampling rate).
  double infinite_loss_mass() const;
  // P-mass of negligible mixture components dropped at construction (at most kPrunedMassLimit):
  // the pessimistic discretisation puts it at loss +infinity, the optimistic one leaves it out.
  // It is in none of the masses above.
  double pruned_mass() const;
  // Bounds on the finite losses: every finite loss lies in [min_finite_loss, max_finite_loss];
  // +-infinity when unbounded (Gaussian tails).
  double min_finite_loss() const { return min_finite_loss_; }
  double max_finite_loss() const { return max_finite_loss_; }
  // The point masses of L with finite loss, in increasing loss: every outcome of a pure /
  // (eps, delta) item, the two ends of the Laplace loss range; empty for Gaussian pairs. The
  // accountant aligns its default grid to the highest one and the optimistic discretisation keeps
  // those on grid points in place.
  const std::vector<LossAtom>& atoms() const { return atoms_; }

  // Public so that std::variant can hold them; use create().
  struct Finite {  // finitely many outcomes with probabilities p[i] under P and q[i] under Q
    std::vector<double> p, q;
    // The finite losses in increasing order, and the masses of the first j of them (at_most[j]) and
    // of the rest (above[j]), each summed from its own small end: masses() is then a binary search
    // instead of a pass over every outcome (set by compute_loss_range).
    std::vector<double> losses, p_at_most, q_at_most, p_above, q_above;
  };
  struct LaplaceMixture {  // (P, Q) of LaplaceMixtureLoss, swapped for the add direction
    LaplaceMixtureLoss loss;
    bool swapped = false;
  };
  struct Mixture {  // (P, Q) of GaussianMixtureLoss, swapped for the add direction
    GaussianMixtureLoss loss;
    bool swapped = false;
  };
  struct Revealed {  // the parts of a RevealedMixturePair with positive weight, and the weights
    std::vector<Mixture> parts;
    std::vector<double> weights;
    double infinite_loss_weight = 0;
  };

 private:
  std::variant<Finite, LaplaceMixture, Mixture, Revealed> pair_;
  double min_finite_loss_ = 0;
  double max_finite_loss_ = 0;
  std::vector<LossAtom> atoms_;
  PrivacyLossPair() = default;
  void compute_loss_range();
  void index_finite_masses();
};

// True when the add and remove directions give the same privacy loss distribution (Laplace,
// Gaussian and (eps, delta) items without subsampling); the accountant then computes one.
bool is_symmetric(const DominatingPair& mechanism);

}  // namespace dpcalc::pld
