// The request schema (dpcalc/api/schema.hpp): names suggested for typos, and the check that
// refuses fields an object does not take.
#include <doctest/doctest.h>

#include "dpcalc/api/compute.hpp"
#include "dpcalc/api/op_table.hpp"
#include "dpcalc/api/schema.hpp"

using dpcalc::api::closest_name;
using dpcalc::api::Value;

namespace {

// The error of a failed request (a copy: the response is a temporary).
Value error_of(const Value& response) {
  REQUIRE_FALSE(response.find("ok")->as_bool());
  return *response.find("error");
}

}  // namespace

TEST_CASE("[schema] a close name is suggested for a typo, another case convention or a swapped pair") {
  const std::vector<std::string> names{"scale", "sensitivity", "sigma", "sampling_rate"};
  CHECK(closest_name("sensitivty", names) == "sensitivity");   // one letter left out
  CHECK(closest_name("sensitivtiy", names) == "sensitivity");  // two letters swapped
  CHECK(closest_name("samplingRate", names) == "sampling_rate");
  CHECK(closest_name("SCALE", names) == "scale");
  CHECK(closest_name("sigam", names) == "sigma");
  CHECK(closest_name("delta", names).empty());  // nothing close: no suggestion
  CHECK(closest_name("k", {"rho"}).empty());
}

TEST_CASE("[schema] every object of a request is checked against its shape, variant by variant") {
  using dpcalc::api::compute;
  Value mechanism = Value::object();
  mechanism.set("type", "laplace").set("scale", 1).set("sensitivty", 2);
  Value request = Value::object();
  request.set("op", "group").set("k", 2).set("mechanism", mechanism);
  Value error = error_of(compute(request));
  CHECK(error.find("code")->as_string() == "invalid_argument");
  CHECK(error.find("field")->as_string() == "mechanism.sensitivty");
  CHECK(error.find("message")->as_string() ==
        "mechanism.sensitivty is not a field of a 'laplace' mechanism: did you mean 'sensitivity'? A 'laplace' "
        "mechanism takes type, scale and sensitivity.");

  // The field of another variant: said to belong there.
  Value gaussian = Value::object();
  gaussian.set("type", "gaussian").set("sigma", 1).set("scale", 1);
  request.set("mechanism", gaussian).set("delta", 1e-6);
  error = error_of(compute(request));
  CHECK(error.find("field")->as_string() == "mechanism.scale");
  CHECK(error.find("message")->as_string().find("does not apply to a 'gaussian' mechanism (it is a field of a "
                                                "'laplace' mechanism or a 'discrete_laplace' mechanism)") !=
        std::string::npos);

  // An unknown discriminator is left to the op, which lists the types it knows.
  Value unknown = Value::object();
  unknown.set("type", "laplase").set("scale", 1);
  request.set("mechanism", unknown);
  error = error_of(compute(request));
  CHECK(error.find("field")->as_string() == "mechanism.type");
}

TEST_CASE("[schema] every op of the table has a shape whose fields name their shapes") {
  for (const dpcalc::api::Op& op : dpcalc::api::op_table()) {
    CAPTURE(op.shape->name);
    CHECK(static_cast<bool>(op.run));
    CHECK(op.shape->fields.front().name == "op");
  }
  const Value schema = dpcalc::api::schema_value();
  CHECK(schema.find("ops")->as_array().size() == dpcalc::api::op_table().size());
  CHECK(schema.find("shapes")->find("mechanism")->find("discriminator")->as_string() == "type");
}
