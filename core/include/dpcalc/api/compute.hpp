// The request/result entry point shared by the wasm bindings and the native tests.
// compute(request) never fails: it returns {ok: true, result: {...}} or
// {ok: false, error: {code, field, message}}. Ops are documented in docs/API.md.
#pragma once

#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"

namespace dpcalc::api {

// `progress` is called during long numeric work with the fraction done; returning false cancels
// it (error code "cancelled"). Closed forms never call it.
Value compute(const Value& request, const pld::ProgressCallback& progress = {});

}  // namespace dpcalc::api
