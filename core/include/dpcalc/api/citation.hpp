// Writing the method and the citation of a result: "method", "citation" and "citation_key", the
// BibTeX key of the one work cited (a string), or of each work in the citation's order (a list)
// when it cites several. The page joins its bibliography to results by these keys.
#pragma once

#include <string>

#include "dpcalc/api/value.hpp"
#include "dpcalc/method_info.hpp"

namespace dpcalc::api {

// Adds "method", "citation" and "citation_key" of `info` to a result object.
void set_method(Value& result, const MethodInfo& info);

// Adds "citation" and "citation_key": `citation` as shown ("; " between works) and `keys`, the
// works' BibTeX keys separated by spaces.
void set_citation(Value& result, const std::string& citation, const std::string& keys);

}  // namespace dpcalc::api
