// A plain tree of request/result data (null, bool, number, string, array, object). The wasm layer
// converts JavaScript objects to and from it; the api layer reads requests out of it with the
// dotted field path of every value, so validation errors name the exact request field.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace dpcalc::api {

class Value {
 public:
  enum class Kind { kNull, kBool, kNumber, kString, kArray, kObject };
  using Array = std::vector<Value>;
  using Object = std::vector<std::pair<std::string, Value>>;  // keeps insertion order

  Value() = default;                                                     // null
  Value(bool b) : kind_(Kind::kBool), number_(b ? 1 : 0) {}              // NOLINT
  Value(double n) : kind_(Kind::kNumber), number_(n) {}                  // NOLINT
  Value(int n) : kind_(Kind::kNumber), number_(n) {}                     // NOLINT
  Value(std::size_t n) : kind_(Kind::kNumber), number_(double(n)) {}     // NOLINT
  Value(std::string s) : kind_(Kind::kString), string_(std::move(s)) {}  // NOLINT
  Value(const char* s) : kind_(Kind::kString), string_(s) {}             // NOLINT
  Value(Array a) : kind_(Kind::kArray), array_(std::move(a)) {}          // NOLINT
  static Value object() {
    Value v;
    v.kind_ = Kind::kObject;
    return v;
  }
  static Value array() {
    Value v;
    v.kind_ = Kind::kArray;
    return v;
  }
  static Value numbers(const std::vector<double>& values);

  Kind kind() const { return kind_; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_bool() const { return kind_ == Kind::kBool; }
  bool is_number() const { return kind_ == Kind::kNumber; }
  bool is_string() const { return kind_ == Kind::kString; }
  bool is_array() const { return kind_ == Kind::kArray; }
  bool is_object() const { return kind_ == Kind::kObject; }

  bool as_bool() const { return number_ != 0; }
  double as_number() const { return number_; }
  const std::string& as_string() const { return string_; }
  const Array& as_array() const { return array_; }
  const Object& as_object() const { return object_; }

  // Object access: the member named `key`, or nullptr (also when this is not an object). O(1).
  const Value* find(const std::string& key) const;
  // Sets (or replaces) a member in O(1) (requests may carry 10^5 keys); returns *this for
  // chaining. Turns null into an object.
  Value& set(const std::string& key, Value value);
  // Appends to an array. Turns null into an array.
  Value& push(Value value);

  // "a number", "a string", ... for error messages.
  const char* kind_name() const;

 private:
  Kind kind_ = Kind::kNull;
  double number_ = 0;
  std::string string_;
  Array array_;
  Object object_;
  std::unordered_map<std::string, std::size_t> index_;  // key -> position in object_
};

}  // namespace dpcalc::api
