// The request/result entry point shared by the wasm bindings and the native tests.
// compute(request) never fails: it returns {ok: true, result: {...}} or
// {ok: false, error: {code, field, message}}. Ops are documented in docs/API.md.
#pragma once

#include "dpcalc/api/value.hpp"

namespace dpcalc::api {

Value compute(const Value& request);

}  // namespace dpcalc::api
