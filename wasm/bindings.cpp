// Embind bindings: converts a JavaScript request to a dpcalc::api::Value, calls the api, and
// converts the result back. No accounting logic lives here.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/em_macros.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/compute.hpp"
#include "dpcalc/api/op_table.hpp"

// A JavaScript array of the `count` numbers at `data`, filled by one loop in JavaScript: one call
// instead of one per element, and faster than Array.from over a typed view (plot series).
EM_JS(emscripten::EM_VAL, number_array, (const double* data, int count), {
  const numbers = new Array(count);
  for (let i = 0; i < count; ++i) numbers[i] = HEAPF64[(data >> 3) + i];
  return Emval.toHandle(numbers);
});

// A JavaScript number: one call, where val(double) looks its type up by name on every conversion.
EM_JS(emscripten::EM_VAL, number_value, (double number), { return Emval.toHandle(number); });

// `object[key] = value` for a key of `length` UTF-8 bytes without a zero byte, decoded in place: val's
// string conversion copies it to a fresh heap buffer first, for each of the few dozen keys a result has.
EM_JS(void, set_member, (emscripten::EM_VAL object, const char* key, int length, emscripten::EM_VAL value),
      { Emval.toValue(object)[UTF8ToString(key, length)] = Emval.toValue(value); });

namespace {

using dpcalc::api::Value;
using emscripten::val;

// web/dpcalc.js refuses deeper requests before they get here (requestLimits.depth); this only keeps
// a direct caller of the module from exhausting the stack. The cut-off subtree reads as null.
constexpr int kMaxDepth = 32;

// The globals the conversions call, looked up once (each lookup is a call into JavaScript).
const val& array_class() {
  static const val array = val::global("Array");
  return array;
}
const val& object_class() {
  static const val object = val::global("Object");
  return object;
}

// Null, booleans, numbers and strings are told apart without asking JavaScript for a type name
// (a string per value); other types (web/dpcalc.js sends none) read as null, as JSON drops them.
Value from_js(const val& input, int depth) {
  if (input.isNull() || input.isUndefined()) return Value();
  if (input.isTrue() || input.isFalse()) return Value(input.isTrue());
  if (input.isNumber()) return Value(input.as<double>());
  if (input.isString()) return Value(input.as<std::string>());
  if (depth >= kMaxDepth || input.typeOf().as<std::string>() != "object") return Value();
  if (input.instanceof (array_class())) {
    Value array = Value::array();
    const unsigned length = input["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) array.push(from_js(input[i], depth + 1));
    return array;
  }
  Value object = Value::object();
  const val keys = object_class().call<val>("keys", input);
  const unsigned length = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    const val key = keys[i];
    object.set(key.as<std::string>(), from_js(input[key], depth + 1));
  }
  return object;
}

// The numbers of an array of at least kNumberListLength numbers (−0 as +0: no result shows "-0").
constexpr std::size_t kNumberListLength = 16;
std::optional<std::vector<double>> number_list(const Value& value) {
  if (value.as_array().size() < kNumberListLength) return std::nullopt;
  std::vector<double> numbers;
  numbers.reserve(value.as_array().size());
  for (const Value& item : value.as_array()) {
    if (!item.is_number()) return std::nullopt;
    numbers.push_back(item.as_number() + 0.0);
  }
  return numbers;
}

val to_js(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kNull:
      return val::null();
    case Value::Kind::kBool:
      return val(value.as_bool());
    case Value::Kind::kNumber:
      return val::take_ownership(number_value(value.as_number() + 0.0));  // −0 + 0 is +0: no result shows "-0"
    case Value::Kind::kString:
      return val(value.as_string());
    case Value::Kind::kArray: {
      if (const auto numbers = number_list(value)) {
        return val::take_ownership(number_array(numbers->data(), static_cast<int>(numbers->size())));
      }
      val array = val::array();
      unsigned index = 0;
      for (const Value& item : value.as_array()) array.set(index++, to_js(item));
      return array;
    }
    case Value::Kind::kObject: {
      val object = val::object();
      for (const auto& [key, item] : value.as_object()) {
        if (key.find('\0') == std::string::npos) {
          set_member(object.as_handle(), key.data(), static_cast<int>(key.size()), to_js(item).as_handle());
        } else {
          object.set(key, to_js(item));
        }
      }
      return object;
    }
  }
  return val::null();
}

val compute(const val& request) { return to_js(dpcalc::api::compute(from_js(request, 0))); }

// `on_progress(fraction)` is called during numeric work; a falsy return value cancels it. It must
// not throw (an exception would unwind through code built without exceptions): web/dpcalc.js wraps
// the caller's callback so that it never does.
val compute_with_progress(const val& request, const val& on_progress) {
  const auto progress = [&on_progress](double fraction) { return on_progress(fraction).as<bool>(); };
  return to_js(dpcalc::api::compute(from_js(request, 0), progress));
}

// Every op and the fields of every object a request may hold (dpcalc/api/op_table.hpp).
val schema() { return to_js(dpcalc::api::schema_value()); }

// Bytes allocated on the wasm heap right now (the memory tests check that requests free all of it).
double heap_bytes_in_use() { return static_cast<double>(mallinfo().uordblks); }

}  // namespace

EMSCRIPTEN_BINDINGS(dpcalc) {
  emscripten::function("compute", &compute);
  emscripten::function("computeWithProgress", &compute_with_progress);
  emscripten::function("heapBytesInUse", &heap_bytes_in_use);
  emscripten::function("schema", &schema);
}
