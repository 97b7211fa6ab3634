// The worst allowed footprint (dpcalc/databases/worst_case.hpp) against brute force: every
// footprint of individual databases the constraint allows (every pair, for bounded neighbours) is
// composed with the same method, and the maximum is compared. Reference values: the optimal
// composition of Kairouz, Oh, Viswanath 2015, Thm 3.3 evaluated with mpmath at 50 digits
// (/tmp script kov_eps: bisection on δ_k(ε), 200 steps).
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <vector>

#include "approx.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"
#include "dpcalc/databases/worst_case.hpp"
#include "mechanisms_for_tests.hpp"

namespace {

using namespace dpcalc;
using namespace dpcalc::databases;

DatabaseClass approx_class(double epsilon, double delta, double count, double queries = 1) {
  return DatabaseClass{ApproxDp{epsilon, delta}, count, queries};
}

MethodOptions with(CompositionMethod method, std::optional<double> delta = std::nullopt) {
  MethodOptions options;
  options.method = method;
  options.delta = delta;
  return options;
}

WorstCase worst(const std::vector<DatabaseClass>& classes, const Constraint& constraint, Neighbours neighbours,
                const MethodOptions& options) {
  const auto allowed = allowed_footprints(classes, constraint, neighbours);
  REQUIRE(allowed.ok());
  const auto answer = worst_case(classes, allowed.value(), options);
  if (!answer.ok()) FAIL(answer.error().message);
  return answer.value();
}

// Every footprint of individual databases (bit i = database i, databases numbered class by class).
struct BruteForce {
  std::vector<std::size_t> class_of;  // class of each database
  explicit BruteForce(const std::vector<DatabaseClass>& classes) {
    for (std::size_t c = 0; c < classes.size(); ++c) {
      for (int k = 0; k < classes[c].count; ++k) class_of.push_back(c);
    }
  }
  Footprint footprint(unsigned mask, std::size_t classes) const {
    Footprint f(classes, 0.0);
    for (std::size_t i = 0; i < class_of.size(); ++i) {
      if (mask >> i & 1u) f[class_of[i]] += 1;
    }
    return f;
  }
  // Max over allowed single footprints (unbounded) or unions of two (bounded) of ε and of δ.
  ApproxDp maximum(const std::vector<DatabaseClass>& classes, const std::function<bool(unsigned)>& allowed,
                   bool bounded, const MethodOptions& options) const {
    ApproxDp most{0, 0};
    std::map<Footprint, ApproxDp> composed_once;  // footprints differing by relabelling compose alike
    const unsigned all = 1u << class_of.size();
    for (unsigned a = 0; a < all; ++a) {
      if (!allowed(a)) continue;
      for (unsigned b = 0; b < all; ++b) {
        if (!(bounded ? allowed(b) : b == 0)) continue;
        const Footprint f = footprint(a | b, classes.size());
        if (!composed_once.count(f)) {
          const auto composed = compose_footprint(classes, f, options);
          if (!composed.ok()) FAIL(composed.error().message);
          composed_once[f] = composed.value().approx;
        }
        most.epsilon = std::max(most.epsilon, composed_once[f].epsilon);
        most.delta = std::max(most.delta, composed_once[f].delta);
      }
    }
    return most;
  }
};

int bits(unsigned mask) { return __builtin_popcount(mask); }

}  // namespace

TEST_CASE("[databases] at most m databases: brute force over every footprint, every closed-form method") {
  // Heterogeneous classes: 2 databases (0.3, 1e-7) queried twice, 3 databases (0.5, 0) once,
  // 2 databases (0.1, 1e-6) three times: not ordered, so advanced composition uses the envelope.
  const std::vector<DatabaseClass> classes = {approx_class(0.3, 1e-7, 2, 2), approx_class(0.5, 0, 3, 1),
                                              approx_class(0.1, 1e-6, 2, 3)};
  const BruteForce brute(classes);
  for (double m : {1.0, 2.0, 3.0, 5.0}) {
    for (bool bounded : {false, true}) {
      CAPTURE(m);
      CAPTURE(bounded);
      Constraint constraint{ConstraintType::kAtMost, m, {}};
      const auto allowed = [&](unsigned mask) { return bits(mask) <= m; };
      const Neighbours neighbours = bounded ? Neighbours::kBounded : Neighbours::kUnbounded;
      SUBCASE("basic: ε and δ each the exact maximum") {
        const MethodOptions options = with(CompositionMethod::kBasic);
        const ApproxDp expected = brute.maximum(classes, allowed, bounded, options);
        const WorstCase answer = worst(classes, constraint, neighbours, options);
        CHECK_REL(answer.guarantee.approx.epsilon, expected.epsilon, 1e-14);
        CHECK_REL(answer.guarantee.approx.delta, expected.delta, 1e-14);
      }
      for (auto method : {CompositionMethod::kAdvancedKov, CompositionMethod::kAdvancedDrv, CompositionMethod::kPld}) {
        // Few footprints survive the swap argument here, so each is composed: exact.
        const MethodOptions options = with(method, 1e-4);
        const ApproxDp expected = brute.maximum(classes, allowed, bounded, options);
        const WorstCase answer = worst(classes, constraint, neighbours, options);
        CHECK(answer.exact);
        CHECK_REL(answer.guarantee.approx.epsilon, expected.epsilon, 1e-12);
        CHECK(answer.guarantee.approx.delta <= 1e-4);
      }
    }
  }
}

TEST_CASE("[databases] advanced composition, many unordered footprints: the envelope bounds every one") {
  // 30 databases in each of three unordered classes, at most m: every count vector (k0, k1, k2)
  // with k0 + k1 + k2 <= m is composed (brute force over footprints up to relabelling).
  const std::vector<DatabaseClass> classes = {approx_class(0.3, 1e-7, 30, 2), approx_class(0.5, 0, 30, 1),
                                              approx_class(0.1, 1e-6, 30, 3)};
  for (auto method : {CompositionMethod::kAdvancedKov, CompositionMethod::kAdvancedDrv}) {
    const MethodOptions options = with(method, 1e-3);
    for (double m : {12.0, 20.0}) {
      double most = 0;
      for (int a = 0; a <= m; ++a) {
        for (int b = 0; a + b <= m; ++b) {
          for (int c = 0; a + b + c <= m; ++c) {
            const auto composed = compose_footprint(classes, {double(a), double(b), double(c)}, options);
            REQUIRE(composed.ok());
            most = std::max(most, composed.value().approx.epsilon);
          }
        }
      }
      const WorstCase answer =
          worst(classes, Constraint{ConstraintType::kAtMost, m, {}}, Neighbours::kUnbounded, options);
      CAPTURE(m);
      CHECK_FALSE(answer.exact);
      CHECK(answer.guarantee.approx.epsilon >= most);
      // Measured: 4% to 16% above the worst footprint here (a sound but loose bound: it pays for
      // the most revealing k-th release of every rank at once).
      CHECK(answer.guarantee.approx.epsilon <= 1.2 * most);
    }
  }
}

TEST_CASE("[databases] ordered classes are exact: the m most revealing databases") {
  // Ordered: (0.5, 1e-6) x3 queries dominates (0.2, 1e-7) x2 queries.
  const std::vector<DatabaseClass> classes = {approx_class(0.2, 1e-7, 3, 2), approx_class(0.5, 1e-6, 2, 3)};
  const BruteForce brute(classes);
  for (double m : {1.0, 2.0, 3.0, 4.0}) {
    for (bool bounded : {false, true}) {
      CAPTURE(m);
      const auto allowed = [&](unsigned mask) { return bits(mask) <= m; };
      for (auto method : {CompositionMethod::kAdvancedKov, CompositionMethod::kAdvancedDrv}) {
        const MethodOptions options = with(method, 1e-4);
        const ApproxDp expected = brute.maximum(classes, allowed, bounded, options);
        const WorstCase answer = worst(classes, Constraint{ConstraintType::kAtMost, m, {}},
                                       bounded ? Neighbours::kBounded : Neighbours::kUnbounded, options);
        CHECK(answer.exact);
        CHECK_REL(answer.guarantee.approx.epsilon, expected.epsilon, 1e-12);
      }
    }
  }
  SUBCASE("PLD, Gaussians ordered by Δ/σ and queries") {
    const std::vector<DatabaseClass> gaussians = {DatabaseClass{test_mechanisms::gaussian(3, 1), 3, 2},
                                                  DatabaseClass{test_mechanisms::gaussian(2, 1), 2, 3}};
    const BruteForce gaussian_brute(gaussians);
    for (double m : {1.0, 2.0, 4.0}) {
      const auto allowed = [&](unsigned mask) { return bits(mask) <= m; };
      const MethodOptions options = with(CompositionMethod::kPld, 1e-6);
      const WorstCase answer =
          worst(gaussians, Constraint{ConstraintType::kAtMost, m, {}}, Neighbours::kUnbounded, options);
      CHECK(answer.exact);
      CHECK_REL(answer.guarantee.approx.epsilon, gaussian_brute.maximum(gaussians, allowed, false, options).epsilon,
                1e-12);
    }
  }
}

TEST_CASE("[databases] exactly one: the worst single database, or the worst two (bounded)") {
  const std::vector<DatabaseClass> classes = {approx_class(0.3, 0, 2), approx_class(0.7, 0, 1),
                                              approx_class(0.5, 0, 3)};
  const BruteForce brute(classes);
  const auto allowed = [](unsigned mask) { return bits(mask) == 1; };
  const MethodOptions options = with(CompositionMethod::kBasic);
  const WorstCase unbounded =
      worst(classes, Constraint{ConstraintType::kExactlyOne, 1, {}}, Neighbours::kUnbounded, options);
  CHECK(unbounded.guarantee.approx.epsilon == brute.maximum(classes, allowed, false, options).epsilon);
  CHECK(unbounded.guarantee.approx.epsilon == 0.7);
  const WorstCase bounded =
      worst(classes, Constraint{ConstraintType::kExactlyOne, 1, {}}, Neighbours::kBounded, options);
  CHECK(bounded.guarantee.approx.epsilon == brute.maximum(classes, allowed, true, options).epsilon);
  CHECK_REL(bounded.guarantee.approx.epsilon, 1.2, 1e-15);
}

TEST_CASE("[databases] families: software features as columns (seed, Sec. V-A, example 3)") {
  // Classes: 0 common (4 columns), 1 ads-only (3), 2 premium-only (2); free users are in 0 ∪ 1,
  // paid users in 0 ∪ 2. Each column released once with (0.1, 1e-8).
  const std::vector<DatabaseClass> classes = {approx_class(0.1, 1e-8, 4), approx_class(0.1, 1e-8, 3),
                                              approx_class(0.1, 1e-8, 2)};
  const Constraint columns{ConstraintType::kFamilies, 1, {{0, 1}, {0, 2}}};
  const BruteForce brute(classes);
  // Allowed footprints: exactly the databases of one family (bits 0-3 common, 4-6 ads, 7-8 premium).
  const auto allowed = [](unsigned mask) { return mask == 0x7Fu || mask == 0x18Fu; };
  for (auto method : {CompositionMethod::kBasic, CompositionMethod::kOptimal, CompositionMethod::kPld}) {
    const MethodOptions options =
        with(method, method == CompositionMethod::kBasic ? std::nullopt : std::optional<double>(1e-6));
    for (bool bounded : {false, true}) {
      const WorstCase answer =
          worst(classes, columns, bounded ? Neighbours::kBounded : Neighbours::kUnbounded, options);
      CHECK(answer.exact);
      CHECK_REL(answer.guarantee.approx.epsilon, brute.maximum(classes, allowed, bounded, options).epsilon, 1e-12);
      // Unbounded: common ∪ ads (7 columns); bounded: all 9 columns.
      CHECK(footprint_databases(answer.footprint) == (bounded ? 9 : 7));
    }
  }
}

TEST_CASE("[databases] the hospital example: 1000 hospitals, (0.05, 1e-9) each, at most 365 per person") {
  const std::vector<DatabaseClass> hospitals = {approx_class(0.05, 1e-9, 1000)};
  const Constraint nights{ConstraintType::kAtMost, 365, {}};
  const MethodOptions options = with(CompositionMethod::kOptimal, 1e-5);
  const ApproxDp per_hospital{0.05, 1e-9};
  const WorstCase unbounded = worst(hospitals, nights, Neighbours::kUnbounded, options);
  const WorstCase bounded = worst(hospitals, nights, Neighbours::kBounded, options);
  const WorstCase classic = worst(hospitals, Constraint{}, Neighbours::kUnbounded, options);
  // Unbounded = optimal composition of 365, bounded = of 730, classic = of 1000.
  CHECK(unbounded.guarantee.approx.epsilon == optimal_composition_epsilon(per_hospital, 365, 1e-5).value());
  CHECK(bounded.guarantee.approx.epsilon == optimal_composition_epsilon(per_hospital, 730, 1e-5).value());
  CHECK(classic.guarantee.approx.epsilon == optimal_composition_epsilon(per_hospital, 1000, 1e-5).value());
  // Kairouz, Oh, Viswanath 2015, Thm 3.3 with mpmath (50 digits): 4.1384581547536021,
  // 6.2319778877081557, 7.5334288995699205.
  check_upper_bound(unbounded.guarantee.approx.epsilon, 4.1384581547536021, 1e-9);
  check_upper_bound(bounded.guarantee.approx.epsilon, 6.2319778877081557, 1e-9);
  check_upper_bound(classic.guarantee.approx.epsilon, 7.5334288995699205, 1e-9);
  CHECK(footprint_databases(unbounded.footprint) == 365);
  CHECK(footprint_databases(bounded.footprint) == 730);
}

TEST_CASE("[databases] properties: constrained <= classic, bounded >= unbounded, monotone in m") {
  // Ordered classes (every method, PLD included) and unordered ones (closed forms).
  const std::vector<DatabaseClass> ordered = {approx_class(0.05, 1e-9, 60, 2), approx_class(0.02, 1e-10, 40, 1)};
  const std::vector<DatabaseClass> unordered = {approx_class(0.05, 1e-9, 60, 1), approx_class(0.02, 1e-10, 40, 3)};
  const std::vector<DatabaseClass> pure = {approx_class(0.05, 0, 60, 1), approx_class(0.02, 0, 40, 3)};
  struct Case {
    std::vector<DatabaseClass> classes;
    CompositionMethod method;
  };
  const std::vector<Case> cases = {
      {ordered, CompositionMethod::kBasic},         {ordered, CompositionMethod::kAdvancedKov},
      {ordered, CompositionMethod::kAdvancedDrv},   {ordered, CompositionMethod::kPld},
      {unordered, CompositionMethod::kBasic},       {unordered, CompositionMethod::kAdvancedKov},
      {unordered, CompositionMethod::kAdvancedDrv}, {pure, CompositionMethod::kZcdp}};
  for (const Case& example : cases) {
    CAPTURE(static_cast<int>(example.method));
    const MethodOptions options =
        with(example.method, example.method == CompositionMethod::kBasic ? std::nullopt : std::optional<double>(1e-5));
    const double classic =
        worst(example.classes, Constraint{}, Neighbours::kUnbounded, options).guarantee.approx.epsilon;
    double previous = 0;
    for (double m : {1.0, 10.0, 36.0, 49.0, 50.0, 99.0, 100.0, 500.0}) {
      CAPTURE(m);
      const Constraint constraint{ConstraintType::kAtMost, m, {}};
      const double unbounded =
          worst(example.classes, constraint, Neighbours::kUnbounded, options).guarantee.approx.epsilon;
      const double bounded = worst(example.classes, constraint, Neighbours::kBounded, options).guarantee.approx.epsilon;
      CHECK(unbounded <= classic * (1 + 1e-12));
      CHECK(bounded <= classic * (1 + 1e-12));
      CHECK(bounded >= unbounded);
      CHECK(unbounded >= previous);
      previous = unbounded;
    }
    CHECK_REL(previous, classic, 1e-12);  // m >= the number of databases: no constraint
  }
}

TEST_CASE("[databases] PLD with classes that are not ordered: every unswappable footprint, or unsupported") {
  // A Gaussian and a Laplace class: no domination either way.
  std::vector<DatabaseClass> classes = {DatabaseClass{test_mechanisms::gaussian(2, 1), 2, 1},
                                        DatabaseClass{test_mechanisms::laplace(1.5, 1), 2, 1}};
  const MethodOptions options = with(CompositionMethod::kPld, 1e-6);
  const BruteForce brute(classes);
  const auto allowed = [](unsigned mask) { return bits(mask) <= 2; };
  const WorstCase answer = worst(classes, Constraint{ConstraintType::kAtMost, 2, {}}, Neighbours::kUnbounded, options);
  CHECK_REL(answer.guarantee.approx.epsilon, brute.maximum(classes, allowed, false, options).epsilon, 1e-12);
  // 1000 databases in each class, at most 365: 366 candidate footprints, more than PLD composes.
  classes[0].count = classes[1].count = 1000;
  const auto allowed_many =
      allowed_footprints(classes, Constraint{ConstraintType::kAtMost, 365, {}}, Neighbours::kUnbounded);
  const auto refused = worst_case(classes, allowed_many.value(), options);
  REQUIRE_FALSE(refused.ok());
  CHECK(refused.error().code == kUnsupported);
  CHECK(refused.error().field == "constraint");
}
