#include "dpcalc/api/value.hpp"

namespace dpcalc::api {

Value Value::numbers(const std::vector<double>& values) {
  Value array = Value::array();
  array.array_.reserve(values.size());
  for (double value : values) array.array_.emplace_back(value);
  return array;
}

const Value* Value::find(const std::string& key) const {
  if (kind_ != Kind::kObject) return nullptr;
  for (const auto& [name, value] : object_) {
    if (name == key) return &value;
  }
  return nullptr;
}

Value& Value::set(const std::string& key, Value value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  for (auto& [name, existing] : object_) {
    if (name == key) {
      existing = std::move(value);
      return *this;
    }
  }
  object_.emplace_back(key, std::move(value));
  return *this;
}

Value& Value::push(Value value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kArray;
  array_.push_back(std::move(value));
  return *this;
}

const char* Value::kind_name() const {
  switch (kind_) {
    case Kind::kNull: return "null";
    case Kind::kBool: return "a boolean";
    case Kind::kNumber: return "a number";
    case Kind::kString: return "a string";
    case Kind::kArray: return "an array";
    case Kind::kObject: return "an object";
  }
  return "unknown";
}

}  // namespace dpcalc::api
