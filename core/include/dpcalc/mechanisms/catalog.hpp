// Every mechanism type the calculator knows (mechanism.hpp), listed once in catalog.cpp: the
// request reader, the request schema and the docs take them from here.
#pragma once

#include <string>
#include <vector>

#include "dpcalc/mechanisms/mechanism.hpp"

namespace dpcalc::mechanisms {

// In the order the docs list them.
const std::vector<const MechanismType*>& mechanism_types();

// The type called `name`, or nullptr.
const MechanismType* find_mechanism_type(const std::string& name);

// Each type, for code that makes a mechanism directly: create(gaussian_type(), arguments).
const MechanismType& laplace_type();
const MechanismType& gaussian_type();
const MechanismType& poisson_subsampled_type();
const MechanismType& gaussian_mixture_type();

}  // namespace dpcalc::mechanisms
