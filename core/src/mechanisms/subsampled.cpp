#include "dpcalc/mechanisms/subsampled.hpp"

#include <utility>

namespace dpcalc::mechanisms {

Subsampled::Subsampled(const MechanismType& type, const Arguments& arguments, const SampleDraw& draw,
                       std::string rate_parameter)
    : Mechanism(type, arguments),
      draw_(draw),
      rate_(inclusion_rate(draw)),
      inner_(arguments.mechanisms.at("mechanism")),
      rate_parameter_(std::move(rate_parameter)) {}

pld::DominatingPair Subsampled::pair_under(Relation relation) const {
  pld::DominatingPair pair = inner_->pair(relation);
  pair.sampling_rate *= rate_;
  return pair;
}

std::optional<double> Subsampled::pure_epsilon() const {
  if (rate_ == 0) return 0.0;  // no record is ever in the subsample: the output says nothing of it
  const auto inner = inner_->pure_epsilon();
  if (!inner) return std::nullopt;
  return amplified_epsilon(*inner, rate_);
}

Result<MechanismPtr> Subsampled::with_noise(const std::string& unknown, double value) const {
  DPCALC_TRY(MechanismPtr inner, inner_->with_noise(unknown, value));
  Arguments changed = arguments();
  changed.mechanisms["mechanism"] = std::move(inner);
  return create(type(), std::move(changed));
}

}  // namespace dpcalc::mechanisms
