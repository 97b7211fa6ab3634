// Putting the errors of the code below the api layer on the request's paths. That code names what an
// error is about in its own words (result.hpp: Error::field, one of its parameters, and Error::item, an
// element of a list it was given); the reader that gave it the values knows where they sit in the
// request, and says so here, once.
#pragma once

#include <string>
#include <utility>

#include "dpcalc/result.hpp"

namespace dpcalc::api {

// `error` of a call given the values read at `path`: its field (a parameter of the callee) below the
// path, its item (an element of that parameter's list) after it: ("orders", 3) at "guarantee" ->
// "guarantee.orders.3"; "" at "guarantee" -> "guarantee".
Error at_path(Error error, const std::string& path);

template <class T>
Result<T> at_path(Result<T> result, const std::string& path) {
  if (result.ok()) return result;
  return at_path(std::move(result).error(), path);
}

}  // namespace dpcalc::api
