#include "dpcalc/mechanisms/catalog.hpp"

#include <algorithm>

namespace dpcalc::mechanisms {

const std::vector<const MechanismType*>& mechanism_types() {
#define DPCALC_LIST_MECHANISM_TYPE(name) &name##_type(),
  static const std::vector<const MechanismType*> types = {DPCALC_MECHANISM_TYPES(DPCALC_LIST_MECHANISM_TYPE)};
#undef DPCALC_LIST_MECHANISM_TYPE
  return types;
}

std::vector<std::string> mechanism_type_names() {
  std::vector<std::string> names;
  for (const MechanismType* type : mechanism_types()) names.push_back(type->name);
  return names;
}

std::vector<std::string> calibration_unknowns() {
  std::vector<std::string> unknowns;
  for (const MechanismType* type : mechanism_types()) {
    for (const Calibratable& calibratable : type->calibratable) {
      if (std::find(unknowns.begin(), unknowns.end(), calibratable.unknown) == unknowns.end()) {
        unknowns.push_back(calibratable.unknown);
      }
    }
  }
  return unknowns;
}

const MechanismType* find_mechanism_type(const std::string& name) {
  for (const MechanismType* type : mechanism_types()) {
    if (type->name == name) return type;
  }
  return nullptr;
}

}  // namespace dpcalc::mechanisms
