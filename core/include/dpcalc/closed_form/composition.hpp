// Closed-form composition of (eps, delta) guarantees and of zCDP. All functions return upper
// bounds; counts are validated integers >= 1 (see checks.hpp). Pure items are ApproxDp with delta 0.
#pragma once

#include <vector>

#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"

namespace dpcalc {

// `count` copies of `guarantee`, possibly adaptively chosen.
struct ComposedItem {
  ApproxDp guarantee;
  double count = 1;
};

// Basic composition: (Σ count·eps, Σ count·delta), delta clamped to 1 (vacuous)
// (Dwork, Kenthapadi, McSherry, Mironov, Naor 2006; Dwork & Roth 2014, Thm 3.16).
inline constexpr MethodInfo kBasicComposition{"Basic composition", "Dwork & Roth 2014, Thm 3.16",
                                              "dwork2014algorithmic"};
ApproxDp compose_basic(const std::vector<ComposedItem>& items);

// Parallel composition on disjoint subsets of the data: (max eps, max delta) (McSherry 2009, Thm 4).
inline constexpr MethodInfo kParallelComposition{"Parallel composition", "McSherry 2009, Thm 4", "mcsherry2009privacy"};
ApproxDp compose_parallel(const std::vector<ComposedItem>& items);

// zCDP composition: Σ count·rho (Bun & Steinke 2016, Lemma 2.3).
inline constexpr MethodInfo kZcdpComposition{"zCDP composition", "Bun & Steinke 2016, Lemma 2.3",
                                             "bun2016concentrated"};
struct ZcdpItem {
  Zcdp guarantee;
  double count = 1;
};
Zcdp compose_zcdp(const std::vector<ZcdpItem>& items);

}  // namespace dpcalc
