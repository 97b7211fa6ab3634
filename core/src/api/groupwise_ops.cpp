#include "dpcalc/api/groupwise_ops.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/groupwise/group_privacy_estimate.hpp"
#include "dpcalc/groupwise/output_density.hpp"
#include "dpcalc/groupwise/planner.hpp"
#include "dpcalc/groupwise/simulation.hpp"

namespace dpcalc::api {
namespace {

using groupwise::TwoStageNoise;

constexpr const char* kEstimateLabel =
    "Numerical estimate, not a proof: quadrature of the output density of Algorithm 1 over the orders "
    "shown, with an error estimate from repeating it at half the step. Proven: rho-zCDP for every group.";
constexpr const char* kAlgorithmCitation = "Pujol & Desfontaines 2023, Algorithm 1 (open problem)";
constexpr const char* kAlgorithmKey = "pujol2023open";
constexpr int kMaxGroups = 20;
constexpr std::size_t kMaxOrders = 200;

// rho | sigma (exactly one) and relative_error.
Result<TwoStageNoise> read_noise(const Value& request) {
  DPCALC_TRY(auto rho, optional_number_field(request, "", "rho"));
  DPCALC_TRY(auto sigma, optional_number_field(request, "", "sigma"));
  if (!rho && !sigma) {
    return invalid_argument("rho",
                            "rho (the first stage's zCDP parameter) or sigma (its noise scale) is required: "
                            "give exactly one of them.");
  }
  if (rho && sigma) {
    return invalid_argument("sigma",
                            "Give exactly one of rho (the first stage's zCDP parameter) and sigma (its noise "
                            "scale), not both.");
  }
  TwoStageNoise noise;
  const double min_sigma = 1 / std::sqrt(2 * groupwise::kMaxRho);
  if (rho) {
    DPCALC_TRY(double checked, check_positive(*rho, "rho"));
    if (checked > groupwise::kMaxRho) {
      return invalid_argument(
          "rho", "rho must be at most " + format_number(groupwise::kMaxRho) + " (got " + format_number(checked) + ").");
    }
    noise.sigma = 1 / std::sqrt(2 * checked);
  } else {
    DPCALC_TRY(double checked, check_positive(*sigma, "sigma"));
    if (checked < min_sigma) {
      return invalid_argument(
          "sigma", "sigma must be at least " + format_number(min_sigma) + " (got " + format_number(checked) + ").");
    }
    noise.sigma = checked;
  }
  DPCALC_TRY(double r, number_field(request, "", "relative_error"));
  DPCALC_TRY(noise.relative_error, check_rate(r, "relative_error"));
  return noise;
}

// The output's spread grows with σ (sd(Y)² = σ² + r²(x² + σ²)); where a result overflows a double,
// the noise is too large (fuzz seed 2: sigma = 1e300 gave an overflow error on field '').
Result<Value> finite_or_noise_too_large(Value result, const Value& request) {
  if (!first_non_finite(result)) return result;
  const bool by_rho = request.find("rho") != nullptr && !request.find("rho")->is_null();
  return invalid_argument(by_rho ? "rho" : "sigma",
                          std::string(by_rho ? "rho is too small" : "sigma is too large") +
                              " for this computation: the spread of the output would exceed the largest number a "
                              "double can hold (about 1.8e308). Use a " +
                              (by_rho ? "larger rho." : "smaller sigma."));
}

// The quadrature of the output density (groupwise_privacy, groupwise_plan) resolves the second
// stage's noise r·X only down to this r: below it the work grows without bound and the inner
// quadrature fails (fuzz seed 3: r = 5e-324 ran for 30 s without progress; another failed on NaN).
constexpr double kSmallestQuadratureRelativeError = 1e-6;

Result<double> check_quadrature_relative_error(double relative_error) {
  if (relative_error >= kSmallestQuadratureRelativeError) return relative_error;
  return invalid_argument("relative_error", "relative_error must be at least " +
                                                format_number(kSmallestQuadratureRelativeError) + " " +
                                                got(relative_error) +
                                                " for the numerical estimate: a narrower second "
                                                "stage is beyond what its quadrature resolves.");
}

Result<double> read_count(const Value& object, const std::string& prefix, const std::string& key, double minimum) {
  DPCALC_TRY(double count, number_field(object, prefix, key.c_str()));
  return check_whole_number(count, minimum, groupwise::kMaxGroupCount, field_path(prefix, key));
}

Result<std::optional<double>> read_delta(const Value& request) {
  DPCALC_TRY(auto delta, optional_number_field(request, "", "delta"));
  if (!delta) return std::optional<double>{};
  DPCALC_TRY(double checked, check_positive_delta(*delta, "delta"));
  return std::optional<double>{checked};
}

Result<std::vector<double>> read_orders(const Value& request) {
  if (request.find("orders") == nullptr || request.find("orders")->is_null()) return groupwise::default_orders();
  DPCALC_TRY(std::vector<double> orders, number_array_field(request, "", "orders"));
  if (orders.empty() || orders.size() > kMaxOrders) {
    return invalid_argument("orders", "orders must list 1 to " + std::to_string(kMaxOrders) + " Rényi orders.");
  }
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const std::string field = "orders." + std::to_string(i);
    if (!(orders[i] >= groupwise::kMinOrder && orders[i] <= groupwise::kMaxOrder)) {
      return invalid_argument(field, field + " must be a Rényi order from 1.01 to 256 " + got(orders[i]) + ".");
    }
    if (i > 0 && !(orders[i] > orders[i - 1])) {
      return invalid_argument(field, field + " must be larger than the order before it (orders increase).");
    }
  }
  return orders;
}

// E|Y − x|/x, or null for x = 0 (no relative error is defined).
Value relative_or_null(double absolute, double count) { return count > 0 ? Value(absolute / count) : Value(); }

void set_noise_fields(Value& result, const TwoStageNoise& noise) {
  result.set("sigma", noise.sigma);
  result.set("rho", 1 / (2 * noise.sigma * noise.sigma));
  result.set("relative_error", noise.relative_error);
}

Value proven_value(double rho, std::optional<double> delta) {
  Value proven = Value::object();
  proven.set("rho", rho);
  std::string method = "Gaussian mechanism, then post-processing (Bun & Steinke 2016, Prop 1.6, Lemma 1.8)";
  std::string citation = "Bun & Steinke 2016, Prop 1.6 and Lemma 1.8";
  std::string keys = "bun2016concentrated";
  if (delta) {
    proven.set("epsilon", zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, *delta).epsilon);
    proven.set("delta", *delta);
    method += std::string("; (ε, δ) by ") + kZcdpCanonneKamathSteinke.citation;
    citation += std::string("; ") + kZcdpCanonneKamathSteinke.citation;
    keys += std::string(" ") + kZcdpCanonneKamathSteinke.citation_key;
  }
  proven.set("method", method);
  set_citation(proven, citation, keys);
  return proven;
}

// The estimate for one group, as a result object.
Result<Value> group_value(const TwoStageNoise& noise, double count, const std::vector<double>& orders,
                          std::optional<double> delta, const groupwise::ProgressCallback& progress) {
  const double rho = 1 / (2 * noise.sigma * noise.sigma);
  const double ceiling = delta ? zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, *delta).epsilon + 1 : 0;
  DPCALC_TRY(groupwise::GroupPrivacyEstimate estimate,
             groupwise::estimate_group_privacy(noise, count, orders, delta, ceiling, progress));
  Value group = Value::object();
  group.set("count", count);
  Value renyi = Value::object();
  renyi.set("orders", Value::numbers(estimate.orders));
  renyi.set("epsilons", Value::numbers(estimate.renyi));
  renyi.set("errors", Value::numbers(estimate.renyi_error));
  group.set("renyi", std::move(renyi));
  group.set("rho_estimate", estimate.rho_estimate);
  group.set("error_estimate", estimate.error_estimate);
  if (estimate.epsilon_estimate) {
    group.set("epsilon_estimate", *estimate.epsilon_estimate);
    group.set("epsilon_error_estimate", *estimate.epsilon_error);
  }
  const double absolute = groupwise::expected_absolute_error(noise, count);
  group.set("expected_absolute_error", absolute);
  group.set("expected_relative_error", relative_or_null(absolute, count));
  group.set("normalization", estimate.normalization);
  return group;
}

void describe_estimate(Value& result) {
  result.set("label", kEstimateLabel);
  result.set("method",
             "Rényi and hockey-stick divergences of the output densities of neighbouring counts, "
             "by adaptive Gauss–Kronrod (inner) and composite Gauss–Legendre (outer) quadrature");
  set_citation(result, kAlgorithmCitation, kAlgorithmKey);
}

}  // namespace

Result<Value> groupwise_simulate_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(TwoStageNoise noise, read_noise(request));
  DPCALC_TRY(double count, read_count(request, "", "count", 0));
  DPCALC_TRY(double samples, number_field(request, "", "samples"));
  DPCALC_TRY(double checked_samples, check_whole_number(samples, 2, groupwise::kMaxSamples, "samples"));
  DPCALC_TRY(auto seed, optional_number_field(request, "", "seed"));
  DPCALC_TRY(double checked_seed, check_whole_number(seed.value_or(1), 0, kMaxCount, "seed"));
  groupwise::HistogramGrid grid = groupwise::default_grid(noise, count);
  DPCALC_TRY(auto bins, optional_number_field(request, "", "bins"));
  if (bins) {
    DPCALC_TRY(double checked_bins, check_whole_number(*bins, 1, groupwise::kMaxBins, "bins"));
    grid.bins = static_cast<int>(checked_bins);
  }
  if (const Value* range = request.find("range"); range != nullptr && !range->is_null()) {
    DPCALC_TRY(std::vector<double> ends, number_array_field(request, "", "range"));
    if (ends.size() != 2 || !std::isfinite(ends[0]) || !std::isfinite(ends[1]) || !(ends[0] < ends[1])) {
      return invalid_argument("range", "range must be [lower, upper] with finite lower < upper.");
    }
    grid.lower = ends[0];
    grid.upper = ends[1];
  }
  DPCALC_TRY(groupwise::SimulationSummary summary,
             groupwise::simulate(noise, count, static_cast<std::uint64_t>(checked_samples),
                                 static_cast<std::uint64_t>(checked_seed), grid, progress));
  Value result = Value::object();
  result.set("count", count);
  set_noise_fields(result, noise);
  result.set("samples", static_cast<double>(summary.samples));
  result.set("seed", checked_seed);
  result.set("mean", summary.mean);
  result.set("sd", summary.sd);
  result.set("mean_absolute_error", summary.mean_absolute_error);
  result.set("mean_relative_error", relative_or_null(summary.mean_absolute_error, count));
  Value histogram = Value::object();
  histogram.set("edges", Value::numbers(summary.edges));
  histogram.set("counts", Value::numbers(summary.counts));
  histogram.set("below", summary.below);
  histogram.set("above", summary.above);
  result.set("histogram", std::move(histogram));
  Value fit = Value::object();
  fit.set("mean", summary.fit_mean);
  fit.set("sd", summary.fit_sd);
  fit.set("counts", Value::numbers(summary.fit_counts));
  result.set("fit", std::move(fit));
  Value exact = Value::object();
  exact.set("mean", count);
  exact.set("sd", groupwise::output_sd(noise, count));
  const double absolute = groupwise::expected_absolute_error(noise, count);
  exact.set("mean_absolute_error", absolute);
  exact.set("mean_relative_error", relative_or_null(absolute, count));
  result.set("exact", std::move(exact));
  result.set("method", "Monte Carlo simulation of Algorithm 1 (Boost.Random mt19937_64, ziggurat normals)");
  set_citation(result, kAlgorithmCitation, kAlgorithmKey);
  return finite_or_noise_too_large(std::move(result), request);
}

Result<Value> groupwise_privacy_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(TwoStageNoise noise, read_noise(request));
  DPCALC_TRY(double checked_relative_error, check_quadrature_relative_error(noise.relative_error));
  (void)checked_relative_error;
  DPCALC_TRY(const Value* counts, member(request, "", "counts"));
  if (!counts->is_array() || counts->as_array().empty() || counts->as_array().size() > kMaxGroups) {
    return invalid_argument("counts",
                            "counts must be an array of 1 to " + std::to_string(kMaxGroups) + " group counts.");
  }
  std::vector<double> checked_counts;
  for (std::size_t i = 0; i < counts->as_array().size(); ++i) {
    const std::string field = "counts." + std::to_string(i);
    const Value& item = counts->as_array()[i];
    if (!item.is_number()) return invalid_argument(field, field + " must be a number (got " + item.kind_name() + ").");
    DPCALC_TRY(double count, check_whole_number(item.as_number(), 0, groupwise::kMaxGroupCount, field));
    checked_counts.push_back(count);
  }
  DPCALC_TRY(std::optional<double> delta, read_delta(request));
  DPCALC_TRY(std::vector<double> orders, read_orders(request));
  Value groups = Value::array();
  const double total = double(checked_counts.size());
  for (std::size_t i = 0; i < checked_counts.size(); ++i) {
    const auto group_progress = [&progress, i, total](double fraction) {
      return !progress || progress((double(i) + fraction) / total);
    };
    Result<Value> group = group_value(noise, checked_counts[i], orders, delta, group_progress);
    if (!group.ok()) {
      // The estimate names its own parameters: the count, and the first stage's noise.
      Error error = group.error();
      if (error.field == "count") error.field = "counts." + std::to_string(i);
      if (error.field == "noise") error.field = has_field(request, "rho") ? "rho" : "sigma";
      return error;
    }
    groups.push(std::move(group.value()));
  }
  Value result = Value::object();
  set_noise_fields(result, noise);
  result.set("groups", std::move(groups));
  result.set("proven", proven_value(1 / (2 * noise.sigma * noise.sigma), delta));
  describe_estimate(result);
  return finite_or_noise_too_large(std::move(result), request);
}

Result<Value> groupwise_plan_op(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(double r, number_field(request, "", "relative_error"));
  DPCALC_TRY(double rate, check_rate(r, "relative_error"));
  DPCALC_TRY(double relative_error, check_quadrature_relative_error(rate));
  DPCALC_TRY(double count, read_count(request, "", "count", 1));
  DPCALC_TRY(std::optional<double> delta, read_delta(request));
  DPCALC_TRY(std::vector<double> orders, read_orders(request));
  DPCALC_TRY(const groupwise::Plan plan, groupwise::plan_first_stage(relative_error, count));
  if (plan.rho > groupwise::kMaxRho) {
    return invalid_argument("count", "For this count and relative_error the first stage would need rho above " +
                                         format_number(groupwise::kMaxRho) +
                                         "; no estimate is given. Use a larger "
                                         "count or relative_error.");
  }
  const TwoStageNoise noise{plan.sigma, relative_error};
  Result<Value> group = group_value(noise, count, orders, delta, progress);
  if (!group.ok()) {
    Error error = group.error();
    if (error.field == "count" || error.field == "noise") error.field = "count";
    return error;
  }
  Value result = Value::object();
  set_noise_fields(result, noise);
  result.set("count", count);
  result.set("expected_absolute_error", plan.expected_absolute_error);
  result.set("expected_relative_error", plan.expected_absolute_error / count);
  result.set("group", std::move(group.value()));
  result.set("proven", proven_value(plan.rho, delta));
  describe_estimate(result);
  return result;
}

}  // namespace dpcalc::api
