// A mechanism run on a subsample of the data: an inner mechanism, and the rate at which one record is
// in the subsample. Every sampling wrapper (Poisson subsampling, sampling without replacement, the
// batch samplers of DP-SGD) derives from it, so that what a wrapper inherits from the mechanism inside
// is written once:
//   * its dominating pair, the inner pair with the record kept at `rate`: (rate P + (1 − rate) Q, Q)
//     and the swapped pair (Zhu, Dong, Wang 2022, Thm 11), which the PLD engine forms from the inner
//     pair and the product of the nested rates;
//   * pure ε-DP inside gives ln(1 + rate (e^ε − 1))-DP (Balle, Barthe, Gaboardi 2018);
//   * the analysis its pair rests on, the sensitivity, the noise calibration may solve for and the
//     mechanism with other noise are the inner mechanism's.
// A wrapper adds what depends on how it samples: the relations it supports, its group transform,
// its Rényi DP curve, and the parameter that sets its rate (which errors about the rate name).
#pragma once

#include <string>
#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"
#include "dpcalc/mechanisms/sampling.hpp"

namespace dpcalc::mechanisms {

class Subsampled : public Mechanism {
 public:
  // `draw` as the type's factory checked the parameters it comes from; the inner mechanism is the
  // argument `mechanism`; `rate_parameter` is the parameter that sets the rate.
  Subsampled(const MechanismType& type, const Arguments& arguments, const SampleDraw& draw, std::string rate_parameter);

  const SampleDraw& draw() const { return draw_; }
  // The probability that a record is in the subsample (sampling.hpp: inclusion_rate).
  double rate() const { return rate_; }
  const Mechanism& inner() const { return *inner_; }
  const MechanismPtr& inner_mechanism() const { return inner_; }

  // The inner pair under `relation` (one supports() accepts), at sampling rate × rate.
  pld::DominatingPair pair_under(Relation relation) const override;
  std::optional<double> pure_epsilon() const override;
  std::string pair_analysis() const override { return inner_->pair_analysis(); }
  // Every record in the sample (rate 1) of a mechanism that reveals its input.
  bool reveals_input() const override { return rate_ == 1 && inner_->reveals_input(); }
  // The inner mechanism's (its parameter named below "mechanism"); none at rate 0.
  std::pair<std::string, std::string> unbounded_loss() const override {
    if (rate_ == 0) return {};
    auto reason = inner_->unbounded_loss();
    if (!reason.first.empty()) reason.second = "mechanism." + reason.second;
    return reason;
  }
  bool pair_is_attained() const override { return inner_->pair_is_attained(); }
  double sensitivity() const override { return inner_->sensitivity(); }
  std::vector<Calibratable> calibratable() const override { return inner_->calibratable(); }
  // The same wrapper around the inner mechanism with `unknown` set to `value`.
  Result<MechanismPtr> with_noise(const std::string& unknown, double value) const override;
  std::string sampling_rate_parameter() const override { return rate_parameter_; }

 private:
  SampleDraw draw_;
  double rate_;
  MechanismPtr inner_;
  std::string rate_parameter_;
};

}  // namespace dpcalc::mechanisms
