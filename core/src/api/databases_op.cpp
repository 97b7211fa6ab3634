// {op:'databases', ...}: composition over several databases with membership constraints and an
// uninformative-prior adversary (dpcalc/databases/). See docs/API.md.
#include "dpcalc/api/databases_op.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/kept_answer.hpp"
#include "dpcalc/api/mechanism_io.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/databases/composer.hpp"
#include "dpcalc/databases/footprints.hpp"
#include "dpcalc/databases/parallel.hpp"
#include "dpcalc/databases/uninformative.hpp"
#include "dpcalc/databases/worst_case.hpp"

namespace dpcalc::api {
namespace {

// Why a membership constraint given beside this adversary is not applied (the page shows the two
// side by side): the prior is over every non-empty set of databases. Under a constraint, a prior over
// the allowed sets only is a mixture of allowed pairs, which the constrained worst case bounds by the
// joint convexity of the hockey-stick divergence.
constexpr const char* kUninformativeConstraintNote =
    "No membership constraint applies here: the uninformative prior is uniform over every non-empty set of the "
    "databases (Hartmann, Bindschaedler, West 2022, Sec. V-B), including sets a constraint excludes. Under a "
    "constraint, the constrained worst case also bounds an uninformative prior over the allowed sets.";

using namespace dpcalc::databases;

constexpr std::size_t kMaxClasses = 1000;
constexpr MethodInfo kGeneralizedComposition{"Generalized composition experiment",
                                             "Hartmann, Bindschaedler, West 2022, Thm 1 and Sec. V-A",
                                             "hartmann2022choice"};

// The citation of a result obtained by `first`, then `second`: both works, in that order.
void cite_both(Value& result, const MethodInfo& first, const MethodInfo& second) {
  set_citation(result, std::string(first.citation) + "; " + second.citation,
               std::string(first.citation_key) + " " + second.citation_key);
}

Result<CompositionMethod> read_databases_method(const Value& request) {
  DPCALC_TRY(std::string name, string_field(request, "", "method"));
  DPCALC_TRY(auto variant, optional_string_field(request, "", "variant"));
  if (variant && name != "advanced") {
    return invalid_argument("variant", "variant applies to method 'advanced' only (got method '" + name + "').");
  }
  if (name == "basic") return CompositionMethod::kBasic;
  if (name == "optimal") return CompositionMethod::kOptimal;
  if (name == "zcdp") return CompositionMethod::kZcdp;
  if (name == "pld") return CompositionMethod::kPld;
  if (name != "advanced") return unknown_choice("method", name, {"basic", "advanced", "optimal", "zcdp", "pld"});
  if (!variant || *variant == "kairouz") return CompositionMethod::kAdvancedKov;
  if (*variant == "dwork_rothblum_vadhan") return CompositionMethod::kAdvancedDrv;
  return unknown_choice("variant", *variant, {"kairouz", "dwork_rothblum_vadhan"});
}

Result<double> whole_number_or_one(const Value& object, const std::string& path, const std::string& key) {
  DPCALC_TRY(auto value, optional_number_field(object, path, key.c_str()));
  if (!value) return 1.0;
  return check_count(*value, field_path(path, key));
}

Result<Release> read_release(const Value& object, const std::string& path) {
  const bool has_mechanism = has_field(object, "mechanism");
  if (has_mechanism == has_field(object, "guarantee")) {
    return invalid_argument(path, path + " needs exactly one of 'guarantee' and 'mechanism'.");
  }
  if (has_mechanism) {
    DPCALC_TRY(mechanisms::MechanismPtr mechanism,
               read_mechanism(*object.find("mechanism"), field_path(path, "mechanism")));
    return Release{std::move(mechanism)};
  }
  const std::string field = field_path(path, "guarantee");
  DPCALC_TRY(Guarantee parsed, read_guarantee(*object.find("guarantee"), field));
  if (const auto* pure = std::get_if<PureDp>(&parsed)) return Release{ApproxDp{pure->epsilon, 0}};
  if (const auto* approx = std::get_if<ApproxDp>(&parsed)) return Release{*approx};
  if (const auto* zcdp = std::get_if<Zcdp>(&parsed)) return Release{*zcdp};
  return Error{kUnsupported, field_path(field, "type"),
               "An RDP curve is not supported here; give the mechanism, or a pure, approx or zCDP guarantee."};
}

Result<std::vector<DatabaseClass>> read_classes(const Value& request) {
  DPCALC_TRY(const Value* databases, member(request, "", "databases"));
  if (!databases->is_array() || databases->as_array().empty()) {
    return invalid_argument("databases",
                            "databases must be a non-empty array of classes "
                            "{guarantee | mechanism, count, queries}.");
  }
  if (databases->as_array().size() > kMaxClasses) {
    return invalid_argument("databases", "databases lists " + std::to_string(databases->as_array().size()) +
                                             " classes; at most " + std::to_string(kMaxClasses) +
                                             " are supported (give identical databases as one class with a count).");
  }
  DPCALC_TRY(const mechanisms::Relation relation, read_relation(request));
  std::vector<DatabaseClass> classes;
  for (std::size_t i = 0; i < databases->as_array().size(); ++i) {
    const std::string path = "databases." + std::to_string(i);
    DPCALC_TRY(const Value* object, require_object(databases->as_array()[i], path));
    DatabaseClass database_class;
    database_class.field = path;
    DPCALC_TRY(database_class.release, read_release(*object, path));
    database_class.relation = relation;
    if (const mechanisms::Mechanism* mechanism = release_mechanism(database_class)) {
      DPCALC_TRY(const bool supported, check_relation(request, *mechanism, relation));
      (void)supported;
    }
    DPCALC_TRY(database_class.count, whole_number_or_one(*object, path, "count"));
    DPCALC_TRY(database_class.queries, whole_number_or_one(*object, path, "queries"));
    classes.push_back(std::move(database_class));
  }
  DPCALC_TRY(double total, check_count(total_databases(classes), "databases"));
  (void)total;
  return classes;
}

Result<std::vector<std::vector<std::size_t>>> read_families(const Value& constraint) {
  DPCALC_TRY(const Value* families, member(constraint, "constraint", "families"));
  if (!families->is_array()) {
    return invalid_argument("constraint.families",
                            "constraint.families must be an array of families "
                            "(each an array of class indices).");
  }
  std::vector<std::vector<std::size_t>> result;
  for (std::size_t i = 0; i < families->as_array().size(); ++i) {
    const std::string path = "constraint.families." + std::to_string(i);
    const Value& family = families->as_array()[i];
    if (!family.is_array())
      return invalid_argument(path, path + " must be an array of class indices (got " + family.kind_name() + ").");
    std::vector<std::size_t> indices;
    for (std::size_t j = 0; j < family.as_array().size(); ++j) {
      const std::string item = path + "." + std::to_string(j);
      const Value& index = family.as_array()[j];
      const double number = index.is_number() ? index.as_number() : -1;
      if (!(number >= 0 && number < 1e9 && std::floor(number) == number)) {
        return invalid_argument(item, item +
                                          " must be a class index: a whole number from 0 (the position of the "
                                          "class in databases).");
      }
      indices.push_back(static_cast<std::size_t>(number));
    }
    result.push_back(std::move(indices));
  }
  return result;
}

Result<Constraint> read_constraint(const Value& request) {
  Constraint constraint;
  constraint.at_most_field = "constraint.m";
  constraint.families_field = "constraint.families";
  const Value* value = request.find("constraint");
  if (value == nullptr || value->is_null()) return constraint;
  DPCALC_TRY(const Value* object, require_object(*value, "constraint"));
  DPCALC_TRY(std::string type, string_field(*object, "constraint", "type"));
  const bool has_m = object->find("m") && !object->find("m")->is_null();
  const bool has_families = object->find("families") && !object->find("families")->is_null();
  if (has_m && type != "at_most")
    return invalid_argument("constraint.m", "constraint.m applies to type 'at_most' only.");
  if (has_families && type != "families") {
    return invalid_argument("constraint.families", "constraint.families applies to type 'families' only.");
  }
  if (type == "none") return constraint;
  if (type == "exactly_one") {
    constraint.type = ConstraintType::kExactlyOne;
    return constraint;
  }
  if (type == "at_most") {
    constraint.type = ConstraintType::kAtMost;
    DPCALC_TRY(constraint.at_most, number_field(*object, "constraint", "m"));
    return constraint;
  }
  if (type == "families") {
    constraint.type = ConstraintType::kFamilies;
    DPCALC_TRY(constraint.families, read_families(*object));
    return constraint;
  }
  return unknown_choice("constraint.type", type, {"none", "at_most", "exactly_one", "families"});
}

Result<bool> read_choice(const Value& request, const std::string& key, const std::string& default_value,
                         const std::string& other) {
  DPCALC_TRY(auto value, optional_string_field(request, "", key.c_str()));
  if (!value || *value == default_value) return false;
  if (*value == other) return true;
  return unknown_choice(key, *value, {default_value, other});
}

Value guarantee_value(const Composed& composed) {
  if (!composed.has_approx) return to_value(*composed.zcdp);
  if (composed.pure) return to_value(PureDp{composed.approx.epsilon});
  return to_value(composed.approx);
}

// The guarantee and what comes with it (the PLD bracket, the ρ of a converted zCDP composition).
void describe(Value& result, const Composed& composed) {
  result.set("guarantee", guarantee_value(composed));
  if (composed.has_approx && is_vacuous(composed.approx)) result.set("vacuous", true);
  if (composed.zcdp && composed.has_approx) result.set("zcdp", to_value(*composed.zcdp));
  if (composed.bracket) {
    result.set("epsilon_upper", composed.bracket->epsilon_upper);
    result.set("epsilon_lower", composed.bracket->epsilon_lower);
    result.set("discretization", composed.bracket->discretization.discretization_interval);
    result.set("grid_size", static_cast<double>(composed.bracket->discretization.grid_size));
    result.set("truncated_mass", composed.bracket->discretization.truncated_mass);
  }
}

Value footprint_value(const std::vector<DatabaseClass>& classes, const Footprint& footprint) {
  Value value = Value::object();
  value.set("databases", footprint_databases(footprint));
  value.set("releases", footprint_releases(classes, footprint));
  value.set("classes", Value::numbers(footprint));
  return value;
}

// For overflow errors (fuzz seed 1 found a bare "result overflowed" on field ''): the noise or
// guarantee field of the class with the largest count · queries · (per-release ε, or ρ under zCDP).
std::string overflow_field(const std::vector<DatabaseClass>& classes, CompositionMethod method) {
  const auto log_size = [method](const DatabaseClass& database_class) {
    double size = 0;
    const mechanisms::Mechanism* mechanism = release_mechanism(database_class);
    if (method == CompositionMethod::kZcdp) {
      const Result<Zcdp> zcdp = zcdp_release(database_class);
      size = zcdp.ok() ? zcdp.value().rho : 0;
    } else if (const auto noise = mechanism ? mechanism->gaussian() : std::nullopt) {
      size = noise->sensitivity / noise->sigma;
    } else if (const auto* zcdp = std::get_if<Zcdp>(&database_class.release)) {
      size = zcdp->rho;
    } else {
      const Result<ApproxDp> approx = approx_release(database_class);
      size = approx.ok() ? approx.value().epsilon : 0;
    }
    return std::log(size) + std::log(database_class.count) + std::log(database_class.queries);
  };
  std::size_t largest = 0;
  for (std::size_t i = 1; i < classes.size(); ++i) {
    if (!(log_size(classes[i]) <= log_size(classes[largest]))) largest = i;
  }
  const DatabaseClass& culprit = classes[largest];
  if (const mechanisms::Mechanism* mechanism = release_mechanism(culprit)) return noise_field(*mechanism);
  return field_path(release_field(culprit), std::holds_alternative<Zcdp>(culprit.release) ? "rho" : "epsilon");
}

}  // namespace

Result<DatabasesRequest> read_databases_request(const Value& request) {
  DatabasesRequest read;
  MethodOptions& options = read.options;
  DPCALC_TRY(options.method, read_databases_method(request));
  DPCALC_TRY(options.delta, optional_number_field(request, "", "delta"));
  options.classes_field = "databases";
  DPCALC_TRY(options.accounting, read_discretization(request));
  DPCALC_TRY(read.classes, read_classes(request));
  DPCALC_TRY(Constraint constraint, read_constraint(request));
  DPCALC_TRY(bool bounded, read_choice(request, "neighbours", "unbounded", "bounded"));
  DPCALC_TRY(read.uninformed, read_choice(request, "adversary", "worst_case", "uninformative"));
  if (read.uninformed && constraint.type != ConstraintType::kNone) {
    return invalid_argument("adversary",
                            "adversary 'uninformative' (in none against in at least one of the databases, "
                            "nothing more known) covers constraint type 'none' only.");
  }
  if (read.uninformed && bounded) {
    return invalid_argument("neighbours",
                            "adversary 'uninformative' compares 'in none' with 'in at least one' of the "
                            "databases: unbounded neighbours only.");
  }
  DPCALC_TRY(bool valid, check_method(read.classes, options));
  (void)valid;
  DPCALC_TRY(read.allowed,
             allowed_footprints(read.classes, constraint, bounded ? Neighbours::kBounded : Neighbours::kUnbounded));
  return read;
}

namespace {

Result<Value> databases_answer(const Value& request, const pld::ProgressCallback& progress) {
  DPCALC_TRY(DatabasesRequest read, read_databases_request(request));
  MethodOptions& options = read.options;
  options.progress = progress;
  const std::vector<DatabaseClass>& classes = read.classes;
  const AllowedFootprints& allowed = read.allowed;
  const bool uninformed = read.uninformed;

  const MethodInfo& composition = method_info(options.method);
  const Footprint everything = all_databases(classes);
  Value result = Value::object();
  if (options.delta && options.method == CompositionMethod::kBasic) {
    result.set("delta_note", "Basic composition adds up the releases' δ; the delta of the request is not used.");
  }
  Composed classic;
  if (uninformed) {
    DPCALC_TRY(classic, compose_footprint(classes, everything, options));
    DPCALC_TRY(Uninformative answer, uninformative(classes, classic, options));
    describe(result, answer.guarantee);
    result.set("footprint", footprint_value(classes, everything));
    result.set("method", answer.capped ? composition.method : answer.info->method);
    if (answer.capped) {
      cite_both(result, composition, kGeneralizedComposition);
    } else {
      cite_both(result, *answer.info, composition);
    }
    result.set("exact", false);
    result.set("note",
               answer.note.empty() ? kUninformativeConstraintNote : answer.note + " " + kUninformativeConstraintNote);
  } else {
    if (options.method == CompositionMethod::kPld) {
      // For its trade-off (kept_answer.hpp): the footprints it reads PLDs of, which are those the
      // worst case composes (pld_worst_footprints); the composition of every database below is not.
      options.answered_footprint = [&request, &classes](const Footprint& footprint, pld::AnsweredEpsilon answered) {
        if (!gaussian_footprint(classes, footprint)) keep_answer(request, std::move(answered), footprint);
      };
    }
    DPCALC_TRY(WorstCase answer, worst_case(classes, allowed, options));
    options.answered_footprint = nullptr;
    describe(result, answer.guarantee);
    result.set("footprint", footprint_value(classes, answer.footprint));
    result.set("method", composition.method);
    cite_both(result, composition, kGeneralizedComposition);
    result.set("exact", answer.exact);
    if (!answer.note.empty()) result.set("note", answer.note);
    if (auto parallel = merged_parallel(classes, allowed)) {
      Value merged = Value::object();
      merged.set("guarantee", to_value(*parallel));
      set_method(merged, kMergedParallel);
      result.set("parallel", std::move(merged));
    }
    if (answer.footprint == everything) {
      classic = answer.guarantee;
    } else {
      Result<Composed> composed = compose_footprint(classes, everything, options);
      if (!composed.ok()) {
        // E.g. a δ target that the constrained footprint meets but composing everything cannot.
        const Error& error = composed.error();
        Value details = Value::object();
        details.set("code", error.code).set("field", error.field).set("message", error.message);
        result.set("classic", Value::object().set("error", std::move(details)));
        return finite_or_overflow(std::move(result), overflow_field(classes, options.method));
      }
      classic = composed.value();
    }
  }
  Value classic_value = Value::object();
  describe(classic_value, classic);
  classic_value.set("footprint", footprint_value(classes, everything));
  set_method(classic_value, composition);
  result.set("classic", std::move(classic_value));
  return finite_or_overflow(std::move(result), overflow_field(classes, options.method));
}

}  // namespace

Result<Value> databases_op(const Value& request, const pld::ProgressCallback& progress) {
  Result<Value> answer = databases_answer(request, progress);
  if (!answer.ok()) return discretization_in_request_terms(answer.error(), request);
  return answer;
}

}  // namespace dpcalc::api
