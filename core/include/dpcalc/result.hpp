// Result<T>: a value or an error {code, field, message}.
// The core is built without exceptions; every fallible call returns one of these so that an
// invalid object can never exist and no error can cross the Embind boundary as a bare number.
#pragma once

#include <cstddef>
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
  Error(std::string error_code, std::string error_subject, std::string error_message);
  Error(const Error& other);
  Error(Error&& other) noexcept;
  Error& operator=(const Error& other);
  Error& operator=(Error&& other) noexcept;
  ~Error();

  std::string code;  // kInvalidArgument, kUnsupported or kNumeric
  // What the error is about. In the api layer's answers: the dotted path of the offending request field
  // ("guarantee.delta"). Below it, in the words of the code that found it: the name of one of its own
  // parameters ("sigma", a mechanism parameter as its type declares it; "count"), or "" for the call as a whole;
  // the reader that built the request puts it on the request's path (api/locate.hpp), once.
  std::string field;
  std::string message;  // a sentence a person can act on; quotes the bad value, names no request path
  // Below the api layer: the index of the element, among those of a list the callee was given, that the error
  // is about (a composition's item, an order of a curve); kNoItem when none.
  std::size_t item = kNoItem;
  static constexpr std::size_t kNoItem = static_cast<std::size_t>(-1);
};

// Out of line (result.cpp), like Error's members: it is called at hundreds of places.
Error invalid_argument(std::string field, std::string message);

// `error` about element `item` of the callee's list (Error::item).
Error about_item(Error error, std::size_t item);

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
// Propagates an error from a check whose value is not needed (a Result<bool> that only says "valid"):
//   DPCALC_CHECK(check_relation(mechanism, relation));
#define DPCALC_CHECK_IMPL(tmp, expr) \
  if (auto tmp = (expr); !tmp.ok()) return std::move(tmp).error()
#define DPCALC_CHECK(expr) DPCALC_CHECK_IMPL(DPCALC_CONCAT(dpcalc_check_, __LINE__), expr)
