#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::mechanisms {

const std::vector<const MechanismType*>& mechanism_types() {
#define DPCALC_LIST_MECHANISM_TYPE(name) &name##_type(),
  static const std::vector<const MechanismType*> types = {DPCALC_MECHANISM_TYPES(DPCALC_LIST_MECHANISM_TYPE)};
#undef DPCALC_LIST_MECHANISM_TYPE
  return types;
}

const MechanismType* find_mechanism_type(const std::string& name) {
  for (const MechanismType* type : mechanism_types()) {
    if (type->name == name) return type;
  }
  return nullptr;
}

}  // namespace dpcalc::mechanisms
