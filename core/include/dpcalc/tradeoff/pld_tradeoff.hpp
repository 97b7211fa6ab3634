// The trade-off of a numeric composition, read from its composed privacy loss distributions
// (pld/accountant.hpp ComposedPlds: pessimistic and optimistic, remove and add directions).
//
// A discrete PLD, masses m_k at the losses l_k = k h and m_inf at +infinity, is the pair
// P = (m_k, m_inf), Q = (m_k e^{-l_k}, the rest at loss -infinity). Its Neyman-Pearson tests
// reject where the loss is largest, so its curve passes through the points
//   (alpha, TPR) = (Q[L >= l_j], P[L >= l_j] + m_inf)                      (one per grid loss)
// and is linear in between; equivalently TPR(alpha) = min over real eps of delta(eps) + e^eps alpha,
// the conjugate of the hockey-stick curve (Dong, Roth, Su 2019, Prop. 2.12). Both directions of
// add/remove neighbours bound the same membership test (P with the record, Q without):
//  - remove (P || Q): TPR <= delta(l) + e^l alpha at every grid loss l, negative ones included;
//  - add (Q || P), delta': beta >= e^-l (1 - delta'(l) - alpha), i.e. TPR <= 1 - e^-l (1 - delta'(l) - alpha).
// The answer takes the better of the two at every alpha; each is exact for the exact pair. (For a
// symmetric pair, whose two directions are one PLD, the add lines are its remove lines mirrored and
// add nothing measurable: only the remove lines are read, pld_tradeoff.cpp evaluate.)
//
// Soundness. The pessimistic PLDs' hockey-stick curves lie above the exact ones for every eps
// (connect-the-dots discretisation, Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022; preserved
// by composition, Zhu, Dong, Wang 2022, Thm 10); their truncated tail sits at +infinity and their
// rounding_error bounds the error of delta(eps) at every eps (pld.hpp). So each line above, with
// delta(l) rounded up by the rounding_error and by this code's own proven floating-point bound,
// is an upper bound on the true TPR: beta = 1 - min over lines is sound. The optimistic PLDs'
// curves lie below the exact ones up to truncated_mass + rounding_error = c, so the true curve
// lies above their Neyman-Pearson points moved down by c (remove) or right by c (add), rounded
// inward; chords between such points stay below the concave true curve, and beta_upper = 1 - the
// best chord; an optimistic PLD that was not composed (the pair of equal laws, accountant.hpp
// AnsweredEpsilon) gives only the trivial chord TPR >= alpha. Nothing is composed again: the cost is
// one pass over each distinct PLD (a symmetric pair's two directions are one), by blocks of grid
// points, reading point by point only where a query lies (pld_tradeoff.cpp, DownwardWalk).
#pragma once

#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::tradeoff {

inline constexpr MethodInfo kPldTradeoff{
    "Neyman–Pearson curve of the composed privacy loss distributions",
    "Dong, Roth, Su 2019, Prop. 2.12; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022",
    "dong2019gaussian doroshenko2022connect"};

// beta from the pessimistic PLDs (sound lower bound), beta_upper from the optimistic ones. The
// advantage is the pessimistic delta(0) of the remove direction, read on the same pass (the total
// variation distance is delta(0) of either direction; the add one's bound differs only by its
// discretisation). Sets result.discretization. The PLDs are not validated (as for the
// accountant's queries on ComposedPlds).
Result<TradeoffResult> pld_tradeoff(const pld::ComposedPlds& plds, const TradeoffOptions& options);

// The points where the lines of an (eps, delta) answer computed from the same PLDs (the upper value
// of pld::epsilon_bracket or pld::delta_bracket) touch the curve pld_tradeoff reads from them: in
// each direction the Neyman-Pearson vertex where its slope passes e^eps (remove: alpha = Q[L >= l],
// add: alpha = 1 - P'[L' >= l] - m'_inf, l the first grid loss above eps), with the answer's own
// bound on the TPR there (delta + e^eps alpha; 1 - e^-eps (1 - delta - alpha)), rounded up. Both are
// sound (the answer is); added to the plotted curve (include_points) they make the (eps, delta) read
// back from it never better than the answer, whatever rounding separates the two computations.
std::vector<CurvePoint> answer_points(const pld::ComposedPlds& plds, double epsilon, double delta);

}  // namespace dpcalc::tradeoff
