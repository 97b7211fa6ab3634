// The exponential mechanism run so that it is ε-DP (scores scaled by ε/(2Δu)). It is then
// ε-bounded-range (Durfee, Rogers 2019, "Practical differentially private top-k selection with
// pay-what-you-get composition", NeurIPS): for every pair of neighbours the privacy loss
// L = log(P/Q) lies in an interval of length ε.
//
// Every ε-BR pair is dominated by a two-outcome pair with losses s and s − ε, s ∈ [0, ε], whose
// outcome at loss s has P-probability (e^ε − e^s)/(e^ε − 1) (Dong, Durfee, Rogers 2020, "Optimal
// differential privacy composition for exponential mechanisms", ICML). Its hockey stick at
// x ∈ [0, ε] is (e^ε − e^s)(1 − e^{x−s})/(e^ε − 1), largest at e^s = e^{(ε+x)/2}, so that the
// supremum over the family is
//     δ_BR(x) = (e^{ε/2} − e^{x/2})² / (e^ε − 1)            for 0 ≤ x ≤ ε,
// and 1 − e^x + e^x δ_BR(−x) below 0 (the family is closed under swapping P and Q: s ↦ ε − s).
// A pair whose hockey-stick curve is at least δ_BR everywhere dominates every ε-BR mechanism, and
// dominating pairs compose adaptively (Zhu, Dong, Wang 2022, Thm 10): that is the pair given to the
// PLD engine, so that exponential mechanisms mix with any other item, chosen adaptively. It is a
// finite pair on the losses jε/m, j = −m..m, whose curve connects the values of δ_BR there linearly
// in e^x: δ_BR is convex in e^x (a supremum of hinge functions of e^x), so the chords lie above it
// and the pair dominates; Q[L > x_i] is the slope of the chord, (2e^{ε/2}/(e^{x_i/2} + e^{x_{i+1}/2})
// − 1)/(e^ε − 1), the same expression on both sides of 0.
//
// When the request says the selections are fixed in advance (`adaptive: false`), the `count` of them
// together have the tighter optimal non-adaptive bound (Dong, Durfee, Rogers 2020, Sec. 5;
// bounded_range_composition.hpp): their pair is the engine's item, once, and composes adaptively
// with every other item as one mechanism.
//
// ε-BR is also ε²/8-zCDP (Cesar, Rogers 2021, "Bounding, concentrating, and truncating: unifying
// privacy loss composition for data analytics", ALT), which the zcdp method uses; the rdp method
// uses the supremum of the Rényi divergence over the ε-BR pairs, below αε²/8 at every order
// (rdp/bounded_range_rdp.hpp), once per selection; a group of k records sees a kε-BR mechanism (the
// loss ranges add up).
#include <cmath>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/bounded_range_composition.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/rdp/bounded_range_rdp.hpp"

namespace dpcalc::mechanisms {
namespace {

// Atoms on each side of 0: the chord pair's composed ε is within 1e-4 relative of the envelope's
// for 20 selections at ε = 0.5 (tests/reference/bounded_range_reference.py), and the engine
// evaluates its masses at every grid point, so more atoms cost time for nothing.
constexpr int kAtomsPerSide = 128;

// The chord pair of δ_BR on the losses x_i = −ε + i h, h = ε/m, i = 0..2m. With a_i = e^{x_i/2} and
// A = e^{ε/2}, Q-mass on x_i is S_{i−1} − S_i with S the chord slopes above (S_{−1} = 1, S_{2m} = 0),
// written without cancellation: 2A · 2 a_i sinh(h/2) / ((a_{i−1} + a_i)(a_i + a_{i+1})(e^ε − 1)) inside,
// A (e^{h/2} − 1)/((a_0 + a_1)(e^ε − 1)) and A (1 − e^{−h/2})/((a_{2m−1} + A)(e^ε − 1)) at the ends.
pld::FinitePair bounded_range_pair(double epsilon) {
  const int m = kAtomsPerSide;
  const double h = epsilon / m;
  const double big_a = std::exp(epsilon / 2);
  const double denominator = std::expm1(epsilon);
  auto a = [&](int i) { return std::exp((-epsilon + i * h) / 2); };
  pld::FinitePair pair;
  pair.p.resize(2 * m + 1);
  pair.q.resize(2 * m + 1);
  for (int i = 0; i <= 2 * m; ++i) {
    double q = 0;
    if (i == 0) {
      q = big_a * std::expm1(h / 2) / (a(0) + a(1)) / denominator;
    } else if (i == 2 * m) {
      q = -big_a * std::expm1(-h / 2) / (a(2 * m - 1) + big_a) / denominator;
    } else {
      // Divided factor by factor: the product of the three factors overflows for ε above about 236.
      q = 4 * big_a * a(i) * std::sinh(h / 2) / (a(i - 1) + a(i)) / (a(i) + a(i + 1)) / denominator;
    }
    pair.q[static_cast<std::size_t>(i)] = q;
    pair.p[static_cast<std::size_t>(i)] = q * std::exp(-epsilon + i * h);
  }
  return pair;
}

class Exponential final : public Mechanism {
 public:
  explicit Exponential(const Arguments& arguments)
      : Mechanism(exponential_type(), arguments),
        epsilon_(arguments.number("epsilon")),
        adaptive_(arguments.flag("adaptive")) {}

  // ε-BR is defined for any neighbouring relation: the bound on the loss range is the mechanism's.
  bool has_pair(Relation) const override { return true; }
  // Beyond ε = 700, e^ε overflows the envelope's masses: the ε-DP pair (also dominating, looser)
  // stands in, and the engine refuses it on this epsilon with its own limit.
  pld::DominatingPair pair_under(Relation) const override {
    if (!(epsilon_ <= pld::kMaxLoss)) return {pld::ApproxDpPair{epsilon_, 0.0}, 1.0};
    return {bounded_range_pair(epsilon_), 1.0};
  }
  // The envelope of every ε-bounded-range pair dominates the exponential mechanism; no inputs are
  // known to attain it (at 100 selections of ε = 0.5 the zCDP route proves less than it).
  bool pair_is_attained() const override { return false; }
  std::string pair_analysis() const override {
    return "Exponential mechanisms are composed adaptively as ε-bounded-range mechanisms, through the pair "
           "that dominates every ε-bounded-range pair (Dong, Durfee, Rogers 2020; Zhu, Dong, Wang 2022, Thm 10); "
           "for many selections method 'zcdp' (ε²/8-zCDP each, Cesar, Rogers 2021) can be smaller.";
  }
  ComposedUses uses_under(Relation relation, double count) const override {
    if (adaptive_) return Mechanism::uses_under(relation, count);
    if (auto together = nonadaptive_bounded_range_pair(epsilon_, count)) {
      return {{std::move(*together), 1.0}, 1, kNonAdaptiveAnalysis};
    }
    return {pair(relation), count, count == 1 ? kNonAdaptiveAnalysis : kNonAdaptiveTooMany};
  }
  std::optional<double> pure_epsilon() const override { return epsilon_; }
  // ε²/8-zCDP (Cesar, Rogers 2021), rounded up.
  std::optional<Zcdp> zcdp() const override { return Zcdp{divide_up(multiply_up(epsilon_, epsilon_), 8)}; }
  std::optional<double> rdp_epsilon(double order) const override { return rdp::bounded_range_rdp(epsilon_, order); }
  MethodInfo rdp_method() const override { return rdp::kBoundedRangeRdp; }
  // The ε-BR family grows with ε, and so does its envelope δ_BR.
  bool dominates(const Mechanism& other) const override {
    return &other.type() == &type() && epsilon_ >= *other.pure_epsilon();
  }
  Result<MechanismPtr> for_group(double group_size) const override {
    Arguments grouped = arguments();
    grouped.numbers["epsilon"] = multiply_up(group_size, epsilon_);
    return create(exponential_type(), std::move(grouped));
  }

 private:
  static constexpr const char* kNonAdaptiveAnalysis =
      "Exponential mechanisms with adaptive: false are composed as selections fixed in advance: each item's "
      "selections by the optimal non-adaptive composition of ε-bounded-range mechanisms (Dong, Durfee, Rogers "
      "2020, Sec. 5), through a pair that dominates it and composes adaptively with the other items (Zhu, Dong, "
      "Wang 2022, Thm 10).";
  static constexpr const char* kNonAdaptiveTooMany =
      "Exponential mechanisms with adaptive: false: this many selections exceed what the calculator evaluates "
      "non-adaptively (about r (k + 1)² ≤ 2^22 steps, r = max(8, ⌈32ε⌉), and kε ≤ 700), so they are composed "
      "adaptively as ε-bounded-range mechanisms (Dong, Durfee, Rogers 2020; Zhu, Dong, Wang 2022, Thm 10), "
      "which holds for selections fixed in advance too.";
  double epsilon_;
  bool adaptive_;
};

Result<MechanismPtr> create_exponential(const Arguments& arguments) {
  DPCALC_CHECK(check_positive(arguments.number("epsilon"), "epsilon"));
  return MechanismPtr{std::make_shared<Exponential>(arguments)};
}

}  // namespace

const MechanismType& exponential_type() {
  static const MechanismType type{
      "exponential",
      "exponential mechanism",
      "a selection by the exponential mechanism with scores scaled by ε/(2Δu): ε-DP and ε-bounded-range, "
      "composed by the bounded-range analysis",
      {Parameter::number("epsilon", "ε > 0 of one selection (ε-bounded-range)"),
       Parameter::boolean("adaptive",
                          "false when the selections are fixed in advance (none depends on another's output): "
                          "the optimal non-adaptive composition then applies",
                          true)},
      {},
      create_exponential,
      {"Exponential mechanism of a group of k: kε-bounded-range", "Durfee, Rogers 2019; Dong, Durfee, Rogers 2020",
       "durfee2019practical dong2020optimal"}};
  return type;
}

}  // namespace dpcalc::mechanisms
