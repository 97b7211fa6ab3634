// api/value: the JSON-like value requests and results are made of.
#include "dpcalc/api/value.hpp"

#include <doctest/doctest.h>

#include <string>

using dpcalc::api::Value;

TEST_CASE("[api] an object finds, replaces and keeps the order of its members, small or indexed") {
  // Objects of fewer than 16 members are searched in order; from the 16th on they are indexed
  // (value.cpp, kIndexedFrom). Both kinds must behave alike.
  for (int size : {1, 15, 16, 17, 40}) {
    CAPTURE(size);
    Value object = Value::object();
    for (int i = 0; i < size; ++i) object.set("key" + std::to_string(i), i);
    object.set("key0", -1.0);  // replaced, not appended
    REQUIRE(object.as_object().size() == static_cast<std::size_t>(size));
    CHECK(object.as_object().front().first == "key0");
    CHECK(object.find("key0")->as_number() == -1);
    for (int i = 1; i < size; ++i) {
      CHECK(object.find("key" + std::to_string(i))->as_number() == i);
      CHECK(object.find(("key" + std::to_string(i)).c_str())->as_number() == i);
      CHECK(object.as_object()[i].first == "key" + std::to_string(i));
    }
    CHECK(object.find("missing") == nullptr);
    CHECK(object.find(std::string("key1\0x", 6)) == nullptr);  // a key with a zero byte is its own key
    const Value copy = object;
    CHECK(copy.find("key0")->as_number() == -1);
    CHECK(copy.find("key" + std::to_string(size - 1))->as_number() == (size == 1 ? -1 : size - 1));
  }
}
