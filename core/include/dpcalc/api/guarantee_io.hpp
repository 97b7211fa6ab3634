// Reading guarantee objects out of requests, and writing guarantees into results.
//   {type:'pure', epsilon} {type:'approx', epsilon, delta} {type:'zcdp', rho}
//   {type:'rdp', orders:[...], epsilons:[...]}
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/method_info.hpp"
#include "dpcalc/result.hpp"

namespace dpcalc::api {

using Guarantee = std::variant<PureDp, ApproxDp, Zcdp, RdpCurve>;

// `path` is the guarantee's own dotted path ("guarantee", "items.3.guarantee").
Result<Guarantee> read_guarantee(const Value& value, const std::string& path);

// The (ε, δ) target at `key` of `object` (at path `at`): {epsilon, delta}, optionally with type 'approx'.
Result<ApproxDp> read_target(const Value& object, const std::string& at, const char* key);

// The field of a guarantee at `path` that drives its size, for overflow errors: its epsilon, its
// rho, or the largest of its RDP epsilons ("guarantee.epsilons.3").
std::string magnitude_field(const Guarantee& guarantee, const std::string& path);

Value to_value(const PureDp& guarantee);
Value to_value(const ApproxDp& guarantee);  // delta reported as 1 when vacuous
Value to_value(const Zcdp& guarantee);
Value to_value(const RdpCurve& guarantee);  // its orders 1 and ∞ as renyi_values writes them

// A Rényi order or ε as results write it: the number, or the string "infinity" (JSON has none).
Value renyi_value(double value);
Value renyi_values(const std::vector<double>& values);
Value to_value(const Guarantee& guarantee);

}  // namespace dpcalc::api
