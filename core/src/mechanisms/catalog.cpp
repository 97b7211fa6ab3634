#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::mechanisms {

const std::vector<const MechanismType*>& mechanism_types() {
  static const std::vector<const MechanismType*> types = {
      &laplace_type(),
      &gaussian_type(),
      &poisson_subsampled_type(),
      &gaussian_mixture_type(),
  };
  return types;
}

const MechanismType* find_mechanism_type(const std::string& name) {
  for (const MechanismType* type : mechanism_types()) {
    if (type->name == name) return type;
  }
  return nullptr;
}

}  // namespace dpcalc::mechanisms
