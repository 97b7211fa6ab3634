// The list of ops: each op's request shape (schema.hpp), its lane, and the function that answers
// it. compute() dispatches through it; schema_value() describes it to JavaScript, where the page's
// numeric lane (web/client.js), the TypeScript types (web/dpcalc.d.ts), the fuzz generator and the
// field tables of docs/API.md are checked against it (tests/node/schema.test.mjs).
#pragma once

#include <string>
#include <vector>

#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

// Closed forms answer in microseconds; numeric ops may run for seconds, report progress and can be
// cancelled (the page runs them in a worker of their own).
enum class Lane { kClosedForm, kNumeric };

// A request of a closed-form op runs in the numeric lane when its `field` equals `value`.
struct NumericWhen {
  std::string field;
  std::string value;
};

using OpAnswer = Result<Value> (*)(const Value& request, const pld::ProgressCallback& progress);

struct Op {
  const Shape* shape;  // shape->name is the op's name
  Lane lane;
  std::vector<NumericWhen> numeric_when;
  OpAnswer answer;
};

const std::vector<Op>& op_table();

// The shapes of the objects requests hold, shared by several ops.
const Shape& guarantee_shape();
const Shape& mechanism_shape();

// {ops: [{name, title, lane, numeric_when}], shapes: {…} (shapes_value of every shape), mechanisms: […]
// (mechanism_catalog_value: the catalog's types, titles and parameters, for the page's pickers)}.
Value schema_value();

}  // namespace dpcalc::api
