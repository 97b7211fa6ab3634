// Reading guarantee and mechanism objects out of requests, and writing guarantees into results.
//   {type:'pure', epsilon} {type:'approx', epsilon, delta} {type:'zcdp', rho}
//   {type:'rdp', orders:[...], epsilons:[...]}
//   {type:'laplace', scale, sensitivity = 1} {type:'gaussian', sigma, sensitivity = 1}
#pragma once

#include <string>
#include <variant>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

using Guarantee = std::variant<PureDp, ApproxDp, Zcdp, RdpCurve>;

struct LaplaceParameters {
  double scale;
  double sensitivity;
};
struct GaussianParameters {
  double sigma;
  double sensitivity;
};
using ClosedFormMechanism = std::variant<LaplaceParameters, GaussianParameters>;

// `path` is the guarantee's own dotted path ("guarantee", "items.3.guarantee").
Result<Guarantee> read_guarantee(const Value& value, const std::string& path);
Result<ClosedFormMechanism> read_mechanism(const Value& value, const std::string& path);

// The field of a guarantee at `path` that drives its size, for overflow errors: its epsilon, its
// rho, or the largest of its RDP epsilons ("guarantee.epsilons.3").
std::string magnitude_field(const Guarantee& guarantee, const std::string& path);

Value to_value(const PureDp& guarantee);
Value to_value(const ApproxDp& guarantee);  // delta reported as 1 when vacuous
Value to_value(const Zcdp& guarantee);
Value to_value(const RdpCurve& guarantee);
Value to_value(const Guarantee& guarantee);

}  // namespace dpcalc::api
