// The permute-and-flip mechanism (McKenna & Sheldon 2020, "Permute-and-Flip: A new mechanism for
// differentially private selection"): candidates in random order, each accepted with probability
// e^{ε(u_r − u*)/(2Δu)}, the first accepted released. It is ε-DP (ibid., Thm 1), and a group of k
// records changes the scores by at most kΔu, which is permute-and-flip at kε.
//
// Its pair is the ε-DP randomized-response pair, which dominates every ε-DP mechanism (Kairouz, Oh,
// Viswanath 2015, Thm 2.1), under either relation (Δu the score sensitivity for the relation at
// hand). dp_accounting uses the Laplace pair of parameter 1/ε instead, stating that the privacy loss
// distribution of permute-and-flip is the Laplace mechanism's; we found no proof of that, and the
// exact two-candidate instance has a different loss distribution, so the calculator keeps the pair
// that is sound by definition of ε-DP. Its Rényi curve is that pair's (rdp/renyi_terms.hpp), for the
// same reason; dp_accounting's RDP accountant uses the Laplace curve (Mironov 2017, Prop 6), which is
// lower.
#include <memory>

#include "dpcalc/checks.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/mechanisms/catalog.hpp"
#include "dpcalc/rdp/renyi_terms.hpp"

namespace dpcalc::mechanisms {
namespace {

class PermuteAndFlip final : public Mechanism {
 public:
  explicit PermuteAndFlip(const Arguments& arguments)
      : Mechanism(permute_and_flip_type(), arguments), epsilon_(arguments.number("epsilon")) {}

  bool has_pair(Relation) const override { return true; }
  pld::DominatingPair pair_under(Relation) const override { return {pld::ApproxDpPair{epsilon_, 0.0}, 1.0}; }
  // The ε-DP pair dominates it; no inputs are known to attain it.
  bool pair_is_attained() const override { return false; }
  std::optional<double> pure_epsilon() const override { return epsilon_; }
  std::optional<double> rdp_epsilon(double order) const override { return rdp::pure_dp_renyi(epsilon_, order); }
  MethodInfo rdp_method() const override { return rdp::kPureDpRdp; }

  Result<MechanismPtr> for_group(double group_size) const override {
    Arguments grouped = arguments();
    grouped.numbers["epsilon"] = multiply_up(group_size, epsilon_);
    return create(permute_and_flip_type(), std::move(grouped));
  }

 private:
  double epsilon_;
};

Result<MechanismPtr> create_permute_and_flip(const Arguments& arguments) {
  DPCALC_TRY(const double epsilon, check_positive(arguments.number("epsilon"), "epsilon"));
  if (!(epsilon < 700)) {
    return invalid_argument("epsilon",
                            "ε must be below 700 " + got(epsilon) +
                                ": beyond it e^ε no longer fits a double, and the selection is not private.");
  }
  return MechanismPtr{std::make_shared<PermuteAndFlip>(arguments)};
}

}  // namespace

const MechanismType& permute_and_flip_type() {
  static const MechanismType type{
      "permute_and_flip",
      "permute-and-flip mechanism",
      "private selection by permute-and-flip, its scores scaled by ε/(2Δu): ε-DP",
      {Parameter::number("epsilon", "ε > 0 (below 700)")},
      {},
      create_permute_and_flip,
      {"Permute-and-flip at kε (scores move by kΔu)", "McKenna & Sheldon 2020, Thm 1", "mckenna2020permute"}};
  return type;
}

}  // namespace dpcalc::mechanisms
