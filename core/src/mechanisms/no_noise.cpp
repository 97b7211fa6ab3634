// A noise mechanism with its noise set to 0 (a Gaussian with σ = 0, a Laplace mechanism with b = 0, …):
// it releases the query itself, so neighbouring inputs whose answers differ give outputs no test
// confuses. Its pair is two point masses apart, (1_{Δ}, 1_{0}): the privacy loss is +∞ with probability
// 1, δ(ε) = 1 at every ε (no guarantee; as dp_accounting's noise_multiplier 0, whose ε is infinite),
// and every Rényi divergence of order ≥ 1 is infinite. Run on a Poisson subsample at rate q it reveals
// the record with probability q: the subsampled pair then has mass q at loss +∞.
#include "dpcalc/mechanisms/no_noise.hpp"

#include <memory>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::mechanisms {
namespace {

class NoNoise final : public Mechanism {
 public:
  NoNoise(const MechanismType& type, const Arguments& arguments, std::string noise, double sensitivity)
      : Mechanism(type, arguments), noise_(std::move(noise)), sensitivity_(sensitivity) {}

  bool has_pair(Relation) const override { return true; }
  pld::DominatingPair pair_under(Relation) const override {
    pld::FinitePair pair;
    pair.p = {1.0, 0.0};
    pair.q = {0.0, 1.0};
    return {std::move(pair), 1.0};
  }
  std::optional<Zcdp> zcdp() const override { return std::nullopt; }
  std::optional<double> rdp_epsilon(double) const override { return kInfinity; }
  std::pair<std::string, std::string> unbounded_loss() const override {
    return {"The " + type().title + " with " + describe_name(noise_) +
                " = 0 adds no noise: it releases the query itself, so no (ε, δ) with δ < 1, zCDP or Rényi DP bound "
                "holds; method 'pld' answers it (δ = 1, vacuous).",
            noise_};
  }
  bool reveals_input() const override { return true; }
  double sensitivity() const override { return sensitivity_; }
  Result<MechanismPtr> for_group(double) const override {
    return create(type(), arguments());  // a group sees the query too
  }

 private:
  std::string noise_;
  double sensitivity_;
};

}  // namespace

MechanismPtr no_noise(const MechanismType& type, const Arguments& arguments, const std::string& noise,
                      double sensitivity) {
  return std::make_shared<NoNoise>(type, arguments, noise, sensitivity);
}

}  // namespace dpcalc::mechanisms
