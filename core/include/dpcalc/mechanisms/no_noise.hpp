// Noise mechanisms at noise 0 (σ = 0, b = 0): no privacy (core/src/mechanisms/no_noise.cpp).
#pragma once

#include <string>

#include "dpcalc/mechanisms/mechanism.hpp"

namespace dpcalc::mechanisms {

// The mechanism of `type` made from `arguments` whose `noise` parameter is 0: it releases its query
// (of sensitivity `sensitivity`), so its pair is two point masses apart.
MechanismPtr no_noise(const MechanismType& type, const Arguments& arguments, const std::string& noise,
                      double sensitivity);

}  // namespace dpcalc::mechanisms
