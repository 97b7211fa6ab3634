#include "dpcalc/api/fields.hpp"

#include <cmath>

#include "dpcalc/checks.hpp"

namespace dpcalc::api {
namespace {

Error wrong_kind(const std::string& field, const char* expected, const Value& got) {
  return invalid_argument(field, describe_name(field) + " must be " + expected + " (got " + got.kind_name() + ").");
}

// JSON has no −0 worth keeping: every number read from a request is +0 when it is zero, so that no
// result echoes a −0 (ε = −0 is 0).
double without_negative_zero(double value) { return value == 0 ? 0.0 : value; }

// Echoes of request strings in messages are cut to this many bytes (a request is not a place to
// print arbitrary text), and end on a whole UTF-8 character.
constexpr std::size_t kMaxEcho = 40;

std::string echo(const std::string& text) {
  if (text.size() <= kMaxEcho) return "'" + text + "'";
  std::size_t end = kMaxEcho;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return "'" + text.substr(0, end) + "…'";
}

// A member that is absent or null counts as missing.
const Value* present(const Value& object, const char* key) {
  const Value* value = object.find(key);
  return value == nullptr || value->is_null() ? nullptr : value;
}

// True when every number in `value` is finite.
bool all_finite(const Value& value) {
  if (value.is_number()) return std::isfinite(value.as_number());
  // Results hold long arrays of numbers (plot series): their items are checked here, not by a call each.
  for (const Value& item : value.as_array()) {
    if (item.is_number() ? !std::isfinite(item.as_number()) : !all_finite(item)) return false;
  }
  for (const auto& member : value.as_object()) {
    if (!all_finite(member.second)) return false;
  }
  return true;
}

}  // namespace

std::string field_path(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

bool has_field(const Value& object, const char* key) { return present(object, key) != nullptr; }

Error does_not_apply(const std::string& field, const std::string& because) {
  return invalid_argument(field, field + " does not apply here: " + because + ". Leave it out.");
}

Result<const Value*> require_object(const Value& value, const std::string& path) {
  if (!value.is_object()) return wrong_kind(path, "an object", value);
  return &value;
}

Error required_field(const std::string& prefix, const char* key) {
  const std::string field = field_path(prefix, key);
  const std::string name = describe_name(field);
  return invalid_argument(field,
                          name == field ? field + " is required." : name + " is required (field " + field + ").");
}

Result<const Value*> member(const Value& object, const std::string& prefix, const char* key) {
  const Value* value = present(object, key);
  if (value == nullptr) return required_field(prefix, key);
  return value;
}

Result<double> number_field(const Value& object, const std::string& prefix, const char* key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  if (!value->is_number()) return wrong_kind(field_path(prefix, key), "a number", *value);
  return without_negative_zero(value->as_number());
}

Result<std::optional<double>> optional_number_field(const Value& object, const std::string& prefix, const char* key) {
  const Value* value = present(object, key);
  if (value == nullptr) return std::optional<double>{};
  if (!value->is_number()) return wrong_kind(field_path(prefix, key), "a number", *value);
  return std::optional<double>{without_negative_zero(value->as_number())};
}

Result<std::string> string_field(const Value& object, const std::string& prefix, const char* key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  if (!value->is_string()) return wrong_kind(field_path(prefix, key), "a string", *value);
  return value->as_string();
}

Result<bool> boolean_field(const Value& object, const std::string& prefix, const char* key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  if (!value->is_bool()) return wrong_kind(field_path(prefix, key), "true or false", *value);
  return value->as_bool();
}

Result<std::optional<std::string>> optional_string_field(const Value& object, const std::string& prefix,
                                                         const char* key) {
  const Value* value = present(object, key);
  if (value == nullptr) return std::optional<std::string>{};
  if (!value->is_string()) return wrong_kind(field_path(prefix, key), "a string", *value);
  return std::optional<std::string>{value->as_string()};
}

Result<std::vector<double>> number_array_field(const Value& object, const std::string& prefix, const char* key) {
  DPCALC_TRY(const Value* value, member(object, prefix, key));
  if (!value->is_array()) return wrong_kind(field_path(prefix, key), "an array of numbers", *value);
  std::vector<double> numbers;
  numbers.reserve(value->as_array().size());
  for (std::size_t i = 0; i < value->as_array().size(); ++i) {
    const Value& item = value->as_array()[i];
    if (!item.is_number()) return wrong_kind(field_path(prefix, key) + "." + std::to_string(i), "a number", item);
    numbers.push_back(without_negative_zero(item.as_number()));
  }
  return numbers;
}

Result<double> read_number(const Value& object, const std::string& prefix, const Field& field) {
  if (!has_field(object, field.name.c_str()) && field.fallback.is_number()) return field.fallback.as_number();
  return number_field(object, prefix, field.name.c_str());
}

Result<std::optional<double>> read_optional_number(const Value& object, const std::string& prefix, const Field& field) {
  if (!has_field(object, field.name.c_str()) && field.fallback.is_number()) {
    return std::optional<double>{field.fallback.as_number()};
  }
  return optional_number_field(object, prefix, field.name.c_str());
}

Result<std::vector<double>> read_numbers(const Value& object, const std::string& prefix, const Field& field) {
  return number_array_field(object, prefix, field.name.c_str());
}

Result<std::optional<std::string>> read_optional_choice(const Value& object, const std::string& prefix,
                                                        const Field& field) {
  std::optional<std::string> value;
  if (has_field(object, field.name.c_str())) {
    DPCALC_TRY(value, string_field(object, prefix, field.name.c_str()));
  } else if (field.fallback.is_string()) {
    value = field.fallback.as_string();
  }
  if (!value || field.choices.empty()) return value;
  for (const std::string& choice : field.choices) {
    if (*value == choice) return value;
  }
  return unknown_choice(field_path(prefix, field.name), *value, field.choices);
}

Result<std::string> read_choice(const Value& object, const std::string& prefix, const Field& field) {
  DPCALC_TRY(std::optional<std::string> value, read_optional_choice(object, prefix, field));
  if (value) return *value;
  return required_field(prefix, field.name.c_str());
}

Result<bool> read_boolean(const Value& object, const std::string& prefix, const Field& field) {
  if (!has_field(object, field.name.c_str()) && field.fallback.is_bool()) return field.fallback.as_bool();
  return boolean_field(object, prefix, field.name.c_str());
}

std::optional<std::string> first_non_finite(const Value& value, const std::string& path) {
  // Paths are made only on the way to a non-finite number: results hold hundreds of members.
  if (all_finite(value)) return std::nullopt;
  if (value.is_number()) return path;
  for (std::size_t i = 0; i < value.as_array().size(); ++i) {
    const Value& item = value.as_array()[i];
    if (!all_finite(item)) return first_non_finite(item, field_path(path, std::to_string(i)));
  }
  for (const auto& [key, member_value] : value.as_object()) {
    if (!all_finite(member_value)) return first_non_finite(member_value, field_path(path, key));
  }
  return std::nullopt;
}

Error overflow(const std::string& field) {
  const std::string name = field.substr(field.rfind('.') == std::string::npos ? 0 : field.rfind('.') + 1);
  const bool is_noise = name == "sigma" || name == "scale";
  return invalid_argument(field, describe_name(field) + (is_noise ? " is too small" : " is too large") +
                                     " for this computation: the result would exceed the largest number a "
                                     "double can hold (about 1.8e308), so it would promise nothing. Use a " +
                                     (is_noise ? "larger" : "smaller") + " value.");
}

Result<Value> finite_or_overflow(Value result, const std::string& field) {
  if (!first_non_finite(result)) return result;
  return overflow(field);
}

Error unknown_choice(const std::string& field, const std::string& got, const std::vector<std::string>& allowed) {
  std::string list;
  for (std::size_t i = 0; i < allowed.size(); ++i) list += (i ? ", '" : "'") + allowed[i] + "'";
  const std::string suggestion = closest_name(got, allowed);
  return invalid_argument(field, describe_name(field) + " must be one of " + list + " (got " + echo(got) + ")" +
                                     (suggestion.empty() ? "." : ": did you mean '" + suggestion + "'?"));
}

}  // namespace dpcalc::api
