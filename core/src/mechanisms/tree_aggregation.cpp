// One epoch of DP-FTRL's tree aggregation (Kairouz, McMahan, Song, Thakkar, Thakurta, Xu 2021,
// "Practical and Private (Deep) Learning without Sampling or Shuffling", Sec 4 and App D): the
// prefix sums of `steps` gradients, each record in one step, through a binary tree whose nodes each
// get Gaussian noise of standard deviation σ = noise_multiplier · Δ. A record is in one leaf and so
// in ⌈log₂(steps + 1)⌉ nodes: the released node sums are a Gaussian mechanism on a vector query of
// ℓ2 sensitivity √⌈log₂(steps + 1)⌉ · Δ, so one epoch is exactly μ-GDP with
// μ = √⌈log₂(steps + 1)⌉ / noise_multiplier (Dong, Roth, Su 2019), the tree's prefix sums being its
// post-processing. `count` epochs (a restart each) compose as Gaussians. Under add/remove (as
// dp_accounting, whose replace-with-special relation is the same); a group of k records sees kΔ.
#include <cmath>
#include <limits>
#include <memory>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::mechanisms {
namespace {

// ⌈log₂(steps + 1)⌉, the nodes on a leaf's path in a tree of `steps` leaves (steps ≤ 2^53): the
// least d with 2^d ≥ steps + 1, i.e. 2^d > steps for whole numbers. Compared with `steps` itself,
// since steps + 1 rounds back to steps in double at 2^53 (which would give 53 levels, not 54).
double tree_depth(double steps) {
  int depth = 0;
  while (std::ldexp(1.0, depth) <= steps) ++depth;
  return depth;
}

class TreeAggregation final : public Mechanism {
 public:
  explicit TreeAggregation(const Arguments& arguments)
      : Mechanism(tree_aggregation_type(), arguments),
        noise_multiplier_(arguments.number("noise_multiplier")),
        steps_(arguments.number("steps")),
        sensitivity_(arguments.number("sensitivity")) {}

  pld::DominatingPair pair_under(Relation) const override {
    const GaussianNoise noise = *gaussian();
    return {pld::GaussianPair{noise.sigma, noise.sensitivity}, 1.0};
  }
  // σ = noise_multiplier · Δ on the sensitivity √depth · Δ (the square root rounded up).
  std::optional<GaussianNoise> gaussian() const override {
    const double root_depth = std::nextafter(std::sqrt(tree_depth(steps_)), std::numeric_limits<double>::infinity());
    return GaussianNoise{noise_multiplier_ * sensitivity_, multiply_up(root_depth, sensitivity_)};
  }
  double sensitivity() const override { return sensitivity_; }

  // kΔ with σ unchanged: the noise multiplier relative to kΔ is noise_multiplier / k (rounded down).
  Result<MechanismPtr> for_group(double group_size) const override {
    Arguments grouped = arguments();
    grouped.numbers["sensitivity"] = multiply_up(group_size, sensitivity_);
    const double multiplier = noise_multiplier_ / group_size;
    grouped.numbers["noise_multiplier"] =
        std::fma(multiplier, group_size, -noise_multiplier_) > 0 ? std::nextafter(multiplier, 0.0) : multiplier;
    return create(tree_aggregation_type(), std::move(grouped));
  }

 private:
  double noise_multiplier_, steps_, sensitivity_;
};

Result<MechanismPtr> create_tree_aggregation(const Arguments& arguments) {
  DPCALC_TRY(const double sensitivity, check_positive(arguments.number("sensitivity"), "sensitivity"));
  DPCALC_CHECK(check_count(arguments.number("steps"), "steps"));
  DPCALC_TRY(const double multiplier, check_noise(arguments.number("noise_multiplier"), 1.0, "noise_multiplier"));
  if (!std::isfinite(multiplier * sensitivity) || !(multiplier * sensitivity > 0)) {
    return invalid_argument(
        "noise_multiplier",
        "The noise multiplier × the sensitivity (the noise σ of each node) must be a positive finite "
        "number " +
            got(multiplier * sensitivity) + ".");
  }
  return MechanismPtr{std::make_shared<TreeAggregation>(arguments)};
}

}  // namespace

const MechanismType& tree_aggregation_type() {
  static const MechanismType type{
      "tree_aggregation",
      "tree aggregation (DP-FTRL)",
      "one epoch of DP-FTRL: Gaussian noise σ = noise_multiplier·Δ on each tree node, each record in one of the "
      "steps: exactly μ-GDP with μ = √⌈log₂(steps + 1)⌉ / noise_multiplier",
      {Parameter::number("noise_multiplier", "σ/Δ of each node's Gaussian noise, > 0"),
       Parameter::number("steps", "the steps of one epoch, a whole number from 1 to 2^53"),
       Parameter::number("sensitivity", "ℓ2 sensitivity Δ of one step (the clipping norm) > 0", 1.0)},
      {{"noise_multiplier", "noise_multiplier", false}},
      create_tree_aggregation,
      {"Tree aggregation at sensitivity kΔ (a Gaussian mechanism)",
       "Kairouz, McMahan, Song, Thakkar, Thakurta, Xu 2021, App D; Dong, Roth, Su 2019",
       "kairouz2021practical dong2019gaussian"}};
  return type;
}

}  // namespace dpcalc::mechanisms
