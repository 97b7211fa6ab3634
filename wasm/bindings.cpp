// Embind bindings: converts a JavaScript request to a dpcalc::api::Value, calls the api, and
// converts the result back. No accounting logic lives here.
#include <emscripten/bind.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/compute.hpp"
#include "dpcalc/api/op_table.hpp"

namespace {

using dpcalc::api::Value;
using emscripten::val;

// web/dpcalc.js refuses deeper requests before they get here (requestLimits.depth); this only keeps
// a direct caller of the module from exhausting the stack. The cut-off subtree reads as null.
constexpr int kMaxDepth = 32;

Value from_js(const val& input, int depth) {
  const std::string type = input.typeOf().as<std::string>();
  if (type == "number") return Value(input.as<double>());
  if (type == "boolean") return Value(input.as<bool>());
  if (type == "string") return Value(input.as<std::string>());
  if (type != "object" || input.isNull() || depth >= kMaxDepth) return Value();
  if (input.isArray()) {
    Value array = Value::array();
    const unsigned length = input["length"].as<unsigned>();
    for (unsigned i = 0; i < length; ++i) array.push(from_js(input[i], depth + 1));
    return array;
  }
  Value object = Value::object();
  const val keys = val::global("Object").call<val>("keys", input);
  const unsigned length = keys["length"].as<unsigned>();
  for (unsigned i = 0; i < length; ++i) {
    const std::string key = keys[i].as<std::string>();
    object.set(key, from_js(input[key], depth + 1));
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
      return val(value.as_number() + 0.0);  // −0 + 0 is +0: no result shows "-0"
    case Value::Kind::kString:
      return val(value.as_string());
    case Value::Kind::kArray: {
      if (const auto numbers = number_list(value)) {
        // One copy of a view into wasm memory instead of one call per element (plot series).
        return val::global("Array").call<val>("from",
                                              val(emscripten::typed_memory_view(numbers->size(), numbers->data())));
      }
      val array = val::array();
      unsigned index = 0;
      for (const Value& item : value.as_array()) array.set(index++, to_js(item));
      return array;
    }
    case Value::Kind::kObject: {
      val object = val::object();
      for (const auto& [key, item] : value.as_object()) object.set(key, to_js(item));
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
