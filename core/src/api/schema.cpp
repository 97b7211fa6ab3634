#include "dpcalc/api/schema.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "dpcalc/api/fields.hpp"

namespace dpcalc::api {
namespace {

// Lower case without '_' and '-': "samplingRate", "Sampling_Rate" and "sampling-rate" all read
// "samplingrate", so a name written in another case convention is recognised at once.
std::string folded(const std::string& name) {
  std::string result;
  for (char c : name) {
    if (c != '_' && c != '-') result += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return result;
}

// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
// adjacent characters each cost 1 (Damerau 1964), so "sensitivty" is 1 from "sensitivity".
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitution = d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1);
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, substitution});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.size()][b.size()];
}

// Typos grow with the length of the word: one edit in a short name, up to three in a long one.
std::size_t allowed_edits(const std::string& name) { return name.size() <= 4 ? 1 : name.size() <= 8 ? 2 : 3; }

std::vector<std::string> names_of(const std::vector<const Field*>& fields) {
  std::vector<std::string> names;
  for (const Field* field : fields) names.push_back(field->name);
  return names;
}

std::string joined(const std::vector<std::string>& names, const std::string& last_separator) {
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? last_separator : ", ";
    text += names[i];
  }
  return text;
}

std::string capitalized(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  return text;
}

const Field* field_named(const std::vector<const Field*>& fields, const std::string& name) {
  for (const Field* field : fields) {
    if (field->name == name) return field;
  }
  return nullptr;
}

// The variants (other than `chosen`) that take a field called `name`.
std::vector<std::string> variants_taking(const Shape& shape, const Variant* chosen, const std::string& name) {
  std::vector<std::string> titles;
  for (const Variant& variant : shape.variants) {
    if (&variant == chosen) continue;
    for (const Field& field : variant.fields) {
      if (field.name == name) titles.push_back(variant.title);
    }
  }
  return titles;
}

Error not_accepted(const Shape& shape, const Variant* variant, const std::vector<const Field*>& accepted,
                   const std::string& key, const std::string& field) {
  const std::string title = variant ? variant->title : shape.title;
  const std::string takes = " " + capitalized(title) + " takes " + joined(names_of(accepted), " and ") + ".";
  const std::vector<std::string> elsewhere = variants_taking(shape, variant, key);
  if (!elsewhere.empty()) {
    return invalid_argument(field, field + " does not apply to " + title + " (it is a field of " +
                                       joined(elsewhere, " or ") + ")." + takes);
  }
  std::string suggestion = closest_name(key, names_of(accepted));
  if (suggestion.empty()) {
    std::vector<std::string> all;
    for (const Variant& other : shape.variants) {
      for (const Field& other_field : other.fields) all.push_back(other_field.name);
    }
    suggestion = closest_name(key, all);
  }
  return invalid_argument(field, field + " is not a field of " + title +
                                     (suggestion.empty() ? "." : ": did you mean '" + suggestion + "'?") + takes);
}

Value field_value(const Field& field) {
  Value value = Value::object();
  value.set("name", field.name).set("type", field.type).set("presence", field.presence);
  value.set("meaning", field.meaning);
  if (field.shape != nullptr) value.set("shape", field.shape->name);
  if (field.list) value.set("list", true);
  if (field.number_or_object) value.set("number_or_object", true);
  if (!field.requests.empty()) {
    Value requests = Value::array();
    for (const Shape* request : field.requests) requests.push(request->name);
    value.set("requests", std::move(requests));
  }
  return value;
}

Value fields_value(const std::vector<Field>& fields) {
  Value array = Value::array();
  for (const Field& field : fields) array.push(field_value(field));
  return array;
}

// The shape a request field's value is checked against: the op its 'op' names, the field's own
// shape when it names none, or nullptr when it names an op the field does not take (or is not a
// string): the reader says so.
const Shape* request_shape(const Field& field, const Value& member) {
  const Value* op = member.find("op");
  if (op == nullptr || op->is_null()) return field.shape;
  if (!op->is_string()) return nullptr;
  for (const Shape* request : field.requests) {
    if (request->name == op->as_string()) return request;
  }
  return nullptr;
}

}  // namespace

namespace {

// "'a' | 'b'" -> {"a", "b"}; empty unless every alternative is quoted.
std::vector<std::string> quoted_alternatives(const std::string& type) {
  std::vector<std::string> values;
  std::size_t at = 0;
  while (at < type.size()) {
    if (type[at] != '\'') return {};
    const std::size_t end = type.find('\'', at + 1);
    if (end == std::string::npos) return {};
    values.push_back(type.substr(at + 1, end - at - 1));
    at = end + 1;
    if (at == type.size()) break;
    if (type.compare(at, 3, " | ") != 0) return {};
    at += 3;
  }
  return values;
}

// The value of "default <text>": a number, 'a quoted string', true or false; null when the text is
// none of these (a default stated in words, which the reader applies).
Value default_of(const std::string& text) {
  if (text == "true" || text == "false") return Value(text == "true");
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'' && text.find('\'', 1) == text.size() - 1) {
    return Value(text.substr(1, text.size() - 2));
  }
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (!text.empty() && end == text.c_str() + text.size()) return Value(number);
  return Value();
}

void read_presence(Field& field) {
  field.choices = quoted_alternatives(field.type);
  const std::string& presence = field.presence;
  if (presence == "required") {
    field.presence_kind = Presence::kRequired;
  } else if (presence == "optional") {
    field.presence_kind = Presence::kOptional;
  } else if (presence.rfind("default ", 0) == 0 && !default_of(presence.substr(8)).is_null()) {
    field.presence_kind = Presence::kDefault;
    field.fallback = default_of(presence.substr(8));
  } else {
    field.presence_kind = Presence::kConditional;
  }
}

}  // namespace

Field::Field() = default;
Field::Field(std::string field_name, std::string field_type, std::string field_presence, std::string field_meaning,
             const Shape* field_shape)
    : name(std::move(field_name)),
      type(std::move(field_type)),
      presence(std::move(field_presence)),
      meaning(std::move(field_meaning)),
      shape(field_shape) {
  read_presence(*this);
}
Field::Field(const Field& other) = default;
Field::Field(Field&& other) noexcept = default;
Field& Field::operator=(const Field& other) = default;
Field& Field::operator=(Field&& other) noexcept = default;
Field::~Field() = default;

Variant::Variant() = default;
Variant::Variant(std::string variant_value, std::string variant_title, std::string variant_meaning,
                 std::vector<Field> variant_fields)
    : value(std::move(variant_value)),
      title(std::move(variant_title)),
      meaning(std::move(variant_meaning)),
      fields(std::move(variant_fields)) {}
Variant::Variant(const Variant& other) = default;
Variant::Variant(Variant&& other) noexcept = default;
Variant& Variant::operator=(const Variant& other) = default;
Variant& Variant::operator=(Variant&& other) noexcept = default;
Variant::~Variant() = default;

Shape::Shape() = default;
Shape::Shape(std::string shape_name, std::string shape_title, std::vector<Field> shape_fields,
             std::string shape_discriminator, std::vector<Variant> shape_variants)
    : name(std::move(shape_name)),
      title(std::move(shape_title)),
      fields(std::move(shape_fields)),
      discriminator(std::move(shape_discriminator)),
      variants(std::move(shape_variants)) {}
Shape::Shape(const Shape& other) = default;
Shape::Shape(Shape&& other) noexcept = default;
Shape& Shape::operator=(const Shape& other) = default;
Shape& Shape::operator=(Shape&& other) noexcept = default;
Shape::~Shape() = default;

const Variant* Shape::variant(const std::string& value) const {
  for (const Variant& candidate : variants) {
    if (candidate.value == value) return &candidate;
  }
  return nullptr;
}

const Field* Shape::field(const std::string& field_name) const {
  for (const Field& candidate : fields) {
    if (candidate.name == field_name) return &candidate;
  }
  for (const Variant& candidate : variants) {
    for (const Field& variant_field : candidate.fields) {
      if (variant_field.name == field_name) return &variant_field;
    }
  }
  return nullptr;
}

std::string closest_name(const std::string& name, const std::vector<std::string>& names) {
  std::string best;
  std::size_t best_distance = allowed_edits(name) + 1;
  for (const std::string& candidate : names) {
    if (folded(candidate) == folded(name)) return candidate;
    const std::size_t distance = edit_distance(name, candidate);
    if (distance < best_distance) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

Result<bool> check_fields(const Value& value, const std::string& path, const Shape& shape) {
  if (!value.is_object()) return true;  // the reader says what kind it must be
  const Variant* variant = nullptr;
  std::vector<const Field*> accepted;
  for (const Field& field : shape.fields) accepted.push_back(&field);
  if (!shape.discriminator.empty()) {
    const Value* chosen = value.find(shape.discriminator);
    if (chosen != nullptr && chosen->is_string()) variant = shape.variant(chosen->as_string());
    // Without a known variant every variant's fields pass: the reader reports the discriminator.
    for (const Variant& candidate : shape.variants) {
      if (variant != nullptr && &candidate != variant) continue;
      for (const Field& field : candidate.fields) {
        if (field_named(accepted, field.name) == nullptr) accepted.push_back(&field);
      }
    }
  }
  for (const auto& [key, member] : value.as_object()) {
    const std::string member_path = field_path(path, key);
    const Field* field = field_named(accepted, key);
    if (field == nullptr) {
      if (member.is_null() && !variants_taking(shape, variant, key).empty()) continue;
      return not_accepted(shape, variant, accepted, key, member_path);
    }
    if (!field->requests.empty()) {
      if (const Shape* request = request_shape(*field, member)) {
        DPCALC_CHECK(check_fields(member, member_path, *request));
      }
      continue;
    }
    if (field->shape == nullptr) continue;
    if (field->list && member.is_array()) {
      for (std::size_t i = 0; i < member.as_array().size(); ++i) {
        DPCALC_CHECK(check_fields(member.as_array()[i], field_path(member_path, std::to_string(i)), *field->shape));
      }
    } else if (!field->list) {
      DPCALC_CHECK(check_fields(member, member_path, *field->shape));
    }
  }
  return true;
}

Value shapes_value(const std::vector<const Shape*>& shapes) {
  Value result = Value::object();
  for (const Shape* shape : shapes) {
    Value value = Value::object();
    value.set("title", shape->title).set("fields", fields_value(shape->fields));
    if (!shape->discriminator.empty()) {
      value.set("discriminator", shape->discriminator);
      Value variants = Value::array();
      for (const Variant& variant : shape->variants) {
        Value entry = Value::object();
        entry.set("value", variant.value).set("title", variant.title).set("meaning", variant.meaning);
        entry.set("fields", fields_value(variant.fields));
        variants.push(std::move(entry));
      }
      value.set("variants", std::move(variants));
    }
    result.set(shape->name, std::move(value));
  }
  return result;
}

}  // namespace dpcalc::api
