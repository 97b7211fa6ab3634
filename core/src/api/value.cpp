#include "dpcalc/api/value.hpp"

namespace dpcalc::api {

struct Value::Composite {
  std::string string;
  Array array;
  Object object;
  // key -> position in object, built once an object has kIndexedFrom members: smaller ones (nearly
  // every object of a request or a result) are searched in order, with no hashing and no node to
  // allocate per member.
  std::unordered_map<std::string, std::size_t> index;
};

namespace {
constexpr std::size_t kIndexedFrom = 16;

// The member named `key` of a small object (no index yet), or nullptr.
template <class Members, class Key>
auto find_in_order(Members& object, const Key& key) -> decltype(&object.front().second) {
  for (auto& [name, value] : object) {
    if (name == key) return &value;
  }
  return nullptr;
}
const std::string kNoString;
const Value::Array kNoArray;
const Value::Object kNoObject;
}  // namespace

Value::Composite& Value::composite() {
  if (!composite_) composite_ = std::make_unique<Composite>();
  return *composite_;
}

Value::Value() = default;
Value::Value(bool b) : kind_(Kind::kBool), number_(b ? 1 : 0) {}
Value::Value(double n) : kind_(Kind::kNumber), number_(n) {}
Value::Value(int n) : kind_(Kind::kNumber), number_(n) {}
Value::Value(std::size_t n) : kind_(Kind::kNumber), number_(double(n)) {}
Value::Value(std::string s) : kind_(Kind::kString) { composite().string = std::move(s); }
Value::Value(const char* s) : kind_(Kind::kString) { composite().string = s; }
Value::Value(Array a) : kind_(Kind::kArray) { composite().array = std::move(a); }
Value::Value(const Value& other)
    : kind_(other.kind_),
      number_(other.number_),
      composite_(other.composite_ ? std::make_unique<Composite>(*other.composite_) : nullptr) {}
Value::Value(Value&& other) noexcept = default;
Value& Value::operator=(const Value& other) {
  if (this != &other) *this = Value(other);
  return *this;
}
Value& Value::operator=(Value&& other) noexcept = default;
Value::~Value() = default;

const std::string& Value::as_string() const { return composite_ ? composite_->string : kNoString; }
const Value::Array& Value::as_array() const { return composite_ ? composite_->array : kNoArray; }
const Value::Object& Value::as_object() const { return composite_ ? composite_->object : kNoObject; }

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
  Array& items = array.composite().array;
  items.reserve(values.size());
  for (double value : values) items.emplace_back(value);
  return array;
}

const Value* Value::find(const std::string& key) const {
  if (kind_ != Kind::kObject) return nullptr;
  if (!composite_) return nullptr;
  if (composite_->index.empty()) return find_in_order(composite_->object, key);
  const auto found = composite_->index.find(key);
  return found == composite_->index.end() ? nullptr : &composite_->object[found->second].second;
}

const Value* Value::find(const char* key) const {
  if (kind_ != Kind::kObject) return nullptr;
  if (!composite_) return nullptr;
  if (!composite_->index.empty()) return find(std::string(key));
  return find_in_order(composite_->object, key);
}

Value& Value::set(const char* key, Value value) { return set(std::string(key), std::move(value)); }

Value& Value::set(const std::string& key, Value value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kObject;
  Composite& members = composite();
  if (members.index.empty()) {
    if (Value* member = find_in_order(members.object, key)) {
      *member = std::move(value);
      return *this;
    }
    members.object.emplace_back(key, std::move(value));
    if (members.object.size() >= kIndexedFrom) {
      for (std::size_t i = 0; i < members.object.size(); ++i) members.index.emplace(members.object[i].first, i);
    }
    return *this;
  }
  const auto [position, inserted] = members.index.emplace(key, members.object.size());
  if (!inserted) {
    members.object[position->second].second = std::move(value);
    return *this;
  }
  members.object.emplace_back(key, std::move(value));
  return *this;
}

Value& Value::push(Value value) {
  if (kind_ == Kind::kNull) kind_ = Kind::kArray;
  composite().array.push_back(std::move(value));
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
