// Requests about Algorithm 1 of Pujol & Desfontaines 2023 (dpcalc/groupwise/), see docs/API.md:
//   {op:'groupwise_simulate', rho | sigma, relative_error, count, samples, seed?, bins?, range?}
//   {op:'groupwise_privacy', rho | sigma, relative_error, counts:[...], delta?, orders?}
//   {op:'groupwise_plan', relative_error, count, delta?, orders?}
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/op.hpp"
#include "dpcalc/groupwise/group_privacy_estimate.hpp"
#include "dpcalc/groupwise/planner.hpp"
#include "dpcalc/groupwise/simulation.hpp"

namespace dpcalc::api {

struct GroupwiseSimulateRequest {
  std::string at;
  groupwise::TwoStageNoise noise;
  bool by_rho = false;  // the request gives rho (else sigma)
  double count = 0;
  double samples = 2;
  double seed = 1;
  groupwise::HistogramGrid grid;
};
struct GroupwiseSimulateAnswer : AnswerBase {
  GroupwiseSimulateRequest request;
  groupwise::SimulationSummary summary;
};
Result<GroupwiseSimulateRequest> read_groupwise_simulate(const Value& request, const std::string& at);
Result<GroupwiseSimulateAnswer> answer_groupwise_simulate(const GroupwiseSimulateRequest& request,
                                                          const Progress& progress);
Value write_groupwise_simulate(const GroupwiseSimulateAnswer& answer);

struct GroupwisePrivacyRequest {
  std::string at;
  groupwise::TwoStageNoise noise;
  bool by_rho = false;
  std::vector<double> counts;
  std::optional<double> delta;
  std::vector<double> orders;
};
struct GroupwisePrivacyAnswer : AnswerBase {
  groupwise::TwoStageNoise noise;
  std::optional<double> delta;
  std::vector<groupwise::GroupPrivacyEstimate> groups;
};
Result<GroupwisePrivacyRequest> read_groupwise_privacy(const Value& request, const std::string& at);
Result<GroupwisePrivacyAnswer> answer_groupwise_privacy(const GroupwisePrivacyRequest& request,
                                                        const Progress& progress);
Value write_groupwise_privacy(const GroupwisePrivacyAnswer& answer);

struct GroupwisePlanRequest {
  std::string at;
  double relative_error = 1;
  double count = 1;
  std::optional<double> delta;
  std::vector<double> orders;
};
struct GroupwisePlanAnswer : AnswerBase {
  groupwise::Plan plan;
  groupwise::TwoStageNoise noise;
  double count = 1;
  std::optional<double> delta;
  groupwise::GroupPrivacyEstimate group;
};
Result<GroupwisePlanRequest> read_groupwise_plan(const Value& request, const std::string& at);
Result<GroupwisePlanAnswer> answer_groupwise_plan(const GroupwisePlanRequest& request, const Progress& progress);
Value write_groupwise_plan(const GroupwisePlanAnswer& answer);

}  // namespace dpcalc::api
