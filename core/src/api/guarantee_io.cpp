#include "dpcalc/api/guarantee_io.hpp"

#include <algorithm>
#include <cmath>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/checks.hpp"

namespace dpcalc::api {

Result<Guarantee> read_guarantee(const Value& value, const std::string& path) {
  DPCALC_TRY(const Value* object, require_object(value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  if (type == "pure") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(PureDp guarantee, at_path(PureDp::create(epsilon), path));
    return Guarantee{guarantee};
  }
  if (type == "approx") {
    DPCALC_TRY(double epsilon, number_field(*object, path, "epsilon"));
    DPCALC_TRY(double delta, number_field(*object, path, "delta"));
    DPCALC_TRY(ApproxDp guarantee, at_path(ApproxDp::create(epsilon, delta), path));
    return Guarantee{guarantee};
  }
  if (type == "zcdp") {
    DPCALC_TRY(double rho, number_field(*object, path, "rho"));
    DPCALC_TRY(Zcdp guarantee, at_path(Zcdp::create(rho), path));
    return Guarantee{guarantee};
  }
  if (type == "rdp") {
    DPCALC_TRY(std::vector<double> orders, number_array_field(*object, path, "orders"));
    DPCALC_TRY(std::vector<double> epsilons, number_array_field(*object, path, "epsilons"));
    DPCALC_TRY(RdpCurve guarantee, at_path(RdpCurve::create(std::move(orders), std::move(epsilons)), path));
    return Guarantee{std::move(guarantee)};
  }
  return unknown_choice(field_path(path, "type"), type, {"pure", "approx", "zcdp", "rdp"});
}

Result<ApproxDp> read_target(const Value& object, const std::string& at, const char* key) {
  const std::string path = field_path(at, key);
  DPCALC_TRY(const Value* value, member(object, at, key));
  DPCALC_TRY(const Value* target, require_object(*value, path));
  DPCALC_TRY(auto type, optional_string_field(*target, path, "type"));
  if (type && *type != "approx") return unknown_choice(field_path(path, "type"), *type, {"approx"});
  DPCALC_TRY(double epsilon, number_field(*target, path, "epsilon"));
  DPCALC_TRY(double delta, number_field(*target, path, "delta"));
  return at_path(ApproxDp::create(epsilon, delta), path);
}

std::string magnitude_field(const Guarantee& guarantee, const std::string& path) {
  if (std::holds_alternative<Zcdp>(guarantee)) return field_path(path, "rho");
  if (const auto* rdp = std::get_if<RdpCurve>(&guarantee)) {
    const auto largest = std::max_element(rdp->epsilons.begin(), rdp->epsilons.end()) - rdp->epsilons.begin();
    return field_path(path, "epsilons." + std::to_string(largest));
  }
  return field_path(path, "epsilon");
}

Value to_value(const PureDp& guarantee) {
  Value value = Value::object();
  value.set("type", "pure").set("epsilon", guarantee.epsilon);
  return value;
}

Value to_value(const ApproxDp& guarantee) {
  Value value = Value::object();
  value.set("type", "approx").set("epsilon", guarantee.epsilon).set("delta", std::min(guarantee.delta, 1.0));
  return value;
}

Value to_value(const Zcdp& guarantee) {
  Value value = Value::object();
  value.set("type", "zcdp").set("rho", guarantee.rho);
  return value;
}

Value to_value(const RdpCurve& guarantee) {
  Value value = Value::object();
  value.set("type", "rdp")
      .set("orders", renyi_values(guarantee.orders))
      .set("epsilons", renyi_values(guarantee.epsilons));
  return value;
}

Value renyi_value(double value) { return std::isinf(value) ? Value("infinity") : Value(value); }

Value renyi_values(const std::vector<double>& values) {
  Value list = Value::array();
  for (double value : values) list.push(renyi_value(value));
  return list;
}

Value to_value(const Guarantee& guarantee) {
  return std::visit([](const auto& typed) { return to_value(typed); }, guarantee);
}

}  // namespace dpcalc::api
