// An op in three steps (DESIGN.md, "The typed middle"):
//   read(Value) → Request    the request checked and typed, each value with its request path;
//   answer(Request) → Answer the guarantee, its bracket, the PLDs or curve where there is one,
//                            method, citation, notes: a value that other ops reuse;
//   write(Answer) → Value    the result object;
// and, for the ops whose answers have a trade-off, explain(Answer) → Explained (explain.hpp). The op
// table (op_table.hpp) holds one entry per op, made by make_op from its steps: compute() runs them,
// op 'tradeoff' and `explain: true` run read, answer and explain. Ops that build on other ops (the
// trade-off, the solvers, calibration, the audit of a claim) call the other op's typed steps, never
// its Value reader on a built request or its result.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dpcalc/api/explain.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/schema.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/pld/pld.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::api {

using Progress = pld::ProgressCallback;

// Closed forms answer in microseconds; numeric ops may run for seconds, report progress and can be
// cancelled (the page runs them in a worker of their own).
enum class Lane { kClosedForm, kNumeric };

// A request of a closed-form op runs in the numeric lane when its `field` equals `value`.
struct NumericWhen {
  std::string field;
  std::string value;
};

// What every answer carries for the op table: the request field an overflowing result (a number
// beyond the doubles, compute.hpp) is blamed on, "" when none is to blame, and what to say of it
// ("" for the sentence of fields.hpp: overflow).
struct AnswerBase {
  std::string overflow_field;
  std::string overflow_message;
};

// An op's steps. `read` takes the path the request sits at ("" for a request, "of" for the request
// a trade-off explains), so that its errors and the paths it keeps name the field where it is.
template <class Request, class Answer>
struct OpSteps {
  Result<Request> (*read)(const Value& request, const std::string& at);
  Result<Answer> (*answer)(const Request& request, const Progress& progress);
  Value (*write)(const Answer& answer);
  Result<Explained> (*explain)(const Answer& answer, const tradeoff::TradeoffOptions& options,
                               const Progress& progress) = nullptr;
  // Whether a request has a trade-off (a forward request, not a solve or a calibration), checked
  // before it is answered for one; null when every request of the op has.
  Result<bool> (*explainable)(const Request& request) = nullptr;
};

struct Op {
  const Shape* shape = nullptr;  // shape->name is the op's name
  Lane lane = Lane::kClosedForm;
  std::vector<NumericWhen> numeric_when;
  // read, answer, write; with `explaining`, the answer's trade-off too, as result.tradeoff.
  std::function<Result<Value>(const Value& request, const Progress& progress,
                              const std::optional<tradeoff::TradeoffOptions>& explaining)>
      run;
  // read (at `at`), answer, explain; empty for an op whose answers have no trade-off.
  std::function<Result<Explained>(const Value& request, const std::string& at, const tradeoff::TradeoffOptions& options,
                                  const Progress& progress)>
      explain;
};

// The error for a result with a number beyond the doubles, blamed on `field` (fields.hpp: overflow).
Error overflowed(const std::string& field);

// True, or the answer's overflow error when its written result holds a number beyond the doubles.
Result<bool> finite_answer(const AnswerBase& answer, const Value& result);

template <class Request, class Answer>
Op make_op(const Shape& shape, Lane lane, std::vector<NumericWhen> numeric_when, OpSteps<Request, Answer> steps) {
  Op op;
  op.shape = &shape;
  op.lane = lane;
  op.numeric_when = std::move(numeric_when);
  op.run = [steps](const Value& request, const Progress& progress,
                   const std::optional<tradeoff::TradeoffOptions>& explaining) -> Result<Value> {
    DPCALC_TRY(const Request read, steps.read(request, ""));
    if (explaining && steps.explainable) DPCALC_CHECK(steps.explainable(read));
    DPCALC_TRY(const Answer answered, steps.answer(read, progress));
    Value result = steps.write(answered);
    DPCALC_CHECK(finite_answer(answered, result));
    if (explaining && steps.explain) {
      DPCALC_TRY(const Explained explained, steps.explain(answered, *explaining, progress));
      result.set("tradeoff", write_tradeoff(explained));
    }
    return result;
  };
  if (steps.explain) {
    op.explain = [steps](const Value& request, const std::string& at, const tradeoff::TradeoffOptions& options,
                         const Progress& progress) -> Result<Explained> {
      DPCALC_TRY(const Request read, steps.read(request, at));
      if (steps.explainable) DPCALC_CHECK(steps.explainable(read));
      DPCALC_TRY(const Answer answered, steps.answer(read, progress));
      // An answer beyond the doubles is refused here as its own request refuses it.
      if (!answered.overflow_field.empty()) DPCALC_CHECK(finite_answer(answered, steps.write(answered)));
      return steps.explain(answered, options, progress);
    };
  }
  return op;
}

}  // namespace dpcalc::api
