// Every mechanism type the calculator knows (mechanism.hpp). Registering one is one line: its name
// in DPCALC_MECHANISM_TYPES below (the name of its file in core/src/mechanisms/, which defines
// `const MechanismType& <name>_type()`). The request reader, the request schema and the docs take
// the types from mechanism_types(), in this order.
#pragma once

#include <string>
#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"

#define DPCALC_MECHANISM_TYPES(X) \
  X(laplace)                      \
  X(gaussian)                     \
  X(poisson_subsampled)           \
  X(gaussian_mixture)             \
  X(randomized_response)          \
  X(discrete_laplace)             \
  X(discrete_gaussian)            \
  X(permute_and_flip)             \
  X(tree_aggregation)             \
  X(exponential)                  \
  X(sampled_without_replacement)

namespace dpcalc::mechanisms {

// One accessor per type, for code that makes a mechanism directly: create(gaussian_type(), arguments).
#define DPCALC_DECLARE_MECHANISM_TYPE(name) const MechanismType& name##_type();
DPCALC_MECHANISM_TYPES(DPCALC_DECLARE_MECHANISM_TYPE)
#undef DPCALC_DECLARE_MECHANISM_TYPE

// In the order the docs list them.
const std::vector<const MechanismType*>& mechanism_types();

// Their names, in the same order.
std::vector<std::string> mechanism_type_names();
// Every name `unknown` can take in a calibration, once each, in the order of the types.
std::vector<std::string> calibration_unknowns();
// The type called `name`, or nullptr.
const MechanismType* find_mechanism_type(const std::string& name);

}  // namespace dpcalc::mechanisms
