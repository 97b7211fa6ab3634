#include "dpcalc/api/value.hpp"

namespace dpcalc::api {

Value::Value() = default;
Value::Value(bool b) : kind_(Kind::kBool), number_(b ? 1 : 0) {}
Value::Value(double n) : kind_(Kind::kNumber), number_(n) {}
Value::Value(int n) : kind_(Kind::kNumber), number_(n) {}
Value::Value(std::size_t n) : kind_(Kind::kNumber), number_(double(n)) {}
Value::Value(std::string s) : kind_(Kind::kString), string_(std::move(s)) {}
Value::Value(const char* s) : kind_(Kind::kString), string_(s) {}
Value::Value(Array a) : kind_(Kind::kArray), array_(std::move(a)) {}
Value::Value(const Value& other) = default;
Value::Value(Value&& other) noexcept = default;
Value& Value::operator=(const Value& other) = default;
Value& Value::operator=(Value&& other) noexcept = default;
Value::~Value() = default;

Value Value::object() {
  Value v;
  v.kind_ = Kind::kObject;
  return v;
}

Value Value::array() {
  Value v;
  v.kind_ = Kind::kArray;
  return v;
}

Value Value::numbers(const std::vector<double>& values) {
  Value array = Value::array();
  array.array_.reserve(values.size());
  for (double value : values) array.array_.emplace_back(value);
  return array;
}

const Value* Value::find(const std::string& key) const {
  if (kind_ != Kind::kObject) return nullptr;
  const auto found = index_.find(key);
  return found == index_.end() ? nullptr : &object_[found->second].second;
}

const Value* Value::find(const char* key) const { return find(std::string(key)); }

Value& Value::set(const char* key, Value value) { return set(std::string(key), std::move(value)); }

Value& Value::set(const std::string& key, Value value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  const auto [position, inserted] = index_.emplace(key, object_.size());
  if (!inserted) {
    object_[position->second].second = std::move(value);
    return *this;
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
    case Kind::kNull:
      return "null";
    case Kind::kBool:
      return "a boolean";
    case Kind::kNumber:
      return "a number";
    case Kind::kString:
      return "a string";
    case Kind::kArray:
      return "an array";
    case Kind::kObject:
      return "an object";
  }
  return "unknown";
}

}  // namespace dpcalc::api
