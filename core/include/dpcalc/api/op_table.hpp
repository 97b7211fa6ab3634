// The list of ops (op.hpp): each op's request shape (request_shapes.hpp), its lane, and its steps.
// compute() dispatches through it; schema_value() describes it to JavaScript, where the page's
// numeric lane (web/lanes.js), the TypeScript types (web/dpcalc.d.ts), the fuzz generator and the
// field tables of docs/API.md are checked against it (tests/node/schema.test.mjs).
#pragma once

#include <vector>

#include "dpcalc/api/op.hpp"
#include "dpcalc/api/value.hpp"

namespace dpcalc::api {

const std::vector<Op>& op_table();

// {ops: [{name, lane, numeric_when}], shapes: {…} (shapes_value of every shape), mechanisms: […]
// (mechanism_catalog_value: the catalog's types, titles and parameters, for the page's pickers)}.
Value schema_value();

}  // namespace dpcalc::api
