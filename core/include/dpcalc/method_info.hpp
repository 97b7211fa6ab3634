// Every result names the theorem or method that produced it and a citation, so the page can
// show "Kairouz, Oh, Viswanath 2015, Thm 3.4" beside the number.
#pragma once

namespace dpcalc {

struct MethodInfo {
  const char* method;    // short name, e.g. "Advanced composition (Kairouz et al.)"
  const char* citation;  // authors, year, theorem, e.g. "Kairouz, Oh, Viswanath 2015, Thm 3.5"
};

}  // namespace dpcalc
