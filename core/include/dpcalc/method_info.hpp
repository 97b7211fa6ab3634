// Every result names the theorem or method that produced it, a citation a reader can look up, and
// the BibTeX key of each work cited, so the page can show "Kairouz, Oh, Viswanath 2015, Thm 3.4"
// beside the number and export the works' entries (web/app/bibliography.js) without reading the text.
#pragma once

namespace dpcalc {

struct MethodInfo {
  const char* method;        // short name, e.g. "Advanced composition (Kairouz et al.)"
  const char* citation;      // authors, year, theorem, e.g. "Kairouz, Oh, Viswanath 2015, Thm 3.5";
                             // several works joined by "; "
  const char* citation_key;  // the BibTeX key of each work, in the citation's order, separated by spaces
};

}  // namespace dpcalc
