// pld/group_over_profile: group privacy (Vadhan 2017, Lemma 2.2) at every point of a mechanism's
// privacy profile, on the PLDs of one record. Exact references: the same bound over the exact
// profile, with mpmath at 50 digits (tests/reference/group_over_profile_reference.py); the tight
// group ε of a Poisson-subsampled Laplace mechanism (its Laplace mixture, Schuchardt, Stoian,
// Kosmala, Günnemann 2024; tests/reference/group_subsampled_laplace_reference.py).
#include "dpcalc/pld/group_over_profile.hpp"

#include <doctest/doctest.h>

#include <optional>

#include "approx.hpp"
#include "dpcalc/closed_form/group_privacy.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using dpcalc::mechanisms::MechanismPtr;
using dpcalc::mechanisms::Relation;
using dpcalc::pld::best_group_point;
using dpcalc::pld::ComposedPlds;
using dpcalc::pld::GroupPoint;

// One record's PLDs as op 'group' composes them over a profile: at δ/k, the tail cut at 1e-30.
ComposedPlds one_record(const MechanismPtr& mechanism, double delta) {
  dpcalc::pld::AccountingOptions options;
  options.tail_mass_truncation = 1e-30;
  auto answered =
      dpcalc::pld::epsilon_for_delta_with_plds({{mechanism->pair(Relation::kAddRemove), 1}}, delta, options);
  REQUIRE(answered.ok());
  return answered.value().plds;
}

// The point is a sound guarantee of the group: δ read at its ε, and the lemma applied to it.
void check_sound(const GroupPoint& point, const ComposedPlds& plds, double group_size, double delta) {
  CHECK(point.per_record.delta == dpcalc::pld::delta_bracket(plds, point.per_record.epsilon).delta_upper);
  const dpcalc::ApproxDp group = dpcalc::group_privacy(point.per_record, group_size);
  CHECK(point.group.epsilon == group.epsilon);
  CHECK(point.group.delta == group.delta);
  CHECK(point.group.delta <= delta);
}

}  // namespace

TEST_CASE("[pld] group over a profile: a Gaussian's, against the bound over its exact profile") {
  // μ = 0.5 (σ = 2), δ = 1e-5: mpmath, the reference script. An upper bound on δ(ε) gives a group ε at
  // or above the exact profile's; the PLD at its default accuracy is within 0.1% of it (a group of 8
  // reads δ(ε) ≈ 5e-19 per record, which the 1e-30 tail lets it certify).
  struct Row {
    double k, exact;
  };
  for (const Row& row : {Row{1, 1.9930914044151196}, Row{2, 4.5203710582969019}, Row{4, 11.444425309339106},
                         Row{8, 35.029535055501907}}) {
    CAPTURE(row.k);
    const ComposedPlds plds = one_record(test_mechanisms::gaussian(2), 1e-5 / row.k);
    const auto best = best_group_point(plds, row.k, 1e-5, std::nullopt);
    REQUIRE(best.has_value());
    check_sound(*best, plds, row.k, 1e-5);
    CHECK(best->group.epsilon >= row.exact);
    CHECK(best->group.epsilon <= row.exact * 1.001);
  }
}

TEST_CASE("[pld] group over a profile: a group of one is the mechanism's own ε at δ") {
  const ComposedPlds plds = one_record(test_mechanisms::gaussian(2), 1e-5);
  const auto best = best_group_point(plds, 1, 1e-5, std::nullopt);
  REQUIRE(best.has_value());
  CHECK(best->group.epsilon == best->per_record.epsilon);
  CHECK(best->group.epsilon == dpcalc::pld::epsilon_bracket(plds, 1e-5).epsilon_upper);
}

TEST_CASE("[pld] group over a profile: a pure mechanism's point (ε₀, 0) bounds the answer") {
  // Laplace, ε₀ = Δ/b = 1, δ = 1e-5, k = 3: 2.9999945981478566 over the exact profile (mpmath, the
  // reference script); its pure point gives 3 (Dwork & Roth 2014, Thm 2.2).
  const ComposedPlds plds = one_record(test_mechanisms::laplace(1), 1e-5 / 3);
  const auto best = best_group_point(plds, 3, 1e-5, 1.0);
  REQUIRE(best.has_value());
  CHECK(best->group.epsilon >= 2.9999945981478566);
  CHECK(best->group.epsilon <= 3);
  // Where no point of the PLD meets the target, the pure point is the answer. (A Gaussian's PLD, which
  // certifies δ(ε) down to its 1e-30 tail only, with a pure ε₀ = 5 given as if the mechanism had one:
  // δ = 1e-40 for a group of 3 is out of the PLD's reach.)
  const ComposedPlds gaussian = one_record(test_mechanisms::gaussian(2), 1e-5);
  CHECK_FALSE(best_group_point(gaussian, 3, 1e-40, std::nullopt).has_value());
  const auto pure = best_group_point(gaussian, 3, 1e-40, 5.0);
  REQUIRE(pure.has_value());
  CHECK(pure->per_record.delta == 0);
  CHECK(pure->group.epsilon == 15);
  CHECK(pure->group.delta == 0);
}

TEST_CASE("[pld] group over a profile: never below the tight group of a subsampled Laplace mechanism") {
  // Poisson rate 0.01 of Lap(b = 1), a group of 4 at δ = 1e-5: the tight ε of its Laplace mixture is
  // 0.06797998032499865 (mpmath, group_subsampled_laplace_reference.py); the generic bound is
  // larger, and no larger than the pure amplified ε's k ln(1 + q(e − 1)) = 0.0681475.
  const MechanismPtr subsampled = test_mechanisms::poisson_subsampled(0.01, test_mechanisms::laplace(1));
  const ComposedPlds plds = one_record(subsampled, 1e-5 / 4);
  const auto best = best_group_point(plds, 4, 1e-5, subsampled->pure_epsilon());
  REQUIRE(best.has_value());
  check_sound(*best, plds, 4, 1e-5);
  CHECK(best->group.epsilon > 0.06797998032499865);
  CHECK(best->group.epsilon <= dpcalc::group_privacy(dpcalc::PureDp{*subsampled->pure_epsilon()}, 4).epsilon);
}

TEST_CASE("[pld] group over a profile: monotone in k, and the trade-off's points are sound") {
  const ComposedPlds plds = one_record(test_mechanisms::gaussian(2), 1e-7);
  double previous = 0;
  for (double k : {1.0, 2.0, 3.0, 5.0, 8.0}) {
    CAPTURE(k);
    const auto best = best_group_point(plds, k, 1e-5, std::nullopt);
    REQUIRE(best.has_value());
    check_sound(*best, plds, k, 1e-5);
    CHECK(best->group.epsilon > previous);
    previous = best->group.epsilon;
  }
  const auto points = dpcalc::pld::group_profile_points(plds, 4, std::nullopt);
  CHECK(points.size() > 16);
  for (const GroupPoint& point : points) {
    CHECK(point.group.delta < 1);
    check_sound(point, plds, 4, 1);
  }
}
