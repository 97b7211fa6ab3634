#include "dpcalc/api/fields.hpp"

namespace dpcalc::api {
namespace {

Error wrong_kind(const std::string& field, const char* expected, const Value& got) {
  return invalid_argument(field, field + " must be " + expected + " (got " + got.kind_name() + ").");
}

// A member that is absent or null counts as missing.
const Value* present(const Value& object, const std::string& key) {
  const Value* value = object.find(key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

}  // namespace

Result<const Value*> require_object(const Value& value, const std::string& path) {
  if (!value.is_object()) return wrong_kind(path.empty() ? "request" : path, "an object", value);
  return &value;
}

Result<const Value*> member(const Value& object, const std::string& prefix, const std::string& key) {
  const Value* value = present(object, key);
  const std::string field = field_path(prefix, key);
  if (value == nullptr) return invalid_argument(field, field + " is required.");
  return value;
}

Result<double> number_field(const Value& object, const std::string& prefix, const std::string& key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  if (!value->is_number()) return wrong_kind(field_path(prefix, key), "a number", *value);
  return value->as_number();
}

Result<std::optional<double>> optional_number_field(const Value& object, const std::string& prefix,
                                                    const std::string& key) {
  const Value* value = present(object, key);
  if (value == nullptr) return std::optional<double>{};
  if (!value->is_number()) return wrong_kind(field_path(prefix, key), "a number", *value);
  return std::optional<double>{value->as_number()};
}

Result<std::string> string_field(const Value& object, const std::string& prefix, const std::string& key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  if (!value->is_string()) return wrong_kind(field_path(prefix, key), "a string", *value);
  return value->as_string();
}

Result<std::optional<std::string>> optional_string_field(const Value& object, const std::string& prefix,
                                                         const std::string& key) {
  const Value* value = present(object, key);
  if (value == nullptr) return std::optional<std::string>{};
  if (!value->is_string()) return wrong_kind(field_path(prefix, key), "a string", *value);
  return std::optional<std::string>{value->as_string()};
}

Result<std::vector<double>> number_array_field(const Value& object, const std::string& prefix,
                                               const std::string& key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  const std::string field = field_path(prefix, key);
  if (!value->is_array()) return wrong_kind(field, "an array of numbers", *value);
  std::vector<double> numbers;
  numbers.reserve(value->as_array().size());
  for (std::size_t i = 0; i < value->as_array().size(); ++i) {
    const Value& item = value->as_array()[i];
    if (!item.is_number()) return wrong_kind(field + "." + std::to_string(i), "a number", item);
    numbers.push_back(item.as_number());
  }
  return numbers;
}

Error unknown_choice(const std::string& field, const std::string& got, const std::vector<std::string>& allowed) {
  std::string list;
  for (std::size_t i = 0; i < allowed.size(); ++i) list += (i ? ", '" : "'") + allowed[i] + "'";
  return invalid_argument(field, field + " must be one of " + list + " (got '" + got + "').");
}

}  // namespace dpcalc::api
