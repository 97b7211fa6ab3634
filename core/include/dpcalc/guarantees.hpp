// Privacy guarantees as value types. Each is made through a factory that validates its fields
// (an invalid guarantee cannot exist); its errors name the guarantee's own fields ("epsilon", "delta",
// "rho"; "orders" or "epsilons" with the element's index as Error::item).
//   PureDp:   Pr[M(D) in S] <= e^eps Pr[M(D') in S]                       (Dwork et al. 2006)
//   ApproxDp: Pr[M(D) in S] <= e^eps Pr[M(D') in S] + delta                (Dwork et al. 2006)
//   Zcdp:     D_alpha(M(D) || M(D')) <= rho * alpha for all alpha > 1      (Bun & Steinke 2016)
//   RdpCurve: D_alpha(M(D) || M(D')) <= eps(alpha) at the listed orders    (Mironov 2017)
#pragma once

#include <string>
#include <vector>

#include "dpcalc/result.hpp"

namespace dpcalc {

struct PureDp {
  double epsilon = 0;
  static Result<PureDp> create(double epsilon);
};

// A *computed* ApproxDp may carry delta == 1: that result is vacuous (no meaningful guarantee).
// The factory, which validates user input, only accepts delta in [0, 1).
struct ApproxDp {
  double epsilon = 0;
  double delta = 0;
  static Result<ApproxDp> create(double epsilon, double delta);
};

inline bool is_vacuous(const ApproxDp& guarantee) { return !(guarantee.delta < 1); }

struct Zcdp {
  double rho = 0;
  static Result<Zcdp> create(double rho);
};

// Orders are strictly increasing and > 1; epsilons are finite and >= 0; same length >= 1.
struct RdpCurve {
  std::vector<double> orders;
  std::vector<double> epsilons;
  static Result<RdpCurve> create(std::vector<double> orders, std::vector<double> epsilons);
};

}  // namespace dpcalc
