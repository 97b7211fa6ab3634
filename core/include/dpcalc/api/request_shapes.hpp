// Every object a request may hold and the fields it takes (schema.hpp), declared once in
// request_shapes.cpp: the schema check, the docs' field tables and the op readers (which read each
// field as declared: fields.hpp) all take them from here.
#pragma once

#include "dpcalc/api/schema.hpp"

namespace dpcalc::api {

struct RequestShapes {
  Shape guarantee, mechanism, mechanism_template, item, discretization, target, dpsgd_target, group_target,
      database_class, constraint, tradeoff_options, dpsgd_phase, audit_evidence, audit_claim, repetitions;
  Shape group, compose, convert, split, profile, calibrate, dpsgd, dpsgd_pair, dpsgd_samplers, rdp, databases,
      groupwise_simulate, groupwise_privacy, groupwise_plan, bare_guarantee, tradeoff, audit;

  RequestShapes();
  // Every shape, in the order the schema lists them.
  std::vector<const Shape*> all() const;
};

const RequestShapes& request_shapes();

// The declaration of `name` in `shape` (its own fields or a variant's); a declared name is required
// (tests/node/schema.test.mjs reads every field of every op through the readers).
const Field& declared(const Shape& shape, const char* name);

}  // namespace dpcalc::api
