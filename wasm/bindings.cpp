// Embind bindings: converts a JavaScript request to a dpcalc::api::Value, calls the api, and
// converts the result back. No accounting logic lives here.
#include <emscripten/bind.h>
#include <emscripten/em_js.h>
#include <emscripten/em_macros.h>
#include <emscripten/val.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
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

// The request as a tape of bytes, in one call: a kind byte (0 null, 1 false, 2 true, 3 number, 4
// string, 5 array, 6 object), then a number's 8 bytes, or a string's UTF-8 length (4 bytes) and
// bytes, or an array's length and items, or an object's member count and its key-value pairs (keys
// in Object.keys order). Other types (web/dpcalc.js sends none) read as null, as JSON drops them, and
// so do objects and arrays below `max_depth` (web/dpcalc.js refuses deeper requests before they get
// here; this only keeps a direct caller of the module from exhausting the stack). Little-endian,
// as wasm is. Returns a malloc'd [byte count (4 bytes)][tape], which the caller frees.
// clang-format off
EM_JS(unsigned char*, encode_request, (emscripten::EM_VAL request, int max_depth), {
  // The encoder and the buffer are kept between calls (the buffer grows to the largest request).
  if (!encode_request.kept) {
    const bytes = new Uint8Array(1024);
    encode_request.kept = { encoder: new TextEncoder(), bytes, view: new DataView(bytes.buffer) };
  }
  const { encoder } = encode_request.kept;
  let { bytes, view } = encode_request.kept;
  let at = 0;
  const reserve = (count) => {
    if (at + count <= bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * bytes.length, at + count));
    grown.set(bytes.subarray(0, at));
    bytes = grown;
    view = new DataView(bytes.buffer);
    Object.assign(encode_request.kept, { bytes, view });
  };
  const text = (string) => {
    reserve(4 + 3 * string.length);
    const written = encoder.encodeInto(string, bytes.subarray(at + 4)).written;
    view.setUint32(at, written, true);
    at += 4 + written;
  };
  const write = (value, depth) => {
    reserve(9);
    if (value === false || value === true) {
      bytes[at++] = value ? 2 : 1;
    } else if (typeof value === 'number') {
      bytes[at++] = 3;
      view.setFloat64(at, value, true);
      at += 8;
    } else if (typeof value === 'string') {
      bytes[at++] = 4;
      text(value);
    } else if (value === null || typeof value !== 'object' || depth >= max_depth) {
      bytes[at++] = 0;
    } else if (Array.isArray(value)) {
      bytes[at++] = 5;
      view.setUint32(at, value.length, true);
      at += 4;
      for (let i = 0; i < value.length; ++i) write(value[i], depth + 1);
    } else {
      const keys = Object.keys(value);
      bytes[at++] = 6;
      view.setUint32(at, keys.length, true);
      at += 4;
      for (const key of keys) {
        text(key);
        write(value[key], depth + 1);
      }
    }
  };
  write(Emval.toValue(request), 0);
  const tape = _malloc(at + 4);
  HEAPU32[tape >> 2] = at;
  HEAPU8.set(bytes.subarray(0, at), tape + 4);
  return tape;
});
// clang-format on

namespace {

using dpcalc::api::Value;
using emscripten::val;

// The depth below which encode_request reads objects and arrays as null (web/dpcalc.js refuses
// deeper requests before they get here: requestLimits.depth).
constexpr int kMaxDepth = 32;

// The kinds of a tape's values, as encode_request numbers them.
enum TapeKind : unsigned char { kNull, kFalse, kTrue, kNumber, kString, kArray, kObject };

// Reads the tape encode_request wrote into a Value. The tape is this module's own; a read past its
// end (which it never asks for) gives null rather than reading outside it.
class TapeReader {
 public:
  TapeReader(const unsigned char* data, std::size_t size) : at_(data), end_(data + size) {}

  Value read() {
    switch (byte()) {
      case kFalse:
        return Value(false);
      case kTrue:
        return Value(true);
      case kNumber:
        return Value(scalar<double>());
      case kString:
        return Value(text());
      case kArray: {
        Value array = Value::array();
        for (std::uint32_t i = 0, count = scalar<std::uint32_t>(); i < count && at_ < end_; ++i) array.push(read());
        return array;
      }
      case kObject: {
        Value object = Value::object();
        for (std::uint32_t i = 0, count = scalar<std::uint32_t>(); i < count && at_ < end_; ++i) {
          std::string key = text();
          object.set(key, read());
        }
        return object;
      }
      default:
        return Value();
    }
  }

 private:
  unsigned char byte() { return at_ < end_ ? *at_++ : kNull; }
  const unsigned char* take(std::size_t count) {
    if (static_cast<std::size_t>(end_ - at_) < count) {
      at_ = end_;
      return nullptr;
    }
    const unsigned char* start = at_;
    at_ += count;
    return start;
  }
  // A length (std::uint32_t) or a number (double).
  template <class T>
  T scalar() {
    T value = 0;
    if (const unsigned char* bytes = take(sizeof value)) std::memcpy(&value, bytes, sizeof value);
    return value;
  }
  std::string text() {
    const auto size = scalar<std::uint32_t>();
    const unsigned char* bytes = take(size);
    return bytes ? std::string(reinterpret_cast<const char*>(bytes), size) : std::string();
  }

  const unsigned char* at_;
  const unsigned char* end_;
};

// The request as a Value: encoded by one call into JavaScript, read here.
Value from_js(const val& request) {
  unsigned char* tape = encode_request(request.as_handle(), kMaxDepth);
  std::uint32_t size = 0;
  std::memcpy(&size, tape, sizeof size);
  Value value = TapeReader(tape + sizeof size, size).read();
  std::free(tape);
  return value;
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

val compute(const val& request) { return to_js(dpcalc::api::compute(from_js(request))); }

// `on_progress(fraction)` is called during numeric work; a falsy return value cancels it. It must
// not throw (an exception would unwind through code built without exceptions): web/dpcalc.js wraps
// the caller's callback so that it never does.
val compute_with_progress(const val& request, const val& on_progress) {
  const auto progress = [&on_progress](double fraction) { return on_progress(fraction).as<bool>(); };
  return to_js(dpcalc::api::compute(from_js(request), progress));
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
