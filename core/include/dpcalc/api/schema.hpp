// The request schema: every object a request may hold, and the fields each accepts. One
// declaration serves three purposes, so they cannot drift apart:
//  * check_fields() refuses a field that its op, method or type does not take (a typo such as
//    'sensitivty' or a leftover such as 'delta' in a pure guarantee), before any op reads the
//    request: nothing a person writes is silently ignored;
//  * schema_value() describes it to JavaScript (docs/API.md's field tables, web/dpcalc.d.ts and
//    web/client.js are generated from or checked against it);
//  * the op table (op_table.hpp) pairs each op's shape with the function that answers it.
// A shape may be split by a discriminator field ('type' of a mechanism, 'method' of compose): the
// fields of the variant its value names are accepted on top of the shape's own.
// The readers of the op files take each field as declared here (fields.hpp: the declared readers), so
// that a field's default and whether it is required are written once, where the docs read them.
#pragma once

#include <string>
#include <vector>

#include "dpcalc/api/value.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

struct Shape;

// Field, Variant and Shape build, copy and destroy out of line (schema.cpp): the declarations of
// request_shapes.cpp make hundreds of them, and inlined, their strings' code repeated at each.

// Whether a request must give a field, and what it is when left out: read from the declared
// presence ("required", "default 1e-14", "optional", or a sentence for a rule that depends on other
// fields, which the op's reader enforces).
enum class Presence { kRequired, kDefault, kOptional, kConditional };

// One field of an object.
struct Field {
  Field();
  Field(std::string field_name, std::string field_type, std::string field_presence, std::string field_meaning,
        const Shape* field_shape = nullptr);
  Field(const Field& other);
  Field(Field&& other) noexcept;
  Field& operator=(const Field& other);
  Field& operator=(Field&& other) noexcept;
  ~Field();

  std::string name;
  std::string type;      // as documented: "number", "'basic' | 'advanced'", "mechanism", "[item]"
  std::string presence;  // "required", "optional", "default 1", "one of delta, epsilon", …
  Presence presence_kind = Presence::kConditional;  // what `presence` says, for the readers
  Value fallback;                                   // Presence::kDefault: the value a field left out takes
  std::vector<std::string> choices;                 // a text field of type "'a' | 'b'": the values it takes
  std::string meaning;                              // one line for the docs
  const Shape* shape = nullptr;                     // the shape of an object field, or of each element of a list field
  bool list = false;                                // the field holds a list of `shape` objects
  bool number_or_object = false;                    // a number, or an object of `shape`
  // A field that holds a whole request: the shapes of the ops it may name in its 'op' (checked
  // against the shape of the op it names); without an 'op' it is an object of `shape`.
  std::vector<const Shape*> requests = {};
};

// The fields a discriminator value adds.
struct Variant {
  Variant();
  Variant(std::string variant_value, std::string variant_title, std::string variant_meaning,
          std::vector<Field> variant_fields);
  Variant(const Variant& other);
  Variant(Variant&& other) noexcept;
  Variant& operator=(const Variant& other);
  Variant& operator=(Variant&& other) noexcept;
  ~Variant();

  std::string value;  // the discriminator's value, e.g. "laplace"
  std::string title;  // how messages name an object of this variant: "a 'laplace' mechanism"
  std::string meaning;
  std::vector<Field> fields;
};

struct Shape {
  Shape();
  Shape(std::string shape_name, std::string shape_title, std::vector<Field> shape_fields,
        std::string shape_discriminator, std::vector<Variant> shape_variants);
  Shape(const Shape& other);
  Shape(Shape&& other) noexcept;
  Shape& operator=(const Shape& other);
  Shape& operator=(Shape&& other) noexcept;
  ~Shape();

  std::string name;           // key in the schema: "mechanism", "guarantee", "compose"
  std::string title;          // how messages name it when no variant applies: "an item"
  std::vector<Field> fields;  // accepted whatever the discriminator says
  std::string discriminator;  // "" or the field whose value picks a variant ("type", "method")
  std::vector<Variant> variants;

  const Variant* variant(const std::string& value) const;
  // The declaration of `name`: a field of the shape's own, else of the first variant that has one
  // (null when none does).
  const Field* field(const std::string& name) const;
};

// Checks every object of `value` (at dotted path `path`) against `shape`, recursively: a member
// the shape (and the variant its discriminator picks) does not take is an invalid_argument error on
// its path, saying what the object takes and suggesting a close name ("did you mean
// 'sensitivity'?"). A member set to null counts as absent unless its name is unknown. Values of the
// wrong kind, missing or unknown discriminators and a request field's 'op' naming none of its
// requests are left to the op's reader, which reports them with their own wording.
Result<bool> check_fields(const Value& value, const std::string& path, const Shape& shape);

// The closest of `names` to `name` (a typo, a different case, camelCase), or "" when none is close.
std::string closest_name(const std::string& name, const std::vector<std::string>& names);

// {shapes: {name: {title, fields, discriminator?, variants?}}}: every shape, for JavaScript.
Value shapes_value(const std::vector<const Shape*>& shapes);

}  // namespace dpcalc::api
