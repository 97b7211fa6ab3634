// The Laplace mixture pair (pld/laplace_mixture_loss.hpp) in the PLD engine: P = Σ_j w_j Lap(jΔ, b)
// against Q = Lap(0, b), the pair of a group of k records of a Poisson-subsampled Laplace mechanism
// (Schuchardt, Stoian, Kosmala, Günnemann 2024) with w_j = Pr[J = j], J ~ Binomial(k, q).
// Exact values: tests/reference/group_subsampled_laplace_reference.py (mpmath, 50 digits): the
// hockey-stick divergence of one release in closed form (the loss's inverse is explicit on each
// segment [jΔ, (j + 1)Δ]), of two releases by quadrature of δ₁(ε − L(x)) (error estimate < 1e-50).
#include <cmath>

#include "approx.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/accountant.hpp"

using namespace dpcalc::pld;

namespace {

// k = 3, q = 0.5, b = 1, Δ = 1: weights C(3, j) / 8.
DominatingPair group_of_three() {
  return DominatingPair{LaplaceMixturePair{1, {0, 1, 2, 3}, {0.125, 0.375, 0.375, 0.125}}};
}

double hockey_stick(const PrivacyLossPair& pair, double epsilon) {
  const LossMasses masses = pair.masses(epsilon);
  return masses.p_above - std::exp(epsilon) * masses.q_above;
}

PrivacyLossPair made(const DominatingPair& pair, Direction direction) {
  auto made = PrivacyLossPair::create(pair, direction);
  REQUIRE(made.ok());
  return made.value();
}

}  // namespace

TEST_CASE("[pld] Laplace mixture: its loss range, point masses and hockey stick are the exact ones") {
  const PrivacyLossPair remove = made(group_of_three(), Direction::kRemove);
  const PrivacyLossPair add = made(group_of_three(), Direction::kAdd);
  // log Σ w_j e^{∓j}: the reference's infimum and supremum.
  CHECK_REL(remove.min_finite_loss(), -1.1396564791251673, 1e-14);
  CHECK_REL(remove.max_finite_loss(), 1.8603435208748327, 1e-14);
  CHECK(add.min_finite_loss() == -remove.max_finite_loss());
  CHECK(add.max_finite_loss() == -remove.min_finite_loss());
  // Two point masses (x ≤ 0 and x ≥ 3), each with q = p e^{−loss}.
  REQUIRE(remove.atoms().size() == 2);
  for (const LossAtom& atom : remove.atoms()) CHECK_REL(atom.q, atom.p * std::exp(-atom.loss), 1e-14);
  CHECK_REL(remove.atoms()[0].q, 0.5, 1e-15);
  // δ(ε) of one release, both directions (mpmath, closed form).
  CHECK_REL(hockey_stick(remove, 0.5), 0.33048368007110895, 1e-13);
  CHECK_REL(hockey_stick(remove, 1.0), 0.20054541465782652, 1e-13);
  CHECK_REL(hockey_stick(add, 0.5), 0.28878661889844803, 1e-13);
  CHECK_REL(hockey_stick(add, 1.0), 0.06875122745487201, 1e-13);
  // The masses split every law whole, at every threshold, with and without the point masses.
  for (double t : {-2.0, -1.1396564791251673, -0.3, 0.0, 0.7, 1.8603435208748327, 3.0}) {
    CAPTURE(t);
    for (const PrivacyLossPair* pair : {&remove, &add}) {
      const LossMasses all = pair->masses(t);
      CHECK_REL(all.p_above + all.p_at_most, 1.0, 1e-15);
      CHECK_REL(all.q_above + all.q_at_most, 1.0, 1e-15);
      const LossMasses continuous = pair->continuous_masses(t);
      double atoms = 0;
      for (const LossAtom& atom : pair->atoms()) atoms += atom.p;
      CHECK_REL(continuous.p_above + continuous.p_at_most + atoms, 1.0, 1e-14);
    }
  }
}

TEST_CASE("[pld] Laplace mixture: one component is the Laplace pair, two are its Poisson subsample") {
  for (double t : {-0.15, -0.1, 0.0, 0.1}) {  // inside both directions' loss ranges
    CAPTURE(t);
    for (const Direction direction : {Direction::kRemove, Direction::kAdd}) {
      const LossMasses laplace = made(DominatingPair{LaplacePair{2, 1}, 0.3}, direction).masses(t);
      const LossMasses one = made(DominatingPair{LaplaceMixturePair{2, {1}, {1}}, 0.3}, direction).masses(t);
      const LossMasses two = made(DominatingPair{LaplaceMixturePair{2, {0, 1}, {0.7, 0.3}}}, direction).masses(t);
      CHECK(one.p_above == laplace.p_above);
      CHECK(one.q_above == laplace.q_above);
      CHECK_REL(two.p_above, laplace.p_above, 1e-14);
      CHECK_REL(two.q_above, laplace.q_above, 1e-14);
    }
  }
}

TEST_CASE("[pld] Laplace mixture: the engine brackets the exact δ of one and of two releases") {
  struct Row {
    double count, epsilon, exact;  // exact: the larger direction (the reference prints both)
  };
  for (const Row& row : {Row{1, 0.5, 0.33048368007110895}, Row{1, 1.0, 0.20054541465782652},
                         Row{2, 0.5, 0.4595736684621587}, Row{2, 1.0, 0.36238832773328633}}) {
    CAPTURE(row.count);
    CAPTURE(row.epsilon);
    const auto bracket = delta_for_epsilon({CompositionItem{group_of_three(), row.count}}, row.epsilon);
    REQUIRE(bracket.ok());
    CHECK(bracket.value().delta_lower <= row.exact);
    CHECK(bracket.value().delta_upper >= row.exact);
    CHECK(bracket.value().delta_upper <= row.exact * 1.005);
  }
}

TEST_CASE("[pld] Laplace mixture: negligible components are dropped soundly, invalid ones refused") {
  // k = 2000 at q = 0.01: far components below 1e-30 in all go to +∞ in the upper bound.
  std::vector<double> shifts, weights;
  const std::vector<double> log_pmf = dpcalc::binomial_log_pmf(2000, 0.01);
  for (std::size_t j = 0; j < log_pmf.size(); ++j) {
    if (std::exp(log_pmf[j]) == 0) continue;
    shifts.push_back(static_cast<double>(j));
    weights.push_back(std::exp(log_pmf[j]));
  }
  const DominatingPair group{LaplaceMixturePair{50, shifts, weights}};
  const PrivacyLossPair remove = made(group, Direction::kRemove);
  CHECK(remove.pruned_mass() > 0);
  CHECK(remove.pruned_mass() <= kPrunedMassLimit);
  CHECK(made(group, Direction::kAdd).pruned_mass() == 0);  // Q of the add direction keeps every component

  const auto field_of = [](const LaplaceMixturePair& pair) {
    const auto made = PrivacyLossPair::create(DominatingPair{pair}, Direction::kRemove);
    REQUIRE_FALSE(made.ok());
    CHECK(made.error().code == "invalid_argument");
    return made.error().field;
  };
  CHECK(field_of(LaplaceMixturePair{1, {-1, 1}, {0.5, 0.5}}) == "shifts");
  CHECK(field_of(LaplaceMixturePair{1, {0}, {1}}) == "shifts");
  CHECK(field_of(LaplaceMixturePair{1, {1, 2}, {0.5, 0.6}}) == "weights");
  CHECK(field_of(LaplaceMixturePair{0, {1}, {1}}) == "scale");
}
