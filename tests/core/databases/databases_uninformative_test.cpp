// The uninformative-prior adversary (dpcalc/databases/uninformative.hpp) against exact enumeration:
// n randomized-response releases (the dominating pair of (ε, δ)-DP, Kairouz, Oh, Viswanath 2015,
// Thm 2.1; four outcomes each), every membership vector b in {0,1}^n and every output, give P_0,
// P_1 (uniform over b != 0) and P_u (uniform over all b) exactly, hence the hypothesis-DP δ(ε) in
// both directions and the exact ε(δ) by bisection. Closed-form references: Corollary 7 of Hartmann, Bindschaedler, West
// 2022, ln(((1 + e^{ε0})^n − 1)/(2^n − 1)), evaluated with mpmath at 50 digits.
#include <cmath>
#include <vector>

#include "approx.hpp"
#include "dpcalc/databases/uninformative.hpp"

namespace {

using namespace dpcalc;
using namespace dpcalc::databases;

struct RandomizedResponse {
  double epsilon, delta;
  // Output probabilities with and without the record (Kairouz, Oh, Viswanath 2015, Thm 2.1).
  std::vector<double> with() const {
    const double e = std::exp(epsilon);
    return {delta, (1 - delta) * e / (1 + e), (1 - delta) / (1 + e), 0};
  }
  std::vector<double> without() const {
    const double e = std::exp(epsilon);
    return {0, (1 - delta) / (1 + e), (1 - delta) * e / (1 + e), delta};
  }
};

// The output distributions of H0 (b = 0), H1 (uniform over b != 0) and of every database
// subsampled at 1/2 (uniform over all b).
struct Hypotheses {
  std::vector<double> none, some, subsampled;
  explicit Hypotheses(const std::vector<RandomizedResponse>& releases) {
    const std::size_t n = releases.size();
    std::size_t outputs = 1;
    for (std::size_t i = 0; i < n; ++i) outputs *= 4;
    none.assign(outputs, 0);
    some.assign(outputs, 0);
    subsampled.assign(outputs, 0);
    for (std::size_t o = 0; o < outputs; ++o) {
      for (unsigned b = 0; b < (1u << n); ++b) {
        double p = 1;
        std::size_t rest = o;
        for (std::size_t i = 0; i < n; ++i, rest /= 4) {
          p *= ((b >> i & 1u) ? releases[i].with() : releases[i].without())[rest % 4];
        }
        if (b == 0)
          none[o] = p;
        else
          some[o] += p / ((1u << n) - 1);
        subsampled[o] += p / (1u << n);
      }
    }
  }
};

double hockey_stick(const std::vector<double>& p, const std::vector<double>& q, double epsilon) {
  double total = 0;
  for (std::size_t o = 0; o < p.size(); ++o) total += std::max(0.0, p[o] - std::exp(epsilon) * q[o]);
  return total;
}

double exact_delta(const Hypotheses& h, double epsilon) {
  return std::max(hockey_stick(h.some, h.none, epsilon), hockey_stick(h.none, h.some, epsilon));
}

double exact_epsilon(const Hypotheses& h, double delta) {
  double low = 0, high = 50;
  for (int i = 0; i < 200; ++i) {
    const double middle = 0.5 * (low + high);
    (exact_delta(h, middle) <= delta ? high : low) = middle;
  }
  return high;
}

std::vector<DatabaseClass> classes_of(const std::vector<RandomizedResponse>& releases) {
  std::vector<DatabaseClass> classes;
  for (const RandomizedResponse& release : releases) {
    classes.push_back(DatabaseClass{ApproxDp{release.epsilon, release.delta}, 1, 1});
  }
  return classes;
}

MethodOptions with(CompositionMethod method, std::optional<double> delta = std::nullopt) {
  MethodOptions options;
  options.method = method;
  options.delta = delta;
  return options;
}

Uninformative uninformed(const std::vector<DatabaseClass>& classes, const MethodOptions& options) {
  const auto worst = compose_footprint(classes, all_databases(classes), options);
  REQUIRE(worst.ok());
  const auto answer = uninformative(classes, worst.value(), options);
  if (!answer.ok()) FAIL(answer.error().message);
  return answer.value();
}

const std::vector<std::vector<RandomizedResponse>> kExamples = {
    {{1, 0}, {1, 0}},
    {{0.5, 0}, {0.5, 0}, {0.5, 0}},
    {{1, 0}, {0.2, 0}, {2, 0}},
    {{0.3, 1e-3}, {0.7, 1e-4}, {0.1, 0}},
    {{0.2, 1e-3}, {0.2, 1e-3}, {0.2, 1e-3}, {0.2, 1e-3}},
};

}  // namespace

TEST_CASE("[databases] the transfer through subsampling at 1/2 is exact in both directions") {
  for (const auto& releases : kExamples) {
    const Hypotheses h(releases);
    const double n = releases.size();
    for (double epsilon : {0.0, 0.1, 0.5, 1.0, 2.0}) {
      // e^{ε1} = (1 + (2^n − 1) e^ε)/2^n, and ε = first_direction_epsilon(ε1).
      const double epsilon1 = std::log((1 + (std::exp2(n) - 1) * std::exp(epsilon)) / std::exp2(n));
      CHECK(std::fabs(first_direction_epsilon(epsilon1, n) - epsilon) <= 1e-12 * std::max(epsilon, 1e-3));
      const double forward = hockey_stick(h.some, h.none, epsilon);
      const double forward_subsampled =
          std::exp2(n) / (std::exp2(n) - 1) * hockey_stick(h.subsampled, h.none, epsilon1);
      if (forward > 1e-15) CHECK_REL(forward, forward_subsampled, 1e-10);
      // e^{ε2} = 2^n e^ε/(2^n − 1 + e^ε).
      const double epsilon2 = std::log(std::exp2(n) * std::exp(epsilon) / (std::exp2(n) - 1 + std::exp(epsilon)));
      CHECK(std::fabs(second_direction_epsilon(epsilon2, n) - epsilon) <= 1e-12 * std::max(epsilon, 1e-3));
      const double backward = hockey_stick(h.none, h.some, epsilon);
      const double backward_subsampled =
          (std::exp2(n) - 1 + std::exp(epsilon)) / (std::exp2(n) - 1) * hockey_stick(h.none, h.subsampled, epsilon2);
      if (backward > 1e-15) CHECK_REL(backward, backward_subsampled, 1e-10);
      CHECK_REL(second_direction_delta_factor(epsilon2, n), (std::exp2(n) - 1 + std::exp(epsilon)) / (std::exp2(n) - 1),
                1e-12);
    }
  }
}

TEST_CASE("[databases] uninformative prior, pure releases, basic: Corollary 7 is exact for randomized response") {
  for (const auto& releases : kExamples) {
    if (releases[0].delta > 0) continue;
    const Hypotheses h(releases);
    const Uninformative answer = uninformed(classes_of(releases), with(CompositionMethod::kBasic));
    CHECK(answer.guarantee.pure);
    check_upper_bound(answer.guarantee.approx.epsilon, exact_epsilon(h, 0), 1e-12);
  }
}

TEST_CASE("[databases] uninformative prior, every route is sound against enumeration and below the worst case") {
  for (const auto& releases : kExamples) {
    const Hypotheses h(releases);
    const auto classes = classes_of(releases);
    for (auto method : {CompositionMethod::kBasic, CompositionMethod::kAdvancedKov, CompositionMethod::kAdvancedDrv,
                        CompositionMethod::kPld}) {
      CAPTURE(static_cast<int>(method));
      const MethodOptions options =
          with(method, method == CompositionMethod::kBasic ? std::nullopt : std::optional<double>(1e-2));
      const Uninformative answer = uninformed(classes, options);
      const ApproxDp guarantee = answer.guarantee.approx;
      // Sound: the exact hypothesis-DP δ at the reported ε is within the reported δ.
      CHECK(exact_delta(h, guarantee.epsilon) <= guarantee.delta * (1 + 1e-12) + 1e-15);
      const auto worst = compose_footprint(classes, all_databases(classes), options);
      CHECK(guarantee.epsilon <= worst.value().approx.epsilon);
      if (method == CompositionMethod::kPld && !answer.capped) {
        // Tight: the PLD brackets the exact ε (up to its discretisation).
        const double exact = exact_epsilon(h, 1e-2);
        CHECK(answer.guarantee.bracket->epsilon_lower <= exact * (1 + 1e-9));
        CHECK(guarantee.epsilon >= exact * (1 - 1e-9));
        CHECK(guarantee.epsilon <= exact * 1.01 + 1e-3);
      }
    }
  }
}

TEST_CASE("[databases] uninformative prior against n pure ε0 releases (seed, Cor. 7; mpmath 50 digits)") {
  struct Row {
    double epsilon, databases, expected;
  };
  // ln(((1 + e^{ε0})^n − 1)/(2^n − 1)) with mpmath.
  const Row rows[] = {{0.05, 1000, 25.312467453340985}, {1, 2, 1.4528324252639414},
                      {0.1, 10, 0.51288670334236878},   {1e-3, 1e6, 500.12499999479167},
                      {0.5, 3, 0.92100522219770684},    {1e-6, 50, 2.5000006250000022e-5}};
  for (const Row& row : rows) {
    CAPTURE(row.databases);
    const std::vector<DatabaseClass> classes = {DatabaseClass{ApproxDp{row.epsilon, 0}, row.databases, 1}};
    const Uninformative basic = uninformed(classes, with(CompositionMethod::kBasic));
    check_upper_bound(basic.guarantee.approx.epsilon, row.expected, 1e-11);
    for (auto method : {CompositionMethod::kOptimal, CompositionMethod::kAdvancedKov, CompositionMethod::kZcdp}) {
      const Uninformative other = uninformed(classes, with(method, 1e-6));
      CHECK(other.guarantee.approx.epsilon <= basic.guarantee.approx.epsilon);
    }
    if (row.databases <= 1000) {
      const Uninformative pld = uninformed(classes, with(CompositionMethod::kPld, 1e-6));
      CHECK(pld.guarantee.approx.epsilon <= basic.guarantee.approx.epsilon);
    }
  }
  // The factor tends to 2 as ε0 → 0: n ε0 / ε = 1.9999995 at n = 50, ε0 = 1e-6 (mpmath).
  const std::vector<DatabaseClass> tiny = {DatabaseClass{ApproxDp{1e-6, 0}, 50, 1}};
  CHECK_REL(50 * 1e-6 / uninformed(tiny, with(CompositionMethod::kBasic)).guarantee.approx.epsilon, 1.9999995, 1e-9);
}

TEST_CASE("[databases] uninformative prior with a million databases, every closed-form method") {
  const std::vector<DatabaseClass> classes = {DatabaseClass{ApproxDp{1e-3, 1e-12}, 1e6, 1}};
  for (auto method : {CompositionMethod::kBasic, CompositionMethod::kAdvancedKov, CompositionMethod::kAdvancedDrv,
                      CompositionMethod::kOptimal}) {
    CAPTURE(static_cast<int>(method));
    const MethodOptions options =
        with(method, method == CompositionMethod::kBasic ? std::nullopt : std::optional<double>(1e-5));
    const auto worst = compose_footprint(classes, all_databases(classes), options);
    REQUIRE(worst.ok());
    const Uninformative answer = uninformed(classes, options);
    CHECK_FALSE(answer.capped);
    CHECK(std::isfinite(answer.guarantee.approx.epsilon));
    // About half the worst case (amplification by 1/2 at small ε).
    CHECK(answer.guarantee.approx.epsilon < 0.6 * worst.value().approx.epsilon);
    CHECK(answer.guarantee.approx.epsilon > 0.4 * worst.value().approx.epsilon);
  }
}

TEST_CASE("[databases] uninformative prior, optimal composition needs the same queries on every database") {
  const std::vector<DatabaseClass> classes = {DatabaseClass{ApproxDp{0.1, 0}, 10, 1},
                                              DatabaseClass{ApproxDp{0.1, 0}, 10, 3}};
  const MethodOptions options = with(CompositionMethod::kOptimal, 1e-6);
  const auto worst = compose_footprint(classes, all_databases(classes), options);
  REQUIRE(worst.ok());
  const auto answer = uninformative(classes, worst.value(), options);
  REQUIRE_FALSE(answer.ok());
  CHECK(answer.error().code == kUnsupported);
  CHECK(answer.error().item == 1);
  CHECK(answer.error().field == "queries");
}
