// Named parameter checks, one per kind of parameter, shared by every entry point.
// Each check is written so that NaN fails it, and each message quotes the bad value.
#pragma once

#include <cstdint>
#include <string>

#include "dpcalc/result.hpp"

namespace dpcalc {

// Largest accepted count, group size or number of compositions. Counts are doubles in the API
// (JavaScript numbers); above 2^53 consecutive integers are no longer representable.
inline constexpr double kMaxCount = 9007199254740992.0;  // 2^53

// Formats a double for error messages with enough digits to recognise it ("NaN", "Infinity", "-0.5").
std::string format_number(double value);

// "(got 1.5)" for messages; NaN is explained ("(got NaN, which is not a number)").
std::string got(double value);

// The name a person knows a parameter by, from its name ("sigma" -> "σ", "k" -> "The group size k")
// or the last name of a dotted request path ("items.0.mechanism.sigma" -> "σ"; an element of a list,
// "guarantee.epsilons.3", is named after its list); an unknown name is returned as it is. Messages
// start with it ("δ must be below 1 (got 1.5)."); the error's `field` keeps the name or the path.
std::string describe_name(const std::string& name);

// epsilon: finite and >= 0.
Result<double> check_epsilon(double value, const std::string& field);
// An ε at which δ(ε) is asked: any finite number. δ(ε) = sup Σ (P − e^ε Q)₊, the hockey-stick
// divergence, is defined below 0 too, where it is at least 1 − e^ε.
Result<double> check_profile_epsilon(double value, const std::string& field);
// Largest target ε a calibration solves for: ln of the largest double (e^ε must be a number).
inline constexpr double kMaxTargetEpsilon = 709.782712893384;
// target epsilon of a calibration: > 0 and at most kMaxTargetEpsilon.
Result<double> check_target_epsilon(double value, const std::string& field);
// delta: in [0, 1) (delta = 1 is vacuous as an input).
Result<double> check_delta(double value, const std::string& field);
// delta target that must be strictly positive: in (0, 1).
Result<double> check_positive_delta(double value, const std::string& field);
// rho (zCDP): finite and >= 0.
Result<double> check_rho(double value, const std::string& field);
// strictly positive finite real (noise scale, sigma, sensitivity, ...).
Result<double> check_positive(double value, const std::string& field);
// finite real >= 0 (a noise multiplier, where 0 is the noise-free training).
Result<double> check_nonnegative(double value, const std::string& field);
// probability in (0, 1] (sampling rates, ...).
Result<double> check_rate(double value, const std::string& field);
// probability in [0, 1] (a sampling rate where 0, no example read, is answered).
Result<double> check_rate_or_zero(double value, const std::string& field);
// integer count in [1, kMaxCount] (group size, number of compositions, ...).
Result<double> check_count(double value, const std::string& field);

// whole number in [minimum, maximum] (a group's count, which may be 0; a number of samples; a seed).
Result<double> check_whole_number(double value, double minimum, double maximum, const std::string& field);

}  // namespace dpcalc
