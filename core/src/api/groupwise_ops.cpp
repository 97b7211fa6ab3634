#include "dpcalc/api/groupwise_ops.hpp"

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/groupwise/output_density.hpp"

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
Result<TwoStageNoise> read_noise(const Value& request, const std::string& at, bool& by_rho) {
  const std::string rho_path = field_path(at, "rho"), sigma_path = field_path(at, "sigma");
  DPCALC_TRY(auto rho, optional_number_field(request, at, "rho"));
  DPCALC_TRY(auto sigma, optional_number_field(request, at, "sigma"));
  if (!rho && !sigma) {
    return invalid_argument(rho_path,
                            "rho (the first stage's zCDP parameter) or sigma (its noise scale) is required: "
                            "give exactly one of them.");
  }
  if (rho && sigma) {
    return invalid_argument(sigma_path,
                            "Give exactly one of rho (the first stage's zCDP parameter) and sigma (its noise "
                            "scale), not both.");
  }
  by_rho = rho.has_value();
  TwoStageNoise noise;
  const double min_sigma = 1 / std::sqrt(2 * groupwise::kMaxRho);
  if (rho) {
    DPCALC_TRY(double checked, check_positive(*rho, rho_path));
    if (checked > groupwise::kMaxRho) {
      return invalid_argument(rho_path, "rho must be at most " + format_number(groupwise::kMaxRho) + " (got " +
                                            format_number(checked) + ").");
    }
    noise.sigma = 1 / std::sqrt(2 * checked);
  } else {
    DPCALC_TRY(double checked, check_positive(*sigma, sigma_path));
    if (checked < min_sigma) {
      return invalid_argument(
          sigma_path, "sigma must be at least " + format_number(min_sigma) + " (got " + format_number(checked) + ").");
    }
    noise.sigma = checked;
  }
  DPCALC_TRY(double r, number_field(request, at, "relative_error"));
  DPCALC_TRY(noise.relative_error, check_rate(r, field_path(at, "relative_error")));
  return noise;
}

// The output's spread grows with σ (sd(Y)² = σ² + r²(x² + σ²)); where a result overflows a double,
// the noise is too large.
void blame_the_noise(AnswerBase& answer, const std::string& at, bool by_rho) {
  answer.overflow_field = field_path(at, by_rho ? "rho" : "sigma");
  answer.overflow_message = std::string(by_rho ? "rho is too small" : "sigma is too large") +
                            " for this computation: the spread of the output would exceed the largest number a "
                            "double can hold (about 1.8e308). Use a " +
                            (by_rho ? "larger rho." : "smaller sigma.");
}

// The quadrature of the output density (groupwise_privacy, groupwise_plan) resolves the second
// stage's noise r·X only down to this r: below it the work grows without bound and the inner
// quadrature fails.
constexpr double kSmallestQuadratureRelativeError = 1e-6;

Result<double> check_quadrature_relative_error(double relative_error, const std::string& at) {
  if (relative_error >= kSmallestQuadratureRelativeError) return relative_error;
  return invalid_argument(field_path(at, "relative_error"), "relative_error must be at least " +
                                                                format_number(kSmallestQuadratureRelativeError) + " " +
                                                                got(relative_error) +
                                                                " for the numerical estimate: a narrower second "
                                                                "stage is beyond what its quadrature resolves.");
}

Result<double> read_group_count(const Value& object, const std::string& at, const char* key, double minimum) {
  DPCALC_TRY(double count, number_field(object, at, key));
  return check_whole_number(count, minimum, groupwise::kMaxGroupCount, field_path(at, key));
}

Result<std::optional<double>> read_optional_delta(const Value& request, const std::string& at) {
  DPCALC_TRY(auto delta, optional_number_field(request, at, "delta"));
  if (!delta) return std::optional<double>{};
  DPCALC_TRY(double checked, check_positive_delta(*delta, field_path(at, "delta")));
  return std::optional<double>{checked};
}

Result<std::vector<double>> read_estimate_orders(const Value& request, const std::string& at) {
  if (request.find("orders") == nullptr || request.find("orders")->is_null()) return groupwise::default_orders();
  const std::string path = field_path(at, "orders");
  DPCALC_TRY(std::vector<double> orders, number_array_field(request, at, "orders"));
  if (orders.empty() || orders.size() > kMaxOrders) {
    return invalid_argument(path, path + " must list 1 to " + std::to_string(kMaxOrders) + " Rényi orders.");
  }
  for (std::size_t i = 0; i < orders.size(); ++i) {
    const std::string field = field_path(path, std::to_string(i));
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

// The estimate for one group.
Result<groupwise::GroupPrivacyEstimate> estimate_group(const TwoStageNoise& noise, double count,
                                                       const std::vector<double>& orders, std::optional<double> delta,
                                                       const groupwise::ProgressCallback& progress) {
  const double rho = 1 / (2 * noise.sigma * noise.sigma);
  const double ceiling = delta ? zcdp_to_approx_canonne_kamath_steinke(Zcdp{rho}, *delta).epsilon + 1 : 0;
  return groupwise::estimate_group_privacy(noise, count, orders, delta, ceiling, progress);
}

Value group_value(const TwoStageNoise& noise, const groupwise::GroupPrivacyEstimate& estimate) {
  Value group = Value::object();
  group.set("count", estimate.count);
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
  const double absolute = groupwise::expected_absolute_error(noise, estimate.count);
  group.set("expected_absolute_error", absolute);
  group.set("expected_relative_error", relative_or_null(absolute, estimate.count));
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

Result<GroupwiseSimulateRequest> read_groupwise_simulate(const Value& request, const std::string& at) {
  GroupwiseSimulateRequest read;
  read.at = at;
  DPCALC_TRY(read.noise, read_noise(request, at, read.by_rho));
  DPCALC_TRY(read.count, read_group_count(request, at, "count", 0));
  DPCALC_TRY(double samples, number_field(request, at, "samples"));
  DPCALC_TRY(read.samples, check_whole_number(samples, 2, groupwise::kMaxSamples, field_path(at, "samples")));
  DPCALC_TRY(auto seed, optional_number_field(request, at, "seed"));
  DPCALC_TRY(read.seed, check_whole_number(seed.value_or(1), 0, kMaxCount, field_path(at, "seed")));
  read.grid = groupwise::default_grid(read.noise, read.count);
  DPCALC_TRY(auto bins, optional_number_field(request, at, "bins"));
  if (bins) {
    DPCALC_TRY(double checked_bins, check_whole_number(*bins, 1, groupwise::kMaxBins, field_path(at, "bins")));
    read.grid.bins = static_cast<int>(checked_bins);
  }
  if (const Value* range = request.find("range"); range != nullptr && !range->is_null()) {
    DPCALC_TRY(std::vector<double> ends, number_array_field(request, at, "range"));
    if (ends.size() != 2 || !std::isfinite(ends[0]) || !std::isfinite(ends[1]) || !(ends[0] < ends[1])) {
      return invalid_argument(field_path(at, "range"), "range must be [lower, upper] with finite lower < upper.");
    }
    read.grid.lower = ends[0];
    read.grid.upper = ends[1];
  }
  return read;
}

Result<GroupwiseSimulateAnswer> answer_groupwise_simulate(const GroupwiseSimulateRequest& request,
                                                          const Progress& progress) {
  GroupwiseSimulateAnswer answer;
  answer.request = request;
  blame_the_noise(answer, request.at, request.by_rho);
  DPCALC_TRY(answer.summary,
             groupwise::simulate(request.noise, request.count, static_cast<std::uint64_t>(request.samples),
                                 static_cast<std::uint64_t>(request.seed), request.grid, progress));
  return answer;
}

Value write_groupwise_simulate(const GroupwiseSimulateAnswer& answer) {
  const GroupwiseSimulateRequest& request = answer.request;
  const groupwise::SimulationSummary& summary = answer.summary;
  Value result = Value::object();
  result.set("count", request.count);
  set_noise_fields(result, request.noise);
  result.set("samples", static_cast<double>(summary.samples));
  result.set("seed", request.seed);
  result.set("mean", summary.mean);
  result.set("sd", summary.sd);
  result.set("mean_absolute_error", summary.mean_absolute_error);
  result.set("mean_relative_error", relative_or_null(summary.mean_absolute_error, request.count));
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
  exact.set("mean", request.count);
  exact.set("sd", groupwise::output_sd(request.noise, request.count));
  const double absolute = groupwise::expected_absolute_error(request.noise, request.count);
  exact.set("mean_absolute_error", absolute);
  exact.set("mean_relative_error", relative_or_null(absolute, request.count));
  result.set("exact", std::move(exact));
  result.set("method", "Monte Carlo simulation of Algorithm 1 (Boost.Random mt19937_64, ziggurat normals)");
  set_citation(result, kAlgorithmCitation, kAlgorithmKey);
  return result;
}

Result<GroupwisePrivacyRequest> read_groupwise_privacy(const Value& request, const std::string& at) {
  GroupwisePrivacyRequest read;
  read.at = at;
  DPCALC_TRY(read.noise, read_noise(request, at, read.by_rho));
  DPCALC_CHECK(check_quadrature_relative_error(read.noise.relative_error, at));
  const std::string path = field_path(at, "counts");
  DPCALC_TRY(const Value* counts, member(request, at, "counts"));
  if (!counts->is_array() || counts->as_array().empty() || counts->as_array().size() > kMaxGroups) {
    return invalid_argument(path, path + " must be an array of 1 to " + std::to_string(kMaxGroups) + " group counts.");
  }
  for (std::size_t i = 0; i < counts->as_array().size(); ++i) {
    const std::string field = field_path(path, std::to_string(i));
    const Value& item = counts->as_array()[i];
    if (!item.is_number()) return invalid_argument(field, field + " must be a number (got " + item.kind_name() + ").");
    DPCALC_TRY(double count, check_whole_number(item.as_number(), 0, groupwise::kMaxGroupCount, field));
    read.counts.push_back(count);
  }
  DPCALC_TRY(read.delta, read_optional_delta(request, at));
  DPCALC_TRY(read.orders, read_estimate_orders(request, at));
  return read;
}

Result<GroupwisePrivacyAnswer> answer_groupwise_privacy(const GroupwisePrivacyRequest& request,
                                                        const Progress& progress) {
  GroupwisePrivacyAnswer answer;
  answer.noise = request.noise;
  answer.delta = request.delta;
  blame_the_noise(answer, request.at, request.by_rho);
  const double total = double(request.counts.size());
  for (std::size_t i = 0; i < request.counts.size(); ++i) {
    const auto group_progress = [&progress, i, total](double fraction) {
      return !progress || progress((double(i) + fraction) / total);
    };
    Result<groupwise::GroupPrivacyEstimate> group =
        estimate_group(request.noise, request.counts[i], request.orders, request.delta, group_progress);
    if (!group.ok()) {
      // The estimate names its own parameters: the count, and the first stage's noise.
      Error error = std::move(group).error();
      if (error.field == "count") error.field = field_path(field_path(request.at, "counts"), std::to_string(i));
      if (error.field == "noise") error.field = field_path(request.at, request.by_rho ? "rho" : "sigma");
      return error;
    }
    answer.groups.push_back(std::move(group.value()));
  }
  return answer;
}

Value write_groupwise_privacy(const GroupwisePrivacyAnswer& answer) {
  Value groups = Value::array();
  for (const groupwise::GroupPrivacyEstimate& group : answer.groups) groups.push(group_value(answer.noise, group));
  Value result = Value::object();
  set_noise_fields(result, answer.noise);
  result.set("groups", std::move(groups));
  result.set("proven", proven_value(1 / (2 * answer.noise.sigma * answer.noise.sigma), answer.delta));
  describe_estimate(result);
  return result;
}

Result<GroupwisePlanRequest> read_groupwise_plan(const Value& request, const std::string& at) {
  GroupwisePlanRequest read;
  read.at = at;
  DPCALC_TRY(double r, number_field(request, at, "relative_error"));
  DPCALC_TRY(double rate, check_rate(r, field_path(at, "relative_error")));
  DPCALC_TRY(read.relative_error, check_quadrature_relative_error(rate, at));
  DPCALC_TRY(read.count, read_group_count(request, at, "count", 1));
  DPCALC_TRY(read.delta, read_optional_delta(request, at));
  DPCALC_TRY(read.orders, read_estimate_orders(request, at));
  return read;
}

Result<GroupwisePlanAnswer> answer_groupwise_plan(const GroupwisePlanRequest& request, const Progress& progress) {
  GroupwisePlanAnswer answer;
  answer.count = request.count;
  answer.delta = request.delta;
  Result<groupwise::Plan> plan = groupwise::plan_first_stage(request.relative_error, request.count);
  if (!plan.ok()) {
    Error error = std::move(plan).error();
    error.field = field_path(request.at, "relative_error");
    return error;
  }
  answer.plan = plan.value();
  if (answer.plan.rho > groupwise::kMaxRho) {
    return invalid_argument(field_path(request.at, "count"),
                            "For this count and relative_error the first stage would need rho above " +
                                format_number(groupwise::kMaxRho) +
                                "; no estimate is given. Use a larger "
                                "count or relative_error.");
  }
  answer.noise = TwoStageNoise{answer.plan.sigma, request.relative_error};
  Result<groupwise::GroupPrivacyEstimate> group =
      estimate_group(answer.noise, request.count, request.orders, request.delta, progress);
  if (!group.ok()) {
    Error error = std::move(group).error();
    if (error.field == "count" || error.field == "noise") error.field = field_path(request.at, "count");
    return error;
  }
  answer.group = std::move(group.value());
  return answer;
}

Value write_groupwise_plan(const GroupwisePlanAnswer& answer) {
  Value result = Value::object();
  set_noise_fields(result, answer.noise);
  result.set("count", answer.count);
  result.set("expected_absolute_error", answer.plan.expected_absolute_error);
  result.set("expected_relative_error", answer.plan.expected_absolute_error / answer.count);
  result.set("group", group_value(answer.noise, answer.group));
  result.set("proven", proven_value(answer.plan.rho, answer.delta));
  describe_estimate(result);
  return result;
}

}  // namespace dpcalc::api
