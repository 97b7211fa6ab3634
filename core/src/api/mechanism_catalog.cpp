// The mechanism catalog as JavaScript sees it (schema().mechanisms): each type's request name, the
// title sentences use, its one-line meaning, its parameters and the parameters calibration may
// solve for, in the catalog's order. The page builds its mechanism pickers from this, so that a
// type registered in catalog.hpp appears there with no page code.
#include "dpcalc/api/mechanism_catalog.hpp"

#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::api {
namespace {

const char* kind_name(mechanisms::Parameter::Kind kind) {
  switch (kind) {
    case mechanisms::Parameter::Kind::kNumbers:
      return "numbers";
    case mechanisms::Parameter::Kind::kMechanism:
      return "mechanism";
    case mechanisms::Parameter::Kind::kBoolean:
      return "boolean";
    case mechanisms::Parameter::Kind::kNumber:
      break;
  }
  return "number";
}

Value parameter_value(const mechanisms::Parameter& parameter) {
  Value entry = Value::object();
  entry.set("name", parameter.name).set("meaning", parameter.meaning).set("kind", kind_name(parameter.kind));
  if (parameter.kind == mechanisms::Parameter::Kind::kBoolean) {
    entry.set("default", *parameter.default_value != 0);
  } else if (parameter.default_value) {
    entry.set("default", *parameter.default_value);
  }
  if (parameter.optional) entry.set("optional", true);
  return entry;
}

Value type_value(const mechanisms::MechanismType& type) {
  Value parameters = Value::array();
  for (const mechanisms::Parameter& parameter : type.parameters) parameters.push(parameter_value(parameter));
  Value calibratable = Value::array();
  for (const mechanisms::Calibratable& unknown : type.calibratable) {
    calibratable.push(Value::object()
                          .set("unknown", unknown.unknown)
                          .set("parameter", unknown.parameter)
                          .set("per_sensitivity", unknown.per_sensitivity));
  }
  Value entry = Value::object();
  entry.set("name", type.name).set("title", type.title).set("meaning", type.meaning);
  entry.set("parameters", std::move(parameters)).set("calibratable", std::move(calibratable));
  return entry;
}

}  // namespace

Value mechanism_catalog_value() {
  Value types = Value::array();
  for (const mechanisms::MechanismType* type : mechanisms::mechanism_types()) types.push(type_value(*type));
  return types;
}

}  // namespace dpcalc::api
