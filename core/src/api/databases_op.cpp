// {op:'databases', ...}: composition over several databases with membership constraints and an
// uninformative-prior adversary (dpcalc/databases/). See docs/API.md.
#include "dpcalc/api/databases_op.hpp"

#include <cmath>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "dpcalc/api/citation.hpp"
#include "dpcalc/api/discretization_io.hpp"
#include "dpcalc/api/fields.hpp"
#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/locate.hpp"
#include "dpcalc/api/request_shapes.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/databases/parallel.hpp"
#include "dpcalc/databases/worst_case.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"
#include "dpcalc/tradeoff/pld_tradeoff.hpp"

namespace dpcalc::api {
namespace {

using namespace dpcalc::databases;

// Why a membership constraint given beside this adversary is not applied (the page shows the two
// side by side): the prior is over every non-empty set of databases. Under a constraint, a prior over
// the allowed sets only is a mixture of allowed pairs, which the constrained worst case bounds by the
// joint convexity of the hockey-stick divergence.
constexpr const char* kUninformativeConstraintNote =
    "No membership constraint applies here: the uninformative prior is uniform over every non-empty set of the "
    "databases (Hartmann, Bindschaedler, West 2022, Sec. V-B), including sets a constraint excludes. Under a "
    "constraint, the constrained worst case also bounds an uninformative prior over the allowed sets.";

constexpr std::size_t kMaxClasses = 1000;
constexpr MethodInfo kGeneralizedComposition{"Generalized composition experiment",
                                             "Hartmann, Bindschaedler, West 2022, Thm 1 and Sec. V-A",
                                             "hartmann2022choice"};
// The PLDs of the footprints' answers that an answer keeps for its trade-off hold at most this many
// masses in all (2^22 doubles, 32 MB, beside the engine's own limits); a footprint beyond it is
// composed again by the trade-off (the same function on the same inputs: the same curve).
constexpr std::size_t kMaxKeptMasses = std::size_t{1} << 22;

const Shape& databases_shape() { return request_shapes().databases; }

Result<CompositionMethod> read_databases_method(const Value& request, const std::string& at) {
  DPCALC_TRY(std::string name, string_field(request, at, "method"));
  DPCALC_TRY(auto variant, optional_string_field(request, at, "variant"));
  if (variant && name != "advanced") {
    return invalid_argument(field_path(at, "variant"),
                            "variant applies to method 'advanced' only (got method '" + name + "').");
  }
  if (name == "basic") return CompositionMethod::kBasic;
  if (name == "optimal") return CompositionMethod::kOptimal;
  if (name == "zcdp") return CompositionMethod::kZcdp;
  if (name == "pld") return CompositionMethod::kPld;
  if (name != "advanced") {
    return unknown_choice(field_path(at, "method"), name, {"basic", "advanced", "optimal", "zcdp", "pld"});
  }
  if (!variant || *variant == "kairouz") return CompositionMethod::kAdvancedKov;
  if (*variant == "dwork_rothblum_vadhan") return CompositionMethod::kAdvancedDrv;
  return unknown_choice(field_path(at, "variant"), *variant, {"kairouz", "dwork_rothblum_vadhan"});
}

Result<double> whole_number_or_one(const Value& object, const std::string& path, const char* key) {
  DPCALC_TRY(auto value, optional_number_field(object, path, key));
  if (!value) return 1.0;
  return check_count(*value, field_path(path, key));
}

Result<Release> read_release(const Value& object, const std::string& path, std::optional<MechanismAt>& mechanism) {
  const bool has_mechanism = has_field(object, "mechanism");
  if (has_mechanism == has_field(object, "guarantee")) {
    return invalid_argument(path, path + " needs exactly one of 'guarantee' and 'mechanism'.");
  }
  if (has_mechanism) {
    DPCALC_TRY(mechanism, read_mechanism(*object.find("mechanism"), field_path(path, "mechanism")));
    return Release{mechanism->mechanism};
  }
  const std::string field = field_path(path, "guarantee");
  DPCALC_TRY(Guarantee parsed, read_guarantee(*object.find("guarantee"), field));
  if (const auto* pure = std::get_if<PureDp>(&parsed)) return Release{ApproxDp{pure->epsilon, 0}};
  if (const auto* approx = std::get_if<ApproxDp>(&parsed)) return Release{*approx};
  if (const auto* zcdp = std::get_if<Zcdp>(&parsed)) return Release{*zcdp};
  return Error{kUnsupported, field_path(field, "type"),
               "An RDP curve is not supported here; give the mechanism, or a pure, approx or zCDP guarantee."};
}

Result<bool> read_classes(const Value& request, DatabasesRequest& read) {
  const std::string& at = read.at;
  const std::string path = field_path(at, "databases");
  DPCALC_TRY(const Value* databases, member(request, at, "databases"));
  if (!databases->is_array() || databases->as_array().empty()) {
    return invalid_argument(path, path +
                                      " must be a non-empty array of classes "
                                      "{guarantee | mechanism, count, queries}.");
  }
  if (databases->as_array().size() > kMaxClasses) {
    return invalid_argument(path, path + " lists " + std::to_string(databases->as_array().size()) +
                                      " classes; at most " + std::to_string(kMaxClasses) +
                                      " are supported (give identical databases as one class with a count).");
  }
  DPCALC_TRY(const RelationAt relation, read_relation(request, at, declared(databases_shape(), "relation")));
  for (std::size_t i = 0; i < databases->as_array().size(); ++i) {
    const std::string class_path = field_path(path, std::to_string(i));
    DPCALC_TRY(const Value* object, require_object(databases->as_array()[i], class_path));
    DatabaseClass database_class;
    std::optional<MechanismAt> mechanism;
    DPCALC_TRY(database_class.release, read_release(*object, class_path, mechanism));
    database_class.relation = relation.relation;
    if (mechanism) {
      DPCALC_CHECK(check_relation(*mechanism, relation));
      database_class.release = Release{mechanism->mechanism};
    }
    DPCALC_TRY(database_class.count, whole_number_or_one(*object, class_path, "count"));
    DPCALC_TRY(database_class.queries, whole_number_or_one(*object, class_path, "queries"));
    read.classes.push_back(std::move(database_class));
    read.class_paths.push_back(class_path);
    read.releases.push_back(std::move(mechanism));
  }
  DPCALC_CHECK(check_count(total_databases(read.classes), path));
  return true;
}

// The families of a constraint: 1 to kMaxFamilies lists of distinct class indices, each non-empty.
Result<std::vector<std::vector<std::size_t>>> read_families(const Value& constraint, const std::string& path,
                                                            std::size_t classes) {
  const std::string families_path = field_path(path, "families");
  DPCALC_TRY(const Value* families, member(constraint, path, "families"));
  if (!families->is_array()) {
    return invalid_argument(families_path, families_path +
                                               " must be an array of families "
                                               "(each an array of class indices).");
  }
  if (families->as_array().empty()) {
    return invalid_argument(families_path, families_path + " must list at least one family (a list of class indices).");
  }
  if (families->as_array().size() > kMaxFamilies) {
    return invalid_argument(families_path, families_path + " lists " + std::to_string(families->as_array().size()) +
                                               " families; at most " + std::to_string(kMaxFamilies) +
                                               " are supported.");
  }
  std::vector<std::vector<std::size_t>> result;
  for (std::size_t i = 0; i < families->as_array().size(); ++i) {
    const std::string family_path = field_path(families_path, std::to_string(i));
    const Value& family = families->as_array()[i];
    if (!family.is_array()) {
      return invalid_argument(family_path,
                              family_path + " must be an array of class indices (got " + family.kind_name() + ").");
    }
    if (family.as_array().empty()) {
      return invalid_argument(family_path,
                              family_path + " is empty: a family names the classes of databases a person is in.");
    }
    std::vector<std::size_t> indices;
    std::vector<bool> named(classes, false);
    for (std::size_t j = 0; j < family.as_array().size(); ++j) {
      const std::string item = field_path(family_path, std::to_string(j));
      const Value& index = family.as_array()[j];
      const double number = index.is_number() ? index.as_number() : -1;
      if (!(number >= 0 && number < 1e9 && std::floor(number) == number)) {
        return invalid_argument(item, item +
                                          " must be a class index: a whole number from 0 (the position of the "
                                          "class in databases).");
      }
      const auto class_index = static_cast<std::size_t>(number);
      if (class_index >= classes) {
        return invalid_argument(item, item + " names class " + std::to_string(class_index) +
                                          ", but databases has only " + std::to_string(classes) +
                                          " classes (indices 0 to " + std::to_string(classes - 1) + ").");
      }
      if (named[class_index]) {
        return invalid_argument(item, item + " names class " + std::to_string(class_index) + " twice.");
      }
      named[class_index] = true;
      indices.push_back(class_index);
    }
    result.push_back(std::move(indices));
  }
  return result;
}

Result<Constraint> read_constraint(const Value& request, const std::string& at, std::size_t classes) {
  Constraint constraint;
  const std::string path = field_path(at, "constraint");
  const Value* value = request.find("constraint");
  if (value == nullptr || value->is_null()) return constraint;
  DPCALC_TRY(const Value* object, require_object(*value, path));
  DPCALC_TRY(std::string type, string_field(*object, path, "type"));
  const bool has_m = object->find("m") && !object->find("m")->is_null();
  const bool has_families = object->find("families") && !object->find("families")->is_null();
  if (has_m && type != "at_most") {
    return invalid_argument(field_path(path, "m"), field_path(path, "m") + " applies to type 'at_most' only.");
  }
  if (has_families && type != "families") {
    return invalid_argument(field_path(path, "families"),
                            field_path(path, "families") + " applies to type 'families' only.");
  }
  if (type == "none") return constraint;
  if (type == "exactly_one") {
    constraint.type = ConstraintType::kExactlyOne;
    return constraint;
  }
  if (type == "at_most") {
    constraint.type = ConstraintType::kAtMost;
    const std::string m_path = field_path(path, "m");
    DPCALC_TRY(constraint.at_most, number_field(*object, path, "m"));
    if (!(constraint.at_most >= 1)) {
      return invalid_argument(m_path, m_path +
                                          " must be a whole number >= 1 (the most databases one person can be in) " +
                                          got(constraint.at_most) + ".");
    }
    DPCALC_TRY(constraint.at_most, check_count(constraint.at_most, m_path));
    return constraint;
  }
  if (type == "families") {
    constraint.type = ConstraintType::kFamilies;
    DPCALC_TRY(constraint.families, read_families(*object, path, classes));
    return constraint;
  }
  return unknown_choice(field_path(path, "type"), type, {"none", "at_most", "exactly_one", "families"});
}

// An error of the databases domain, in its words (releases.hpp), on the request's paths.
Error on_request_paths(Error error, const DatabasesRequest& request) {
  const std::string& at = request.at;
  if (is_option_error(error)) return on_options(std::move(error), request.discretization);
  if (error.item != Error::kNoItem && error.item < request.classes.size()) {
    const std::size_t c = error.item;
    error.item = Error::kNoItem;
    const std::string& path = request.class_paths[c];
    const std::string release_path =
        field_path(path, release_mechanism(request.classes[c]) ? "mechanism" : "guarantee");
    if (error.field == "count" || error.field == "queries") {
      error.field = field_path(path, error.field);
    } else if (error.field.empty()) {
      error.field = path;
    } else if (error.field == kRelease) {
      error.field = release_path;
    } else if (request.releases[c]) {
      error.field = parameter_path(*request.releases[c], error.field);
    } else {
      error.field = field_path(release_path, error.field);
    }
    return error;
  }
  if (error.field == "classes") error.field = field_path(at, "databases");
  if (error.field == "delta") error.field = field_path(at, "delta");
  if (error.field == "constraint") error.field = field_path(at, "constraint");
  if (error.field == "families") error.field = field_path(at, "constraint.families");
  return error;
}

// For overflow errors: the noise or guarantee path of the class with the largest count · queries ·
// (per-release ε, or ρ under zCDP).
std::string overflow_path(const DatabasesRequest& request) {
  const std::vector<DatabaseClass>& classes = request.classes;
  const CompositionMethod method = request.options.method;
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
  if (request.releases[largest]) return noise_path(*request.releases[largest]);
  const bool rho = std::holds_alternative<Zcdp>(classes[largest].release);
  return field_path(field_path(request.class_paths[largest], "guarantee"), rho ? "rho" : "epsilon");
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

// The citation of a result obtained by `first`, then `second`: both works, in that order.
void cite_both(DatabasesAnswer& answer, const MethodInfo& first, const MethodInfo& second) {
  answer.citation = std::string(first.citation) + "; " + second.citation;
  answer.citation_key = std::string(first.citation_key) + " " + second.citation_key;
}

// μ of a footprint whose every release is a Gaussian mechanism (Dong, Roth, Su 2019, Cor. 3.3),
// rounded up as the composition's μ is.
std::optional<double> footprint_mu(const std::vector<DatabaseClass>& classes, const Footprint& footprint) {
  if (!gaussian_footprint(classes, footprint)) return std::nullopt;
  double mu_squared = 0, terms = 0;
  for (std::size_t c = 0; c < classes.size(); ++c) {
    if (footprint[c] == 0) continue;
    const auto noise = release_mechanism(classes[c])->gaussian();
    const double mu = noise->sensitivity / noise->sigma;
    mu_squared += footprint[c] * classes[c].queries * mu * mu;
    ++terms;
  }
  if (!std::isfinite(mu_squared)) return std::nullopt;
  return tradeoff::round_up(std::sqrt(mu_squared), 6 + terms);
}

std::size_t masses_of(const pld::ComposedPlds& plds) {
  return plds.upper_remove.masses.size() + plds.upper_add.masses.size() + plds.lower_remove.masses.size() +
         plds.lower_add.masses.size();
}

// Method 'pld' against the worst-case adversary: every footprint that can be the worst, composed
// as the answer composes it (the PLDs the answer kept, else composed again); a person has one of
// them, so the curve is their pointwise worst.
Result<Explained> explain_footprints(const DatabasesAnswer& answer, const tradeoff::TradeoffOptions& options,
                                     const Progress& progress) {
  const DatabasesRequest& request = answer.request;
  DPCALC_TRY(std::vector<Footprint> footprints, pld_worst_footprints(request.classes, request.allowed));
  std::vector<tradeoff::TradeoffResult> curves;
  std::vector<tradeoff::CurvePoint> points;
  std::string source;
  for (std::size_t i = 0; i < footprints.size(); ++i) {
    const Footprint& footprint = footprints[i];
    MethodOptions footprint_options = request.options;
    if (progress) {
      const double share = 1.0 / static_cast<double>(footprints.size());
      footprint_options.progress = [&progress, i, share](double f) { return progress((i + f) * share); };
    }
    Explained explained;
    if (footprint_databases(footprint) == 0) {
      DPCALC_TRY(explained, explain_mu(0, options));  // nothing differs: no test beats a coin
    } else if (const auto mu = footprint_mu(request.classes, footprint)) {
      DPCALC_TRY(explained, explain_mu(*mu, options));
    } else {
      const auto kept = answer.answered.find(footprint);
      Result<pld::AnsweredEpsilon> computed = Error{};
      if (kept == answer.answered.end()) {
        computed = footprint_answer(request.classes, footprint, footprint_options);
        if (!computed.ok()) return on_request_paths(std::move(computed).error(), request);
      }
      const pld::AnsweredEpsilon& answered = kept != answer.answered.end() ? kept->second : computed.value();
      PldQueries queries;
      queries.delta = request.options.delta;
      queries.epsilon_at = answered.bracket;
      DPCALC_TRY(tradeoff::TradeoffResult curve, tradeoff::pld_tradeoff(answered.plds, options));
      explained = Explained{std::move(curve), "pld", std::nullopt, std::nullopt, ""};
      for (const tradeoff::CurvePoint& point : answered_points(answered.plds, queries)) points.push_back(point);
    }
    source = source.empty() || source == explained.source ? explained.source : "pld";
    curves.push_back(std::move(explained.tradeoff));
  }
  Explained worst{tradeoff::pointwise_worst(curves), source, std::nullopt, std::nullopt, ""};
  tradeoff::include_points(worst.tradeoff, points);
  if (source == "pld") worst.tradeoff.method = tradeoff::kPldTradeoff;
  if (curves.size() > 1) {
    worst.method_note = ", the worst of " + std::to_string(curves.size()) + " footprints at each false-positive rate";
  }
  return worst;
}

Result<DatabasesAnswer> uninformed_answer(const DatabasesRequest& request, DatabasesAnswer answer,
                                          const MethodOptions& options) {
  const MethodInfo& composition = method_info(options.method);
  const Footprint everything = all_databases(request.classes);
  DPCALC_TRY(const Composed classic, compose_footprint(request.classes, everything, options));
  DPCALC_TRY(Uninformative found, uninformative(request.classes, classic, options));
  answer.guarantee = found.guarantee;
  answer.footprint = everything;
  answer.method = found.capped ? composition.method : found.info->method;
  if (found.capped) {
    cite_both(answer, composition, kGeneralizedComposition);
  } else {
    cite_both(answer, *found.info, composition);
  }
  answer.exact = false;
  answer.note = found.note.empty() ? kUninformativeConstraintNote : found.note + " " + kUninformativeConstraintNote;
  answer.classic = classic;
  return answer;
}

// The first class released without noise that a person's footprint can hold (nullopt: none): a
// person in it has no finite ε at any δ < 1, whatever the other releases.
std::optional<std::size_t> reachable_noise_free_class(const DatabasesRequest& request) {
  for (std::size_t i = 0; i < request.classes.size(); ++i) {
    const mechanisms::Mechanism* mechanism = release_mechanism(request.classes[i]);
    if (!mechanism || !mechanism->reveals_input()) continue;
    if (request.allowed.capacity) return i;  // any database may be one of a person's
    for (const Footprint& footprint : request.allowed.footprints) {
      if (footprint[i] > 0) return i;
    }
  }
  return std::nullopt;
}

constexpr MethodInfo kNoNoiseRelease{
    "No guarantee: a database a person can be in is released without noise (infinite privacy loss)",
    "Dwork & Roth 2014, Def. 2.4", "dwork2014algorithmic"};

// No meaningful guarantee, against the worst case: the footprint of one database of class `index`.
Result<DatabasesAnswer> noise_free_answer(const DatabasesRequest& request, DatabasesAnswer answer, std::size_t index) {
  const std::string& path = request.class_paths[index];
  if (request.uninformed) {
    return Error{kUnsupported, field_path(path, "mechanism"),
                 "The releases of " + path +
                     " add no noise; the uninformative adversary's analysis needs noise in every database. Use "
                     "adversary 'worst_case' (no meaningful guarantee) or give that release noise."};
  }
  answer.guarantee.approx = ApproxDp{0, 1};
  answer.footprint.assign(request.classes.size(), 0.0);
  answer.footprint[index] = 1;
  answer.method = kNoNoiseRelease.method;
  cite_both(answer, kNoNoiseRelease, kGeneralizedComposition);
  answer.exact = true;
  answer.note = "The releases of " + path +
                " add no noise: they publish their queries, so a person in that database has no finite ε at any "
                "δ < 1 (δ = 1 at every ε).";
  answer.classic = answer.guarantee;
  return answer;
}

Result<DatabasesAnswer> worst_case_answer(const DatabasesRequest& request, DatabasesAnswer answer,
                                          MethodOptions options) {
  const MethodInfo& composition = method_info(options.method);
  const Footprint everything = all_databases(request.classes);
  std::size_t kept = 0;
  if (options.method == CompositionMethod::kPld) {
    // For its trade-off: the footprints it reads PLDs of, which are those the worst case composes
    // (pld_worst_footprints); the composition of every database below is not.
    options.answered_footprint = [&answer, &kept, &request](const Footprint& footprint, pld::AnsweredEpsilon answered) {
      if (gaussian_footprint(request.classes, footprint)) return;
      const std::size_t masses = masses_of(answered.plds);
      if (kept + masses > kMaxKeptMasses) return;
      kept += masses;
      answer.answered.insert_or_assign(footprint, std::move(answered));
    };
  }
  DPCALC_TRY(WorstCase worst, worst_case(request.classes, request.allowed, options));
  options.answered_footprint = nullptr;
  answer.guarantee = worst.guarantee;
  answer.footprint = worst.footprint;
  answer.method = composition.method;
  cite_both(answer, composition, kGeneralizedComposition);
  answer.exact = worst.exact;
  answer.note = worst.note;
  answer.parallel = merged_parallel(request.classes, request.allowed);
  if (worst.footprint == everything) {
    answer.classic = worst.guarantee;
    return answer;
  }
  Result<Composed> composed = compose_footprint(request.classes, everything, options);
  if (composed.ok()) {
    answer.classic = composed.value();
  } else {
    // E.g. a δ target that the constrained footprint meets but composing everything cannot.
    answer.classic_error = on_request_paths(std::move(composed).error(), request);
  }
  return answer;
}

}  // namespace

Result<DatabasesRequest> read_databases(const Value& request, const std::string& at) {
  DatabasesRequest read;
  read.at = at;
  MethodOptions& options = read.options;
  DPCALC_TRY(options.method, read_databases_method(request, at));
  DPCALC_TRY(options.delta, read_optional_number(request, at, declared(databases_shape(), "delta")));
  DPCALC_TRY(read.discretization, read_discretization(request, at));
  options.accounting = read.discretization.options;
  DPCALC_CHECK(read_classes(request, read));
  DPCALC_TRY(Constraint constraint, read_constraint(request, at, read.classes.size()));
  DPCALC_TRY(const std::string neighbours, read_choice(request, at, declared(databases_shape(), "neighbours")));
  DPCALC_TRY(const std::string adversary, read_choice(request, at, declared(databases_shape(), "adversary")));
  const bool bounded = neighbours == "bounded";
  read.uninformed = adversary == "uninformative";
  if (read.uninformed && constraint.type != ConstraintType::kNone) {
    return invalid_argument(field_path(at, "adversary"),
                            "adversary 'uninformative' (in none against in at least one of the databases, "
                            "nothing more known) covers constraint type 'none' only.");
  }
  if (read.uninformed && bounded) {
    return invalid_argument(field_path(at, "neighbours"),
                            "adversary 'uninformative' compares 'in none' with 'in at least one' of the "
                            "databases: unbounded neighbours only.");
  }
  if (auto checked = check_method(read.classes, options); !checked.ok()) {
    return on_request_paths(std::move(checked).error(), read);
  }
  DPCALC_TRY(read.allowed,
             allowed_footprints(read.classes, constraint, bounded ? Neighbours::kBounded : Neighbours::kUnbounded));
  return read;
}

Result<DatabasesAnswer> answer_databases(const DatabasesRequest& request, const Progress& progress) {
  DatabasesAnswer answer;
  answer.request = request;
  answer.overflow_field = overflow_path(request);
  answer.delta_unused = request.options.delta && request.options.method == CompositionMethod::kBasic;
  MethodOptions options = request.options;
  options.progress = progress;
  if (const auto noise_free = reachable_noise_free_class(request)) {
    return noise_free_answer(request, std::move(answer), *noise_free);
  }
  Result<DatabasesAnswer> answered = request.uninformed ? uninformed_answer(request, std::move(answer), options)
                                                        : worst_case_answer(request, std::move(answer), options);
  if (!answered.ok()) return on_request_paths(std::move(answered).error(), request);
  // A PLD bracket wider than the accuracy asked for says so, as compose's does.
  DatabasesAnswer& result = answered.value();
  if (result.guarantee.bracket) {
    const std::string accuracy = accuracy_note(*result.guarantee.bracket, request.options.accounting);
    if (!accuracy.empty()) result.note = result.note.empty() ? accuracy : accuracy + " " + result.note;
  }
  return answered;
}

Value write_databases(const DatabasesAnswer& answer) {
  const std::vector<DatabaseClass>& classes = answer.request.classes;
  Value result = Value::object();
  if (answer.delta_unused) {
    result.set("delta_note", "Basic composition adds up the releases' δ; the delta of the request is not used.");
  }
  describe(result, answer.guarantee);
  result.set("footprint", footprint_value(classes, answer.footprint));
  result.set("method", answer.method);
  set_citation(result, answer.citation, answer.citation_key);
  result.set("exact", answer.exact);
  if (!answer.note.empty()) result.set("note", answer.note);
  if (answer.parallel) {
    Value merged = Value::object();
    merged.set("guarantee", to_value(*answer.parallel));
    set_method(merged, kMergedParallel);
    result.set("parallel", std::move(merged));
  }
  if (answer.classic_error) {
    const Error& error = *answer.classic_error;
    Value details = Value::object();
    details.set("code", error.code).set("field", error.field).set("message", error.message);
    result.set("classic", Value::object().set("error", std::move(details)));
    return result;
  }
  Value classic = Value::object();
  describe(classic, *answer.classic);
  classic.set("footprint", footprint_value(classes, all_databases(classes)));
  set_method(classic, method_info(answer.request.options.method));
  result.set("classic", std::move(classic));
  return result;
}

Result<Explained> explain_databases(const DatabasesAnswer& answer, const tradeoff::TradeoffOptions& options,
                                    const Progress& progress) {
  const DatabasesRequest& request = answer.request;
  const Composed& composed = answer.guarantee;
  if (composed.has_approx && is_vacuous(composed.approx)) return explain_guarantee(composed.approx, options);
  if (request.options.method == CompositionMethod::kPld && !request.uninformed) {
    return explain_footprints(answer, options, progress);
  }
  // zCDP against the worst case: the worst footprint's ρ, whose profile is tighter than its (ε, δ).
  if (!request.uninformed && composed.zcdp && composed.has_approx) return explain_guarantee(*composed.zcdp, options);
  if (!composed.has_approx) return explain_guarantee(*composed.zcdp, options);
  if (composed.pure) return explain_guarantee(PureDp{composed.approx.epsilon}, options);
  return explain_guarantee(composed.approx, options);
}

}  // namespace dpcalc::api
