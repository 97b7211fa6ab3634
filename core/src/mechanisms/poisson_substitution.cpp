#include "dpcalc/mechanisms/poisson_substitution.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/floating_point.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/pld/privacy_loss.hpp"
#include "dpcalc/pld/profile_pair.hpp"
#include "dpcalc/pld/pure_bound.hpp"

namespace dpcalc::mechanisms {
namespace {

// Points of the profile bound on [0, ε′_top] (pld::pair_from_profile takes up to 199).
constexpr int kSubstitutionProfilePoints = 160;

constexpr const char* kSubstitutionAnalysis =
    "Poisson subsampling under substitution: a pair dominating the privacy profile bound of advanced joint "
    "convexity (Balle, Barthe, Gaboardi 2018, Thm 2) over the inner mechanism's add/remove pair and its group of "
    "two; no known inputs attain it.";

// Both directions of a pair, for their larger δ(ε).
struct SubstitutionSides {
  std::vector<pld::PrivacyLossPair> directions;
};

std::optional<SubstitutionSides> substitution_sides(const pld::DominatingPair& pair) {
  SubstitutionSides sides;
  for (pld::Direction direction : {pld::Direction::kRemove, pld::Direction::kAdd}) {
    Result<pld::PrivacyLossPair> made = pld::PrivacyLossPair::create(pair, direction);
    if (!made.ok()) return std::nullopt;
    sides.directions.push_back(std::move(made).value());
  }
  return sides;
}

// δ(ε) = P[L > ε] − e^ε Q[L > ε] + P[L = ∞] (with the pruned mass, at infinite loss), the larger of
// both directions, rounded up: each mass within a few u of its own size (privacy_loss.hpp), so
// 8u of P[L > ε] + e^ε Q[L > ε] covers them and the difference.
double substitution_delta(const SubstitutionSides& sides, double epsilon) {
  double largest = 0;
  for (const pld::PrivacyLossPair& side : sides.directions) {
    const pld::LossMasses above = side.masses(epsilon);
    const double weighted_q = std::exp(epsilon) * above.q_above;
    const double delta = std::max(0.0, above.p_above - weighted_q) + side.infinite_loss_mass() + side.pruned_mass() +
                         8 * kUnitRoundoff * (above.p_above + weighted_q + side.infinite_loss_mass());
    largest = std::max(largest, delta);
  }
  return std::min(1.0, largest);
}

double largest_finite_loss(const SubstitutionSides& sides) {
  double largest = 0;
  for (const pld::PrivacyLossPair& side : sides.directions) largest = std::max(largest, side.max_finite_loss());
  return largest;
}

class PoissonSubstitution final : public Mechanism {
 public:
  PoissonSubstitution(MechanismPtr sampled, pld::FinitePair pair, std::optional<double> pure)
      : Mechanism(sampled->type(), sampled->arguments()),
        sampled_(std::move(sampled)),
        pair_(std::move(pair)),
        pure_(pure) {}

  std::optional<double> pure_epsilon() const override { return pure_; }
  bool pair_is_attained() const override { return false; }
  std::string pair_analysis() const override { return kSubstitutionAnalysis; }
  double sensitivity() const override { return sampled_->sensitivity(); }
  std::vector<Calibratable> calibratable() const override { return sampled_->calibratable(); }
  std::string sampling_rate_parameter() const override { return sampled_->sampling_rate_parameter(); }
  Result<MechanismPtr> with_noise(const std::string& unknown, double value) const override {
    DPCALC_TRY(MechanismPtr noisy, sampled_->with_noise(unknown, value));
    std::optional<MechanismPtr> adapted = poisson_substitution(noisy);
    if (!adapted) return not_supported(*this, "has no substitution pair with this noise inside");
    return *adapted;
  }

 protected:
  bool has_pair(Relation relation) const override { return relation == Relation::kSubstitute; }
  pld::DominatingPair pair_under(Relation) const override { return pld::DominatingPair{pair_, 1.0}; }

 private:
  MechanismPtr sampled_;
  pld::FinitePair pair_;
  std::optional<double> pure_;
};

}  // namespace

std::optional<MechanismPtr> poisson_substitution(const MechanismPtr& mechanism) {
  if (mechanism->type().name != poisson_subsampled_type().name) return std::nullopt;
  if (mechanism->supports(Relation::kSubstitute) || !mechanism->supports(Relation::kAddRemove)) return std::nullopt;
  // The innermost mechanism and the product of the nested rates (each the type's own parameters:
  // a Poisson draw keeps a record with probability `rate`).
  const Mechanism* inner = mechanism.get();
  double rate = 1;
  while (inner->type().name == poisson_subsampled_type().name) {
    const Arguments& arguments = inner->arguments();
    const auto rate_argument = arguments.numbers.find("rate");
    const auto inner_argument = arguments.mechanisms.find("mechanism");
    if (rate_argument == arguments.numbers.end() || inner_argument == arguments.mechanisms.end()) return std::nullopt;
    rate *= rate_argument->second;
    inner = inner_argument->second.get();
  }
  if (!inner->supports(Relation::kAddRemove)) return std::nullopt;
  Result<MechanismPtr> group = inner->for_group(2);
  if (!group.ok() || !group.value()->supports(Relation::kAddRemove)) return std::nullopt;
  const std::optional<SubstitutionSides> add_remove = substitution_sides(inner->pair(Relation::kAddRemove));
  const std::optional<SubstitutionSides> two_steps = substitution_sides(group.value()->pair(Relation::kAddRemove));
  if (!add_remove || !two_steps) return std::nullopt;
  const double top_loss = std::max(largest_finite_loss(*add_remove), largest_finite_loss(*two_steps));
  if (!(top_loss < kMaxExpArgument)) return std::nullopt;
  // ε′ on [0, ln(1 + q (e^{top} − 1))]; ε from e^ε = 1 + (e^{ε′} − 1)/q, β = e^{ε′ − ε}.
  const double top = std::log1p(rate * std::expm1(top_loss));
  std::vector<ApproxDp> points;
  for (int i = 0; i < kSubstitutionProfilePoints; ++i) {
    const double outer = top * static_cast<double>(i) / (kSubstitutionProfilePoints - 1);
    const double inner_epsilon = std::log1p(std::expm1(outer) / rate);
    const double beta = std::exp(outer - inner_epsilon);
    const double delta = rate * ((1 - beta) * substitution_delta(*add_remove, inner_epsilon) +
                                 beta * substitution_delta(*two_steps, inner_epsilon));
    points.push_back(ApproxDp{outer, std::min(1.0, delta * (1 + 8 * kUnitRoundoff))});
  }
  // Pure where both pairs are: at ε_S (≥ ε_A) both δ vanish.
  std::optional<double> pure;
  const std::optional<ApproxDp> pure_inner = pld::pure_bound(group.value()->pair(Relation::kAddRemove));
  const std::optional<ApproxDp> pure_one = pld::pure_bound(inner->pair(Relation::kAddRemove));
  if (pure_inner && pure_one && pure_inner->delta == 0 && pure_one->delta == 0) {
    pure = amplified_epsilon(std::max(pure_inner->epsilon, pure_one->epsilon), rate);
  }
  return MechanismPtr{std::make_shared<PoissonSubstitution>(mechanism, pld::pair_from_profile(points), pure)};
}

}  // namespace dpcalc::mechanisms
