// Result<T>: a value or an error {code, field, message}.
// The core is built without exceptions; every fallible call returns one of these so that an
// invalid object can never exist and no error can cross the Embind boundary as a bare number.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace dpcalc {

// Error codes are part of the public API (see docs/API.md).
inline constexpr const char* kInvalidArgument = "invalid_argument";
inline constexpr const char* kUnsupported = "unsupported";
inline constexpr const char* kNumeric = "numeric";

struct Error {
  // Out of line (result.cpp): every fallible call site copies, moves or destroys an Error, and
  // inlined, the three strings' code repeated at each of them.
  Error();
  Error(std::string error_code, std::string error_field, std::string error_message);
  Error(const Error& other);
  Error(Error&& other) noexcept;
  Error& operator=(const Error& other);
  Error& operator=(Error&& other) noexcept;
  ~Error();

  std::string code;     // kInvalidArgument, kUnsupported or kNumeric
  std::string field;    // dotted path of the offending request field, e.g. "guarantee.delta"
  std::string message;  // a sentence a person can act on; quotes the bad value
};

// Out of line (result.cpp), like Error's members: it is called at hundreds of places.
Error invalid_argument(std::string field, std::string message);

template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}      // NOLINT: implicit by design
  Result(Error error) : state_(std::move(error)) {}  // NOLINT: implicit by design

  bool ok() const { return std::holds_alternative<T>(state_); }
  const T& value() const { return std::get<T>(state_); }
  T& value() { return std::get<T>(state_); }
  const Error& error() const& { return std::get<Error>(state_); }
  Error&& error() && { return std::get<Error>(std::move(state_)); }

 private:
  std::variant<T, Error> state_;
};

// Joins a field prefix and a name into a dotted path ("" + "k" -> "k", "a" + "b" -> "a.b"). Out of
// line (result.cpp): inlined, the concatenation was repeated at each of its hundred call sites.
std::string field_path(const std::string& prefix, const std::string& name);

}  // namespace dpcalc

// Propagates an error from an expression returning Result<...>:
//   DPCALC_TRY(auto eps, check_epsilon(x, "epsilon"));
#define DPCALC_CONCAT_INNER(a, b) a##b
#define DPCALC_CONCAT(a, b) DPCALC_CONCAT_INNER(a, b)
#define DPCALC_TRY_IMPL(tmp, decl, expr)        \
  auto tmp = (expr);                            \
  if (!tmp.ok()) return std::move(tmp).error(); \
  decl = std::move(tmp.value())
#define DPCALC_TRY(decl, expr) DPCALC_TRY_IMPL(DPCALC_CONCAT(dpcalc_try_, __LINE__), decl, expr)
