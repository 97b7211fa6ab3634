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

  // The members that build, copy and destroy a Value are out of line (value.cpp): inlined, they
  // repeat the teardown of a string, two vectors and a hash map at every use in the api layer,
  // which made up a large share of the wasm module.
  Value();               // null
  Value(bool b);         // NOLINT
  Value(double n);       // NOLINT
  Value(int n);          // NOLINT
  Value(std::size_t n);  // NOLINT
  Value(std::string s);  // NOLINT
  Value(const char* s);  // NOLINT
  Value(Array a);        // NOLINT
  Value(const Value& other);
  Value(Value&& other) noexcept;
  Value& operator=(const Value& other);
  Value& operator=(Value&& other) noexcept;
  ~Value();
  static Value object();
  static Value array();
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
  // Empty for a value of another kind.
  const std::string& as_string() const;
  const Array& as_array() const;
  const Object& as_object() const;

  // Object access: the member named `key`, or nullptr (also when this is not an object). O(1)
  // (objects of fewer than 16 members are searched in order).
  const Value* find(const std::string& key) const;
  const Value* find(const char* key) const;
  // Sets (or replaces) a member in O(1) (requests may carry 10^5 keys); returns *this for
  // chaining. Turns null into an object.
  Value& set(const std::string& key, Value value);
  // The same for a literal key: the key's string is then built here, not at each of the hundreds
  // of places results are written.
  Value& set(const char* key, Value value);
  // Appends to an array. Turns null into an array.
  Value& push(Value value);

  // "a number", "a string", ... for error messages.
  const char* kind_name() const;

 private:
  // A string, array or object lives behind one pointer, so that a null, boolean or number (most of
  // a result: its plot series) is small and is destroyed without tearing down empty containers.
  struct Composite;
  Composite& composite();  // creates it

  Kind kind_ = Kind::kNull;
  double number_ = 0;
  std::unique_ptr<Composite> composite_;
};

}  // namespace dpcalc::api
