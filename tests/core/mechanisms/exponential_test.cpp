// The exponential mechanism as an ε-bounded-range mechanism (core/src/mechanisms/exponential.cpp):
// its envelope pair against the closed form, its composition against the bounded-range references,
// its zCDP bound, its group and its checks; selections fixed in advance. Reference values:
// tests/reference/bounded_range_reference.py and tests/reference/nonadaptive_bounded_range_reference.py.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "approx.hpp"
#include "dpcalc/mechanisms/bounded_range_composition.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/rdp/bounded_range_rdp.hpp"
#include "mechanism_requests.hpp"
#include "mechanisms_for_tests.hpp"

using dpcalc::mechanisms::Relation;

namespace {

// Hockey stick Σ (p − e^x q)₊ of a finite pair.
double hockey_stick(const std::vector<double>& p, const std::vector<double>& q, double x) {
  double delta = 0;
  for (std::size_t i = 0; i < p.size(); ++i) delta += std::max(0.0, p[i] - std::exp(x) * q[i]);
  return delta;
}

// sup over the ε-BR two-outcome pairs of their hockey stick at x (Dong, Durfee, Rogers 2020): the
// closed form of bounded_range_reference.py, checked there against a maximisation over the pairs
// (every loss lies in [−ε, ε], so it is 0 above ε and 1 − e^x below −ε).
double bounded_range_envelope(double epsilon, double x) {
  if (x >= epsilon) return 0;
  if (x <= -epsilon) return -std::expm1(x);
  if (x >= 0) return std::pow(std::exp(epsilon / 2) - std::exp(x / 2), 2) / std::expm1(epsilon);
  return 1 - std::exp(x) + std::exp(x) * bounded_range_envelope(epsilon, -x);
}

double composed_epsilon(const dpcalc::mechanisms::MechanismPtr& mechanism, double count, double delta) {
  const auto answer = dpcalc::pld::epsilon_for_delta({{mechanism->pair(Relation::kAddRemove), count}}, delta);
  REQUIRE(answer.ok());
  return answer.value().epsilon_upper;
}

}  // namespace

TEST_CASE("[mechanisms] exponential: its pair dominates every ε-bounded-range pair, tightly") {
  for (double epsilon : {0.01, 0.5, 3.0, 40.0}) {
    const auto pair =
        std::get<dpcalc::pld::FinitePair>(test_mechanisms::exponential(epsilon)->pair(Relation::kAddRemove).base);
    double p_total = 0, q_total = 0;
    for (std::size_t i = 0; i < pair.p.size(); ++i) p_total += pair.p[i], q_total += pair.q[i];
    CHECK_REL(p_total, 1, 1e-12);
    CHECK_REL(q_total, 1, 1e-12);
    // Both directions at or above the envelope (the family is closed under swapping P and Q), and
    // equal to it on the pair's own losses jε/128.
    for (int j = -160; j <= 160; ++j) {
      const double x = epsilon * j / 150.0;
      const double envelope = bounded_range_envelope(epsilon, x);
      CHECK(hockey_stick(pair.p, pair.q, x) >= envelope * (1 - 1e-9) - 1e-15);
      CHECK(hockey_stick(pair.q, pair.p, x) >= envelope * (1 - 1e-9) - 1e-15);
      // The chords' excess over the envelope shrinks with the atoms' spacing ε/128 (measured: below
      // 1e-4 up to ε = 3; 4e-3 at ε = 40, where δ matters only far above ε).
      CHECK(hockey_stick(pair.p, pair.q, x) <= envelope + (epsilon <= 3 ? 1e-4 : 5e-3));
    }
    for (int j = 0; j <= 128; j += 16) {
      const double x = epsilon * j / 128;
      CHECK(hockey_stick(pair.p, pair.q, x) == doctest::Approx(bounded_range_envelope(epsilon, x)).epsilon(1e-9));
    }
  }
}

// Before its masses were divided factor by factor, their denominator overflowed above ε ≈ 236 and
// P lost mass (a group of 3241 selections at ε = 0.138 was refused for a P summing to 0.70).
TEST_CASE("[mechanisms] exponential: the pair's masses sum to 1 up to the engine's largest loss") {
  for (double epsilon : {236.0, 448.0, 700.0}) {
    const auto pair =
        std::get<dpcalc::pld::FinitePair>(test_mechanisms::exponential(epsilon)->pair(Relation::kAddRemove).base);
    double p_total = 0, q_total = 0;
    for (std::size_t i = 0; i < pair.p.size(); ++i) p_total += pair.p[i], q_total += pair.q[i];
    CHECK_REL(p_total, 1, 1e-12);
    CHECK_REL(q_total, 1, 1e-12);
  }
}

TEST_CASE("[mechanisms] exponential: 20 selections at ε = 0.5 by the bounded-range analysis") {
  const auto selection = test_mechanisms::exponential(0.5);
  const double epsilon = composed_epsilon(selection, 20, 1e-5);
  // bounded_range_reference.py: never below the worst case of 20 identical two-outcome 0.5-BR pairs
  // (4.88343327388, maximised over the pair), at or below the zCDP route (ρ = 20 · 0.5²/8 = 0.625,
  // Bun & Steinke Prop 1.3: 5.98991506572) and the generic optimal ε-DP composition (Kairouz, Oh,
  // Viswanath 2015, Thm 3.3: 9.85941102412); within 0.5% of the envelope pair composed by FFT on a
  // 20× finer grid (5.54057260).
  CHECK(epsilon >= 4.88343327388);
  CHECK(epsilon <= 5.98991506572);
  CHECK(epsilon <= 9.85941102412);
  CHECK(epsilon >= 5.54057260 * (1 - 1e-4));
  CHECK(epsilon <= 5.54057260 * 1.005);
  // One selection: the envelope pair's ε at δ = 1e-5 (0.49602920, same script), below ε itself.
  const double one = composed_epsilon(selection, 1, 1e-5);
  CHECK(one >= 0.49602920 * (1 - 1e-4));
  CHECK(one <= 0.5);
  // Monotone in ε and in the number of selections.
  CHECK(composed_epsilon(test_mechanisms::exponential(0.4), 20, 1e-5) < epsilon);
  CHECK(composed_epsilon(selection, 21, 1e-5) > epsilon);
}

TEST_CASE("[mechanisms] exponential: pure ε, zCDP ε²/8, Rényi curve, group kε, domination") {
  const auto selection = test_mechanisms::exponential(0.5);
  CHECK(*selection->pure_epsilon() == 0.5);
  // Cesar, Rogers 2021: ε-BR is ε²/8-zCDP; 0.25/8 = 0.03125 is exact in binary.
  CHECK(selection->zcdp()->rho == 0.03125);
  // Its Rényi curve is the supremum over the ε-BR pairs (mpmath, tests/reference/
  // rdp_mechanisms_reference.py bounded), below αε²/8 = 0.125 at order 4 and below ε at order 100.
  CHECK_REL(*selection->rdp_epsilon(4), 0.11973503213096031, 1e-12);
  CHECK(*selection->rdp_epsilon(4) >= 0.11973503213096031);
  CHECK_REL(*selection->rdp_epsilon(100), 0.45285453226345914, 1e-12);
  CHECK(std::string(selection->rdp_method().method) == dpcalc::rdp::kBoundedRangeRdp.method);
  CHECK_FALSE(selection->gaussian());
  CHECK(selection->supports(Relation::kSubstitute));
  // A group of k is kε-BR; group size 1 is the mechanism itself.
  CHECK(*selection->for_group(1).value()->pure_epsilon() == 0.5);
  CHECK(*selection->for_group(3).value()->pure_epsilon() == 1.5);
  CHECK(selection->for_group(3).value()->zcdp()->rho == 2.25 / 8);
  CHECK(selection->dominates(*test_mechanisms::exponential(0.25)));
  CHECK_FALSE(test_mechanisms::exponential(0.25)->dominates(*selection));
  CHECK_FALSE(selection->dominates(*test_mechanisms::laplace(2)));

  dpcalc::mechanisms::Arguments arguments;
  for (double bad : {0.0, -1.0, HUGE_VAL, std::nan("")}) {
    arguments.numbers = {{"epsilon", bad}};
    const auto refused = dpcalc::mechanisms::create(dpcalc::mechanisms::exponential_type(), arguments);
    REQUIRE_FALSE(refused.ok());
    CHECK(refused.error().field == "epsilon");
  }
}

// nonadaptive_bounded_range_reference.py (Dong, Durfee, Rogers 2020, Sec. 5, in mpmath): δ of k
// 0.5-BR selections fixed in advance at x = 1 (k = 5) and x = 2 (k = 20), and at x = 0.2 (k = 3).
TEST_CASE("[mechanisms] exponential fixed in advance: the pair dominates the non-adaptive optimum, tightly") {
  struct Case {
    double epsilon, count, x, delta;
  };
  for (const Case& c : {Case{0.5, 5, 1.0, 0.0152472178248726}, Case{0.5, 20, 2.0, 0.0410683283479935},
                        Case{0.5, 3, 0.2, 0.111468012262395}}) {
    const auto pair = dpcalc::mechanisms::nonadaptive_bounded_range_pair(c.epsilon, c.count);
    REQUIRE(pair);
    double p_total = 0, q_total = 0;
    for (std::size_t i = 0; i < pair->p.size(); ++i) p_total += pair->p[i], q_total += pair->q[i];
    CHECK_REL(p_total, 1, 1e-12);
    CHECK_REL(q_total, 1, 1e-12);
    const double delta = hockey_stick(pair->p, pair->q, c.x);
    CHECK(delta >= c.delta * (1 - 1e-13));
    // The chords between its atoms (at most 256 a side) sit above the optimum by at most 0.1%.
    CHECK(delta <= c.delta * (1 + 1e-3));
    // Symmetric: the reverse direction at −x is 1 − e^{−x} + e^{−x} δ(x), as for the optimum.
    CHECK_REL(hockey_stick(pair->q, pair->p, -c.x), -std::expm1(-c.x) + std::exp(-c.x) * delta, 1e-12);
  }
  // One selection is the envelope pair itself; beyond the work limit the adaptive pair stands in.
  CHECK_FALSE(dpcalc::mechanisms::nonadaptive_bounded_range_pair(0.5, 1));
  CHECK_FALSE(dpcalc::mechanisms::nonadaptive_bounded_range_pair(0.5, 1000));
}

TEST_CASE("[mechanisms] exponential fixed in advance: 20 selections at ε = 0.5") {
  const auto uses = test_mechanisms::exponential(0.5, false)->composed_uses(Relation::kAddRemove, 20);
  CHECK(uses.times == 1);
  CHECK(uses.analysis.find("Sec. 5") != std::string::npos);
  const auto answer = dpcalc::pld::epsilon_for_delta({{uses.pair, uses.times}}, 1e-5);
  REQUIRE(answer.ok());
  // nonadaptive_bounded_range_reference.py: ε ∈ [4.88343327387, 4.88343327388] at δ = 1e-5; the
  // adaptive analysis gives 5.5405726 (bounded_range_reference.py).
  CHECK(answer.value().epsilon_upper >= 4.88343327387);
  CHECK(answer.value().epsilon_upper <= 4.88343327388 * 1.005);
  // Adaptive by default: count copies of the envelope pair.
  const auto adaptive = test_mechanisms::exponential(0.5)->composed_uses(Relation::kAddRemove, 20);
  CHECK(adaptive.times == 20);
  CHECK(adaptive.analysis.find("adaptively") != std::string::npos);
}

TEST_CASE("[mechanisms] exponential under pld: the lower end is labelled a bound on the dominating pairs") {
  using namespace mechanism_requests;
  const Value selection = object().set("type", "exponential").set("epsilon", 0.5);
  // One selection at δ = 1e-8: the pairs' composition (ε ≈ 0.49999597) is below the cheaper routes.
  const Value single = result_of(dpcalc::api::compute(compose("pld", selection, 1, 1e-8)));
  REQUIRE(single.find("lower_bound_of") != nullptr);
  CHECK(single.find("lower_bound_of")->as_string() == "dominating_pairs");
  CHECK(single.find("note")->as_string().find("dominating pairs") != std::string::npos);
  CHECK(single.find("capped_by") == nullptr);
  // 100 selections at δ = 1e-5: the zCDP route (ρ = 100 · 0.5²/8, Canonne, Kamath, Steinke 2020, Cor 13:
  // 14.130547455510717, bounded_range_reference.py) proves less than the pairs' whole bracket (about
  // 15.55), so it caps the answer, which then claims no lower end.
  const auto zcdp_epsilon = [&](double count) {
    const Value zcdp_response = dpcalc::api::compute(compose("zcdp", selection, count, 1e-5));
    return number_at(result_of(zcdp_response), "approx", "epsilon");
  };
  const double zcdp = zcdp_epsilon(100);
  check_upper_bound(zcdp, 14.130547455510717, 1e-9);
  const Value capped = result_of(dpcalc::api::compute(compose("pld", selection, 100, 1e-5)));
  REQUIRE(capped.find("capped_by") != nullptr);
  CHECK(number_at(capped, "epsilon_upper") <= zcdp);
  CHECK(number_at(capped, "epsilon_lower") == 0);
  CHECK(capped.find("lower_bound_of") == nullptr);
  // 20 selections: 5.3776721041695584 by zCDP (same script).
  check_upper_bound(zcdp_epsilon(20), 5.3776721041695584, 1e-9);
  // Permute-and-flip (the ε-DP pair) too; mechanisms whose pair is attained have no label.
  const Value flip = object().set("type", "permute_and_flip").set("epsilon", 0.5);
  CHECK(result_of(dpcalc::api::compute(compose("pld", flip, 3, 1e-8))).find("lower_bound_of") != nullptr);
  const Value laplace = object().set("type", "laplace").set("scale", 2);
  CHECK(result_of(dpcalc::api::compute(compose("pld", laplace, 3, 1e-5))).find("lower_bound_of") == nullptr);
}
