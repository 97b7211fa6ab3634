// Group privacy over a mechanism's privacy profile, for mechanisms whose group has no analysis of
// its own. Vadhan 2017, Lemma 2.2: an (ε, δ)-DP mechanism is (kε, δ (e^{kε} − 1)/(e^ε − 1))-DP for
// groups of k records, and δ (e^{kε} − 1)/(e^ε − 1) ≤ k e^{(k−1)ε} δ, the lemma's form. A group is
// a path of k neighbours, so it holds under every neighbouring relation. A mechanism is
// (ε, δ(ε))-DP at every ε ≥ 0 of its privacy profile, so every ε gives a group guarantee, and at a
// target group δ the best of them is
//     ε_group = k · min { ε ≥ 0 : δ(ε) (e^{kε} − 1)/(e^ε − 1) ≤ δ_group }.
// δ(ε) here is the PLD engine's certified upper bound (the larger of both directions), so every
// point is a sound guarantee. The product need not be monotone in ε (on a lattice PLD it dips below
// every atom): the search returns only a point it evaluated and found to meet the target.
// This is generic: where the group's own pair is known (Poisson-subsampled Gaussian or Laplace noise,
// sampled_group.hpp) its composition is tight and far smaller for large k.
#pragma once

#include <optional>
#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::pld {

inline constexpr MethodInfo kGroupOverProfile{
    "Group privacy, approximate DP (Vadhan 2017, Lemma 2.2), over the mechanism's privacy profile (privacy loss "
    "distributions)",
    "Vadhan 2017, Lemma 2.2; Doroshenko, Ghazi, Kamath, Kumar, Manurangsi 2022; Koskela, Jälkö, Honkela 2020",
    "vadhan2017complexity doroshenko2022connect koskela2020computing"};

// One point of the profile and the group guarantee it gives.
struct GroupPoint {
  ApproxDp per_record;  // (ε, δ(ε)): δ the certified upper bound of the PLDs (0 at a pure ε)
  ApproxDp group;       // group_privacy(per_record, k): kε and its δ rounded up (δ = 1: vacuous)
};

// The point at per-record ε (finite ≥ 0) of the mechanism whose PLDs (count 1) are `plds`, for a
// group of `group_size` records (a whole number ≥ 1).
GroupPoint group_point(const ComposedPlds& plds, double group_size, double epsilon);

// A pure ε₀-DP mechanism's own point: (ε₀, 0), group (kε₀, 0) (Dwork & Roth 2014, Thm 2.2).
GroupPoint pure_group_point(double pure_epsilon, double group_size);

// The point of smallest per-record ε found whose group δ is at most `delta` (in (0, 1)), or nullopt
// when none is found. `pure_epsilon`, where the mechanism is ε₀-DP, adds its pure point. The search
// runs on [ε₁, ε_top]: ε₁ where δ(ε) falls to δ/k (no smaller ε can meet the target), ε_top the
// largest finite loss of the PLDs (beyond it δ(ε) is flat and the group δ only grows) or ε₀. It is a
// branch and bound, leftmost interval first: on [a, b] the group δ is at least δ(b)(e^{ka} − 1)/(e^a − 1)
// (δ falls, the growth rises), so an interval where that exceeds `delta` is dropped and any other is
// halved, down to a relative width of 1e-9. The answer is then the smallest ε that meets up to that
// width, for the PLD's δ(ε); where the budget of evaluations (sized to the grid) ends first, it is the
// smallest ε found that meets. Every point returned was evaluated and met, or is the pure point.
std::optional<GroupPoint> best_group_point(const ComposedPlds& plds, double group_size, double delta,
                                           std::optional<double> pure_epsilon);

// Points of the group's privacy profile for its trade-off curve: per-record ε on a grid of [0, ε_top]
// and the pure point where there is one; each is a sound (ε, δ) of the group (δ < 1 only).
std::vector<GroupPoint> group_profile_points(const ComposedPlds& plds, double group_size,
                                             std::optional<double> pure_epsilon);

}  // namespace dpcalc::pld
