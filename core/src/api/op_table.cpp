// The op table: one line per op (op.hpp: make_op with its shape, lane and steps).
#include "dpcalc/api/op_table.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/audit_op.hpp"
#include "dpcalc/api/calibrate_op.hpp"
#include "dpcalc/api/compose_op.hpp"
#include "dpcalc/api/convert_op.hpp"
#include "dpcalc/api/databases_op.hpp"
#include "dpcalc/api/dpsgd_ops.hpp"
#include "dpcalc/api/group_op.hpp"
#include "dpcalc/api/groupwise_ops.hpp"
#include "dpcalc/api/mechanism_catalog.hpp"
#include "dpcalc/api/pld_ops.hpp"
#include "dpcalc/api/rdp_op.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/api/tradeoff_op.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::api {
namespace {

// Requests of op 'group' for a mechanism whose group its type answers numerically.
std::vector<NumericWhen> numeric_groups() {
  std::vector<NumericWhen> rules;
  for (const mechanisms::MechanismType* type : mechanisms::mechanism_types()) {
    if (type->numeric_group) rules.push_back({"mechanism.type", type->name});
  }
  return rules;
}

// A trade-off takes the lane of its source: numeric when the request it explains is numeric (its
// op's lane and numeric_when, under "of."), and for a group of a mechanism that is not Gaussian
// noise, whose curve comes from its privacy loss distribution (group_op.cpp: explain_group).
// `prefix` is the field holding the request: "of." for a trade-off, "claim." for an audit.
std::vector<NumericWhen> tradeoff_numeric_when(const std::vector<Op>& ops, const std::string& prefix) {
  std::vector<NumericWhen> rules;
  const auto add = [&rules](const std::string& field, const std::string& value) {
    for (const NumericWhen& rule : rules) {
      if (rule.field == field && rule.value == value) return;
    }
    rules.push_back({field, value});
  };
  for (const Shape* request : declared(request_shapes().tradeoff, "of").requests) {
    for (const Op& op : ops) {
      if (op.shape != request) continue;
      if (op.lane == Lane::kNumeric) add(prefix + "op", request->name);
      for (const NumericWhen& rule : op.numeric_when) add(prefix + rule.field, rule.value);
    }
  }
  for (const mechanisms::MechanismType* type : mechanisms::mechanism_types()) {
    if (type != &mechanisms::gaussian_type()) add(prefix + "mechanism.type", type->name);
  }
  return rules;
}

std::vector<Op> make_table() {
  const RequestShapes& s = request_shapes();
  constexpr Lane kClosed = Lane::kClosedForm, kNumeric = Lane::kNumeric;
  std::vector<Op> ops{
      make_op(
          s.group, kClosed, numeric_groups(),
          OpSteps<GroupRequest, GroupAnswer>{read_group, answer_group, write_group, explain_group, group_explainable}),
      make_op(s.compose, kClosed, {{"method", "pld"}, {"unknown", "count"}},
              OpSteps<ComposeRequest, ComposeAnswer>{read_compose, answer_compose, write_compose, explain_compose,
                                                     compose_explainable}),
      make_op(s.convert, kClosed, {},
              OpSteps<ConvertRequest, ConvertAnswer>{read_convert, answer_convert, write_convert, explain_convert}),
      make_op(s.split, kClosed, {}, OpSteps<SplitRequest, SplitAnswer>{read_split, answer_split, write_split}),
      make_op(s.profile, kNumeric, {},
              OpSteps<ProfileRequest, ProfileAnswer>{read_profile, answer_profile, write_profile, explain_profile}),
      make_op(s.calibrate, kNumeric, {},
              OpSteps<CalibrateRequest, CalibrateAnswer>{read_calibrate, answer_calibrate, write_calibrate}),
      make_op(
          s.dpsgd, kNumeric, {},
          OpSteps<DpsgdRequest, DpsgdAnswer>{read_dpsgd, answer_dpsgd, write_dpsgd, explain_dpsgd, dpsgd_explainable}),
      make_op(s.dpsgd_samplers, kNumeric, {},
              OpSteps<DpsgdSamplersRequest, DpsgdSamplersAnswer>{read_dpsgd_samplers, answer_dpsgd_samplers,
                                                                 write_dpsgd_samplers}),
      make_op(s.dpsgd_pair, kClosed, {},
              OpSteps<DpsgdPairRequest, DpsgdPairAnswer>{read_dpsgd_pair, answer_dpsgd_pair, write_dpsgd_pair}),
      make_op(s.rdp, kClosed, {}, OpSteps<RdpRequest, RdpAnswer>{read_rdp, answer_rdp, write_rdp}),
      make_op(s.databases, kClosed, {{"method", "pld"}, {"adversary", "uninformative"}},
              OpSteps<DatabasesRequest, DatabasesAnswer>{read_databases, answer_databases, write_databases,
                                                         explain_databases}),
      make_op(s.groupwise_simulate, kNumeric, {},
              OpSteps<GroupwiseSimulateRequest, GroupwiseSimulateAnswer>{
                  read_groupwise_simulate, answer_groupwise_simulate, write_groupwise_simulate}),
      make_op(s.groupwise_privacy, kNumeric, {},
              OpSteps<GroupwisePrivacyRequest, GroupwisePrivacyAnswer>{read_groupwise_privacy, answer_groupwise_privacy,
                                                                       write_groupwise_privacy}),
      make_op(s.groupwise_plan, kNumeric, {},
              OpSteps<GroupwisePlanRequest, GroupwisePlanAnswer>{read_groupwise_plan, answer_groupwise_plan,
                                                                 write_groupwise_plan}),
  };
  std::vector<NumericWhen> tradeoff_rules = tradeoff_numeric_when(ops, "of.");
  // An audit of scores sorts up to 100,000 of them; a claim takes the lane its trade-off would.
  std::vector<NumericWhen> audit_rules = tradeoff_numeric_when(ops, "claim.");
  audit_rules.insert(audit_rules.begin(), {"evidence.kind", "scores"});
  ops.push_back(
      make_op(s.tradeoff, kClosed, std::move(tradeoff_rules),
              OpSteps<TradeoffRequest, TradeoffAnswer>{read_tradeoff, answer_tradeoff, write_tradeoff_answer}));
  ops.push_back(make_op(s.audit, kClosed, std::move(audit_rules),
                        OpSteps<AuditRequest, AuditAnswer>{read_audit, answer_audit, write_audit}));
  return ops;
}

const char* lane_name(Lane lane) { return lane == Lane::kClosedForm ? "closed_form" : "numeric"; }

}  // namespace

Error overflowed(const std::string& field) { return overflow(field); }

Result<bool> finite_answer(const AnswerBase& answer, const Value& result) {
  if (answer.overflow_field.empty() || !first_non_finite(result)) return true;
  if (!answer.overflow_message.empty()) return invalid_argument(answer.overflow_field, answer.overflow_message);
  return overflowed(answer.overflow_field);
}

const std::vector<Op>& op_table() {
  static const std::vector<Op> table = make_table();
  return table;
}

Value schema_value() {
  Value ops = Value::array();
  for (const Op& op : op_table()) {
    Value entry = Value::object();
    entry.set("name", op.shape->name).set("lane", lane_name(op.lane));
    Value numeric_when = Value::array();
    for (const NumericWhen& when : op.numeric_when) {
      numeric_when.push(Value::object().set("field", when.field).set("value", when.value));
    }
    entry.set("numeric_when", std::move(numeric_when));
    ops.push(std::move(entry));
  }
  Value schema = Value::object();
  schema.set("ops", std::move(ops));
  schema.set("shapes", shapes_value(request_shapes().all()));
  schema.set("mechanisms", mechanism_catalog_value());
  return schema;
}

}  // namespace dpcalc::api
