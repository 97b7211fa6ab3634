// Every object a request may hold and the fields it takes (schema.hpp, request_shapes.hpp). The
// field tables of docs/API.md are written from these declarations (`npm run docs`), and the op
// readers read each field as declared here.
#include "dpcalc/api/request_shapes.hpp"

#include <string>
#include <vector>

#include "dpcalc/api/fields.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/mechanisms/catalog.hpp"

namespace dpcalc::api {
namespace {

// The helpers take the declarations' literals as pointers: a std::string parameter would be built
// at each of the hundreds of call sites (the strings are built once, here, instead).
Field number(const char* name, const char* presence, const char* meaning) {
  return Field{name, "number", presence, meaning};
}

Field text(const char* name, std::string type, const char* presence, const char* meaning) {
  return Field{name, std::move(type), presence, meaning};
}

Field object(const char* name, const Shape& shape, const char* presence, const char* meaning) {
  return Field{name, shape.name, presence, meaning, &shape};
}

Field objects(const char* name, const Shape& shape, const char* presence, const char* meaning) {
  Field field{name, "[" + shape.name + "]", presence, meaning, &shape};
  field.list = true;
  return field;
}

constexpr const char* kSamplings =
    "'poisson' | 'fixed_batch' | 'truncated_poisson' | 'shuffle' | 'balls_and_bins' | 'cyclic_poisson'";
constexpr const char* kRelations = "'add_remove' | 'zero_out' | 'substitute'";

Field op_field() { return text("op", "string", "required", "the question asked"); }

// The neighbouring relation the mechanisms are accounted under (mechanism_io.hpp: read_relation).
Field relation_field() {
  return text("relation", kRelations, "default 'add_remove'",
              "neighbouring datasets: a record added or removed, one replaced, or one replaced by a null record "
              "(zero_out)");
}

// "'scale' | 'sigma'": the values a text field takes.
std::string alternatives(const std::vector<std::string>& values) {
  std::string list;
  for (const std::string& value : values) list += (list.empty() ? "'" : " | '") + value + "'";
  return list;
}

// "a 'laplace' mechanism", "an 'approx' guarantee".
std::string typed(const std::string& value, const std::string& noun) {
  const bool vowel = std::string("aeiou").find(value[0]) != std::string::npos;
  return std::string(vowel ? "an '" : "a '") + value + "' " + noun;
}

Variant typed_variant(const std::string& value, const std::string& noun, std::string meaning,
                      std::vector<Field> fields) {
  return Variant{value, typed(value, noun), std::move(meaning), std::move(fields)};
}

Variant op_variant(const std::string& op, const std::string& discriminator, const std::string& value,
                   std::string meaning, std::vector<Field> fields) {
  return Variant{value, "op '" + op + "' with " + discriminator + " '" + value + "'", std::move(meaning),
                 std::move(fields)};
}

// The declarations; the shapes point at each other, so they are built together (RequestShapes).
struct Declarations {
  RequestShapes& shapes;
  Shape &guarantee, &mechanism, &mechanism_template, &item, &discretization, &target, &dpsgd_target, &group_target,
      &database_class, &constraint, &tradeoff_options, &dpsgd_phase, &audit_evidence, &audit_claim, &repetitions;
  Shape &group, &compose, &convert, &split, &profile, &calibrate, &dpsgd, &dpsgd_pair, &dpsgd_samplers, &rdp,
      &databases, &groupwise_simulate, &groupwise_privacy, &groupwise_plan, &bare_guarantee, &tradeoff, &audit;

  explicit Declarations(RequestShapes& all)
      : shapes(all),
        guarantee(all.guarantee),
        mechanism(all.mechanism),
        mechanism_template(all.mechanism_template),
        item(all.item),
        discretization(all.discretization),
        target(all.target),
        dpsgd_target(all.dpsgd_target),
        group_target(all.group_target),
        database_class(all.database_class),
        constraint(all.constraint),
        tradeoff_options(all.tradeoff_options),
        dpsgd_phase(all.dpsgd_phase),
        audit_evidence(all.audit_evidence),
        audit_claim(all.audit_claim),
        repetitions(all.repetitions),
        group(all.group),
        compose(all.compose),
        convert(all.convert),
        split(all.split),
        profile(all.profile),
        calibrate(all.calibrate),
        dpsgd(all.dpsgd),
        dpsgd_pair(all.dpsgd_pair),
        dpsgd_samplers(all.dpsgd_samplers),
        rdp(all.rdp),
        databases(all.databases),
        groupwise_simulate(all.groupwise_simulate),
        groupwise_privacy(all.groupwise_privacy),
        groupwise_plan(all.groupwise_plan),
        bare_guarantee(all.bare_guarantee),
        tradeoff(all.tradeoff),
        audit(all.audit) {
    declare_objects();
    declare_ops();
  }

  void declare_objects() {
    guarantee = {
        "guarantee", "a guarantee", {text("type", "'pure' | 'approx' | 'zcdp' | 'rdp'", "required", "")}, "type", {}};
    guarantee.variants = {
        typed_variant("pure", "guarantee", "ε-DP", {number("epsilon", "required", "ε, finite ≥ 0")}),
        typed_variant("approx", "guarantee", "(ε, δ)-DP",
                      {number("epsilon", "required", "ε, finite ≥ 0"), number("delta", "required", "δ in [0, 1)")}),
        typed_variant("zcdp", "guarantee", "ρ-zCDP", {number("rho", "required", "ρ, finite ≥ 0")}),
        typed_variant("rdp", "guarantee", "Rényi DP at each order",
                      {text("orders", "[number]", "required", "orders α > 1, strictly increasing"),
                       text("epsilons", "[number]", "required", "ε(α) at each order, finite ≥ 0")}),
    };

    declare_mechanism();

    item = {"item",
            "an item",
            {object("guarantee", guarantee, "one of guarantee, mechanism", "what one use guarantees"),
             object("mechanism", mechanism, "one of guarantee, mechanism", "the mechanism used"),
             number("count", "required (except the item solved for)",
                    "how many times it is used, a whole number from 1 to 2^53")},
            "",
            {}};

    discretization = {"discretization",
                      "discretization",
                      {number("interval", "optional", "the grid step of the privacy loss (> 0, at most 10)"),
                       number("relative_accuracy", "default 5e-4",
                              "target relative width of the bracket, in (0, 0.1] (with the automatic step)"),
                       number("tail_mass_truncation", "default 1e-14",
                              "tail mass the grid may cut, added to the upper δ (> 0, < 1e-3)")},
                      "",
                      {}};

    target = {"target",
              "target",
              {number("epsilon", "required", "target ε, finite ≥ 0"), number("delta", "required", "target δ in [0, 1)"),
               text("type", "'approx'", "optional", "a target is an (ε, δ) guarantee: 'approx' if given")},
              "",
              {}};
    dpsgd_target = {"dpsgd_target", "target", {number("epsilon", "required", "target ε > 0")}, "", {}};
    dpsgd_phase = {"dpsgd_phase",
                   "a phase of training",
                   {number("noise_multiplier", "required", "σ over the clipping norm in this phase"),
                    number("sampling_rate", "one of sampling_rate, batch_size",
                           "q in [0, 1] in this phase (0: the phase reads no example)"),
                    number("batch_size", "one of sampling_rate, batch_size", "B in this phase"),
                    number("steps", "one of steps, epochs", "the phase's steps, a whole number from 1 to 2^53"),
                    number("epochs", "one of steps, epochs", "the phase's passes over the data")},
                   "",
                   {}};
    repetitions = {
        "repetitions",
        "repetitions",
        {number("mean", "required", "E[K], the mean number of runs, finite ≥ 1"),
         text("distribution", "'poisson' | 'geometric' | 'logarithmic' | 'truncated_negative_binomial'", "required",
              "the law of the number of runs K (geometric: η = 1, logarithmic: η = 0)"),
         number("shape", "with 'truncated_negative_binomial': required", "η of the truncated negative binomial, > −1")},
        "",
        {}};
    group_target = {"group_target",
                    "target",
                    {number("epsilon", "required", "target ε, finite ≥ 0"),
                     number("delta", "required when the group guarantee has a δ",
                            "target δ in (0, 1): of an 'approx' guarantee or a Gaussian mechanism")},
                    "",
                    {}};

    database_class = {"database_class",
                      "a class of databases",
                      {object("guarantee", guarantee, "one of guarantee, mechanism",
                              "what each release guarantees for one record of the queried database"),
                       object("mechanism", mechanism, "one of guarantee, mechanism", "the mechanism of each release"),
                       number("count", "default 1", "identical databases in the class, a whole number ≥ 1"),
                       number("queries", "default 1", "releases per database, a whole number ≥ 1")},
                      "",
                      {}};

    constraint = {"constraint",
                  "a constraint",
                  {text("type", "'none' | 'at_most' | 'exactly_one' | 'families'", "required", "")},
                  "type",
                  {typed_variant("none", "constraint", "a person may be in any of the databases", {}),
                   typed_variant("at_most", "constraint", "a person is in at most m databases",
                                 {number("m", "required", "the most databases one person is in, a whole number ≥ 1")}),
                   typed_variant("exactly_one", "constraint", "a person is in exactly one database", {}),
                   typed_variant("families", "constraint", "a person is in the databases of at most one family",
                                 {text("families", "[[number]]", "required",
                                       "families of class indices (positions in databases)")})}};
  }

  void declare_ops() {
    group = {
        "group",
        "op 'group'",
        {op_field(), number("k", "required unless unknown", "the group size, a whole number from 1 to 2^53"),
         object("guarantee", guarantee, "one of guarantee, mechanism", "the guarantee for one record"),
         object("mechanism", mechanism, "one of guarantee, mechanism", "the mechanism (mechanism-aware group privacy)"),
         number("delta",
                "with Gaussian noise, a zCDP bound, subsampling or a mixture: required; optional for a pure "
                "mechanism without a group transform (not with unknown)",
                "the δ at which ε is reported, in (0, 1)"),
         relation_field(),
         discretization_field(
             "optional, where the group is composed numerically (a subsampled mechanism, a "
             "mixture, discrete Gaussian noise); over a privacy profile its tail_mass_truncation defaults to 1e-30"),
         text("unknown", "'k'", "optional", "solve for the largest group that meets target (leave k out)"),
         object("target", group_target, "with unknown: required", "the (ε, δ) the group must stay within")},
        "",
        {}};

    const Field delta_target = number("delta", "required (not with unknown)", "the total δ target, in (0, 1)");
    compose = {"compose",
               "op 'compose'",
               {op_field(), text("method", "string", "required", "the composition theorem or method"),
                objects("items", item, "required", "what is composed"), relation_field(),
                text("unknown", "'count'", "optional",
                     "solve for the most uses of the one item without a count that meet target"),
                object("target", target, "with unknown: required",
                       "the total (ε, δ) to stay within (its δ replaces the method's delta)")},
               "method",
               {}};
    compose.variants = {
        op_variant("compose", "method", "basic", "Σ count·ε, Σ count·δ", {}),
        op_variant("compose", "method", "parallel", "the items run on disjoint data: max ε, max δ", {}),
        op_variant("compose", "method", "advanced", "advanced composition of (ε, δ) items",
                   {text("variant", "'kairouz' | 'dwork_rothblum_vadhan'", "default 'kairouz'", "which theorem"),
                    number("delta", "one of delta, delta_slack", "the total δ target (δ′ chosen optimally)"),
                    number("delta_slack", "one of delta, delta_slack", "δ′ of the theorem, in (0, 1)")}),
        op_variant("compose", "method", "optimal", "exact optimal composition of identical items", {delta_target}),
        op_variant("compose", "method", "zcdp", "Σ count·ρ, converted to (ε, δ) when delta is given",
                   {number("delta", "optional", "the δ of the conversion to (ε, δ), in (0, 1)"),
                    text("conversion", "'canonne_kamath_steinke' | 'bun_steinke'", "default 'canonne_kamath_steinke'",
                         "how zCDP becomes (ε, δ)")}),
        op_variant("compose", "method", "pld", "numeric composition of privacy loss distributions",
                   {number("delta", "one of delta, epsilon", "δ in (0, 1): the answer is ε"),
                    number("epsilon", "one of delta, epsilon", "ε, any finite number (below 0 too): the answer is δ"),
                    discretization_field()}),
        op_variant("compose", "method", "rdp", "Rényi DP of every item with a Rényi curve",
                   {delta_target, orders_field(), repetitions_field()}),
    };

    convert = {"convert",
               "op 'convert'",
               {op_field(), object("guarantee", guarantee, "required", "the guarantee to convert"),
                text("to", "'approx' | 'zcdp'", "required", "the definition to convert to")},
               "to",
               {op_variant("convert", "to", "approx", "to (ε, δ)-DP",
                           {number("delta", "required for zCDP and RDP guarantees", "the target δ, in (0, 1)"),
                            text("conversion", "'canonne_kamath_steinke' | 'bun_steinke'",
                                 "default 'canonne_kamath_steinke'", "how a zCDP guarantee becomes (ε, δ)")}),
                op_variant("convert", "to", "zcdp", "to ρ-zCDP", {})}};

    split = {
        "split",
        "op 'split'",
        {op_field(), text("method", "'basic' | 'advanced' | 'optimal' | 'zcdp'", "required", "the composition method"),
         object("target", target, "required", "the total budget"),
         number("count", "required", "the number of releases, a whole number from 1 to 2^53")},
        "method",
        {op_variant("split", "method", "basic", "", {}),
         op_variant("split", "method", "advanced", "",
                    {text("variant", "'kairouz' | 'dwork_rothblum_vadhan'", "default 'kairouz'", "which theorem")}),
         op_variant("split", "method", "optimal", "", {}), op_variant("split", "method", "zcdp", "", {})}};

    profile = {"profile",
               "op 'profile'",
               {op_field(), objects("items", item, "required", "what is composed"),
                text("epsilons", "[number]", "required", "the ε at which δ(ε) is reported, each finite (below 0 too)"),
                relation_field(), discretization_field()},
               "",
               {}};

    calibrate = {
        "calibrate",
        "op 'calibrate'",
        {op_field(),
         object("mechanism", mechanism_template, "required",
                "the mechanism, without the noise parameter that is the unknown"),
         text("unknown", alternatives(mechanisms::calibration_unknowns()), "required",
              "the noise parameter to solve for"),
         number("count", "default 1", "how many times the mechanism is used, a whole number from 1 to 2^53"),
         text("method", "'basic' | 'optimal' | 'analytic' | 'zcdp' | 'pld'", "default: the tightest that applies",
              "the accounting the noise is calibrated with"),
         object("target", target, "required", "the (ε, δ) to reach"), relation_field(), discretization_field()},
        "",
        {}};

    dpsgd = {
        "dpsgd",
        "op 'dpsgd'",
        {op_field(), text("sampling", kSamplings, "required", "how the training loop draws its batches"),
         number("group_size", "default 1", "k, the number of examples protected together (1 to 100000)"),
         number("delta", "required", "δ in (0, 1)"),
         number("steps", "one of steps, epochs, phases (none with unknown 'steps' or 'epochs')",
                "training steps, a whole number from 1 to 2^53"),
         number("epochs", "one of steps, epochs, phases (none with unknown 'steps' or 'epochs')",
                "passes over the data (steps are rounded up)"),
         text("relation", kRelations, "default by sampling",
              "neighbouring datasets; the default is the sampling's ('zero_out' for shuffle and "
              "truncated_poisson, 'add_remove' otherwise)"),
         number("noise_multiplier",
                "one of noise_multiplier, target, phases (noise_multiplier and target with "
                "unknown)",
                "σ over the clipping norm, 0 or more (0, for Poisson sampling: no noise): the answer is ε"),
         object("target", dpsgd_target, "one of noise_multiplier, target (both with unknown)",
                "the ε to reach: the answer is the noise multiplier (or the unknown)"),
         text("unknown", "'steps' | 'epochs' | 'sampling_rate' | 'batch_size' | 'group_size'", "optional",
              "solve for the largest value of this field that meets target (leave the field out)"),
         objects("phases", dpsgd_phase, "optional (poisson, fixed_batch, truncated_poisson)",
                 "a schedule: each phase's noise, rate or batch and steps, composed in turn (instead of "
                 "noise_multiplier, steps or epochs, sampling_rate or batch_size)"),
         object("repetitions", repetitions, "optional (poisson, group_size 1, not with target or unknown)",
                "hyperparameter tuning: this training is one run, run a random number K of times and the best output "
                "kept"),
         discretization_field()},
        "sampling",
        {op_variant(
             "dpsgd", "sampling", "poisson", "each example joins a batch with probability sampling_rate",
             {number("sampling_rate", "one of sampling_rate, batch_size (or unknown)", "q in [0, 1] (0: ε = 0)"),
              number("batch_size", "one of sampling_rate, batch_size (or unknown)", "B, the expected batch: q = B/N"),
              number("dataset_size", "with batch_size", "N, a whole number ≥ 1")}),
         op_variant("dpsgd", "sampling", "fixed_batch", "batches of batch_size drawn without replacement",
                    {number("dataset_size", "required", "N, a whole number ≥ 1"),
                     number("batch_size", "required unless unknown", "B, a whole number from 1 to N")}),
         op_variant(
             "dpsgd", "sampling", "truncated_poisson",
             "Poisson sampling, then a batch above max_batch_size cut to that size",
             {number("dataset_size", "required", "N, a whole number ≥ 1"),
              number("sampling_rate", "one of sampling_rate, batch_size (or unknown)", "q in [0, 1] (0: ε = 0)"),
              number("batch_size", "one of sampling_rate, batch_size (or unknown)", "B, the expected batch: q = B/N"),
              number("max_batch_size", "required", "C, the largest batch, a whole number ≥ 1")}),
         op_variant("dpsgd", "sampling", "shuffle",
                    "each epoch walks a permutation of the data in batches of batch_size (⌊N/B⌋ steps)",
                    {number("dataset_size", "required", "N, a whole number ≥ 1"),
                     number("batch_size", "required unless unknown", "B, a whole number from 1 to N"),
                     text("reshuffle", "boolean", "default true",
                          "a new permutation every epoch (false: the same order every epoch)")}),
         op_variant("dpsgd", "sampling", "balls_and_bins",
                    "each epoch of ⌊N/B⌋ steps puts every example in one uniformly random step",
                    {number("dataset_size", "required", "N, a whole number ≥ 1"),
                     number("batch_size", "required unless unknown", "B, the expected batch, from 1 to N")}),
         op_variant(
             "dpsgd", "sampling", "cyclic_poisson",
             "the data split into bands used in turn, Poisson sampling inside the band",
             {number("bands", "required", "b, the number of bands, a whole number ≥ 1"),
              number("sampling_rate", "one of sampling_rate, batch_size (or unknown)",
                     "q in [0, 1], inside the band (0: ε = 0)"),
              number("batch_size", "one of sampling_rate, batch_size (or unknown)", "B, the expected batch: q = b·B/N"),
              number("dataset_size", "with batch_size", "N, a whole number ≥ 1")})}};

    dpsgd_samplers = {
        "dpsgd_samplers",
        "op 'dpsgd_samplers'",
        {op_field(), number("dataset_size", "required", "N, a whole number ≥ 1"),
         number("batch_size", "required", "B, the batch (expected for the Poisson samplers), from 1 to N"),
         number("noise_multiplier", "required", "σ over the clipping norm"), number("delta", "required", "δ in (0, 1)"),
         number("steps", "one of steps, epochs", "training steps, a whole number from 1 to 2^53"),
         number("epochs", "one of steps, epochs", "passes over the data (each sampler's steps)"),
         number("group_size", "default 1", "k, the number of examples protected together"),
         number("max_batch_size", "default 1.5·batch_size",
                "the cap of truncated Poisson sampling (1.5·B rounded down when left out)"),
         number("bands", "optional", "b: adds cyclic Poisson sampling over b bands (at rate b·B/N)"),
         text("relation", kRelations, "default 'zero_out'", "neighbouring datasets, for every row"),
         discretization_field()},
        "",
        {}};

    dpsgd_pair = {
        "dpsgd_pair",
        "op 'dpsgd_pair'",
        {op_field(), text("sampling", "'poisson' | 'fixed_batch'", "required", "how batches are drawn"),
         number("group_size", "required", "k, the number of examples protected together (1 to 100000)"),
         text("relation", "'add_remove' | 'substitute'", "default 'add_remove'", "neighbouring datasets"),
         number("noise_multiplier", "required", "σ over the clipping norm"),
         number("points", "default 161", "abscissae to evaluate the densities at, a whole number from 2 to 10001")},
        "sampling",
        {op_variant("dpsgd_pair", "sampling", "poisson", "each example joins a batch with probability sampling_rate",
                    {number("sampling_rate", "required", "q in (0, 1]")}),
         op_variant("dpsgd_pair", "sampling", "fixed_batch", "batches of batch_size drawn without replacement",
                    {number("dataset_size", "required", "N, a whole number ≥ 1"),
                     number("batch_size", "required", "B, a whole number from 1 to N")})}};

    rdp = {"rdp",
           "op 'rdp'",
           {op_field(), objects("items", item, "required", "mechanisms with a Rényi DP curve"), orders_field(),
            relation_field()},
           "",
           {}};

    databases = {
        "databases",
        "op 'databases'",
        {op_field(),
         text("method", "'basic' | 'advanced' | 'optimal' | 'zcdp' | 'pld'", "required", "the composition method"),
         objects("databases", database_class, "required", "the databases, in classes of identical ones (at most 1000)"),
         number("delta", "required except for basic and zcdp", "the total δ target, in (0, 1)"),
         object("constraint", constraint, "default {type: 'none'}", "which databases one person can be in"),
         text("neighbours", "'unbounded' | 'bounded'", "default 'unbounded'",
              "a record added or removed, or replaced (bounded)"),
         text("adversary", "'worst_case' | 'uninformative'", "default 'worst_case'",
              "what the adversary knows of a person's databases"),
         relation_field()},
        "method",
        {op_variant("databases", "method", "basic", "", {}),
         op_variant("databases", "method", "advanced", "",
                    {text("variant", "'kairouz' | 'dwork_rothblum_vadhan'", "default 'kairouz'", "which theorem")}),
         op_variant("databases", "method", "optimal", "", {}), op_variant("databases", "method", "zcdp", "", {}),
         op_variant("databases", "method", "pld", "", {discretization_field()})}};

    const Field rho = number("rho", "one of rho, sigma", "the first stage's zCDP parameter ρ > 0");
    const Field sigma = number("sigma", "one of rho, sigma", "the first stage's noise σ");
    const Field relative_error =
        number("relative_error", "required", "r, the second stage's relative noise, in (0, 1]");
    const Field delta = number("delta", "optional", "δ in (0, 1) for the (ε, δ) figures");
    const Field orders = text("orders", "[number]", "optional", "Rényi orders from 1.01 to 256, increasing");
    groupwise_simulate = {
        "groupwise_simulate",
        "op 'groupwise_simulate'",
        {op_field(), rho, sigma, relative_error, number("count", "required", "the true count x, a whole number ≥ 0"),
         number("samples", "required", "simulated releases, a whole number ≥ 2"),
         number("seed", "default 1", "the random seed, a whole number"),
         number("bins", "optional", "histogram bins, a whole number ≥ 1"),
         text("range", "[number, number]", "optional", "the histogram's [lower, upper]")},
        "",
        {}};
    groupwise_privacy = {
        "groupwise_privacy",
        "op 'groupwise_privacy'",
        {op_field(), rho, sigma, relative_error,
         text("counts", "[number]", "required", "1 to 20 group counts, whole numbers ≥ 0"), delta, orders},
        "",
        {}};
    groupwise_plan = {
        "groupwise_plan",
        "op 'groupwise_plan'",
        {op_field(), relative_error, number("count", "required", "the group count, a whole number ≥ 1"), delta, orders},
        "",
        {}};

    declare_tradeoff();
    declare_audit();
    for (Shape* explained : {&group, &compose, &profile, &convert, &dpsgd, &databases}) {
      explained->fields.push_back(explain_field());
    }
  }

  // {op:'tradeoff', of: <a request of an op with a trade-off, or {guarantee}>, alphas?, fpr?, prior?, …}.
  void declare_tradeoff() {
    bare_guarantee = {"bare_guarantee",
                      "a bare guarantee",
                      {object("guarantee", guarantee, "required", "the guarantee whose trade-off is wanted")},
                      "",
                      {}};
    Field of = object("of", bare_guarantee, "required",
                      "the request whose answer is explained: a forward request of one of these ops (not a "
                      "calibration), or {guarantee}");
    of.requests = {&group, &compose, &profile, &convert, &dpsgd, &databases};
    of.type.clear();
    for (const Shape* request : of.requests) of.type += request->name + " | ";
    of.type += bare_guarantee.name;
    tradeoff_options = {
        "tradeoff_options",
        "the trade-off's options",
        {text("alphas", "[number]", "default [0.001, 0.01, 0.1]",
              "false-positive rates at which β is reported, each in [0, 1] (at most 10000)"),
         text("fpr", "[number]", "default [0.001, 0.01, 0.1]",
              "false-positive rates at which the largest true-positive rate is reported, each in [0, 1]"),
         number("prior", "optional", "prior probability of membership, in (0, 1): adds the largest posterior"),
         text("reconstruction_baselines", "[number]", "optional",
              "success rates of a reconstruction attack that does not see the output, each in [0, 1]")},
        "",
        {}};
    std::vector<Field> fields{op_field(), of};
    fields.insert(fields.end(), tradeoff_options.fields.begin(), tradeoff_options.fields.end());
    tradeoff = {"tradeoff", "op 'tradeoff'", std::move(fields), "", {}};
  }

  // {op:'audit', evidence, confidence?, delta?, claim?}: a lower bound on ε from an attack's outcome
  // (audit_op.hpp); the claim is a guarantee, {guarantee}, or a request op 'tradeoff' takes as `of`.
  void declare_audit() {
    audit_evidence = {"audit_evidence",
                      "the evidence",
                      {text("kind", "'counts' | 'one_run' | 'scores'", "required", "what the attack observed")},
                      "kind",
                      {}};
    audit_evidence.variants = {
        typed_variant("counts", "evidence",
                      "an attack's decisions on members and non-members, at a threshold fixed in advance",
                      {number("true_positives", "required", "members flagged, a whole number from 0 to positives"),
                       number("positives", "required", "members tried, a whole number ≥ 1"),
                       number("false_positives", "required", "non-members flagged, a whole number from 0 to negatives"),
                       number("negatives", "required", "non-members tried, a whole number ≥ 1")}),
        typed_variant(
            "one_run", "evidence", "one training run with canaries, each included with probability 1/2",
            {number("canaries", "required", "m, the canaries, a whole number ≥ 1"),
             number("guesses", "required", "r, the canaries guessed (not abstained on), a whole number from 0 to m"),
             number("correct", "required", "v, the right guesses, a whole number from 0 to r")}),
        typed_variant(
            "scores", "evidence", "an attack's scores (higher means member), the threshold chosen from them",
            {text("member_scores", "[number]", "required", "the members' scores, finite (1 to 100000)"),
             text("nonmember_scores", "[number]", "required", "the non-members' scores, finite (1 to 100000)"),
             text("preregistered_thresholds", "[number]", "optional",
                  "thresholds fixed before the scores were seen, finite (at most 100000): the best of them is "
                  "taken")}),
    };
    audit_claim = {"audit_claim",
                   "a claim",
                   {text("type", "'pure' | 'approx' | 'zcdp' | 'rdp' | 'gdp'", "one of type, guarantee",
                         "the claimed guarantee's type"),
                    object("guarantee", guarantee, "one of type, guarantee", "the claimed guarantee, as {guarantee}")},
                   "type",
                   guarantee.variants};
    audit_claim.variants.push_back(
        typed_variant("gdp", "claim", "μ-Gaussian DP", {number("mu", "required", "μ, finite ≥ 0")}));
    Field claim = object("claim", audit_claim, "optional",
                         "the privacy claimed for the mechanism: a guarantee, {guarantee}, or a request that op "
                         "'tradeoff' takes as `of`");
    claim.requests = declared(tradeoff, "of").requests;
    claim.type = audit_claim.name + " | " + declared(tradeoff, "of").type;
    audit = {
        "audit",
        "op 'audit'",
        {op_field(), object("evidence", audit_evidence, "required", "what the attack observed"),
         number("confidence", "default 0.95", "the probability, over the experiment, of the statements, in (0, 1)"),
         number("delta", "default 0", "the δ of the (ε, δ) refuted, in [0, 1)"), claim},
        "",
        {}};
  }

  // `explain` on the requests that op 'tradeoff' takes as `of`: their answer's trade-off as
  // result.tradeoff, the object op 'tradeoff' returns for the same request.
  Field explain_field() const {
    Field field = object("explain", tradeoff_options, "default false",
                         "true (or the trade-off's options) adds result.tradeoff, what an attacker can do: the "
                         "object op 'tradeoff' returns for this request");
    field.type = "boolean | tradeoff_options";
    return field;
  }

  // One variant per mechanism type of the catalog, its fields the type's parameters: a mechanism
  // added to the catalog is accepted (and documented) with no change here. The template (what
  // calibration takes) is the same mechanism whose calibratable noise parameters may be left out.
  void declare_mechanism() {
    declare_mechanism_shape(mechanism, "mechanism", "a mechanism", false);
    declare_mechanism_shape(mechanism_template, "mechanism_template", "a mechanism without its noise", true);
  }

  void declare_mechanism_shape(Shape& shape, const std::string& name, const std::string& title, bool noise_left_out) {
    shape.name = name;
    shape.title = title;
    shape.discriminator = "type";
    for (const mechanisms::MechanismType* type : mechanisms::mechanism_types()) {
      std::vector<Field> fields;
      for (const mechanisms::Parameter& parameter : type->parameters) {
        Field field = parameter_field(parameter, noise_left_out ? mechanism_template : mechanism);
        if (noise_left_out && type->calibrates(parameter.name)) field.presence = "the unknown, or given";
        fields.push_back(std::move(field));
      }
      shape.variants.push_back(typed_variant(type->name, "mechanism", type->meaning, std::move(fields)));
    }
    shape.fields = {text("type", alternatives(mechanisms::mechanism_type_names()), "required", "")};
  }

  static Field parameter_field(const mechanisms::Parameter& parameter, const Shape& mechanism_shape) {
    switch (parameter.kind) {
      case mechanisms::Parameter::Kind::kNumbers:
        return text(parameter.name.c_str(), "[number]", "required", parameter.meaning.c_str());
      case mechanisms::Parameter::Kind::kMechanism:
        return object(parameter.name.c_str(), mechanism_shape, "required", parameter.meaning.c_str());
      case mechanisms::Parameter::Kind::kBoolean:
        return text(parameter.name.c_str(), "boolean", *parameter.default_value != 0 ? "default true" : "default false",
                    parameter.meaning.c_str());
      case mechanisms::Parameter::Kind::kNumber:
        break;
    }
    const std::string presence = parameter.optional        ? "optional"
                                 : parameter.default_value ? "default " + format_number(*parameter.default_value)
                                                           : "required";
    return number(parameter.name.c_str(), presence.c_str(), parameter.meaning.c_str());
  }

  Field discretization_field(const char* presence = "optional") {
    Field field = object("discretization", discretization, presence,
                         "the grid step (a number), or {interval?, relative_accuracy?, tail_mass_truncation?}");
    field.type = "number | discretization";
    field.number_or_object = true;
    return field;
  }

  static Field orders_field() {
    return text("orders", "[number | 'infinity']", "optional",
                "Rényi orders: 1, in (1, 10000] or 'infinity', increasing (default: 1.1 … 10.9, 12 … 63, 64 … "
                "1024)");
  }

  Field repetitions_field() {
    return object("repetitions", repetitions, "optional",
                  "hyperparameter tuning: this training is one run, run a random number K of times and the best "
                  "output kept");
  }
};

}  // namespace

RequestShapes::RequestShapes() { Declarations declarations(*this); }

std::vector<const Shape*> RequestShapes::all() const {
  return {&guarantee,
          &mechanism,
          &mechanism_template,
          &item,
          &discretization,
          &target,
          &dpsgd_target,
          &group_target,
          &database_class,
          &constraint,
          &tradeoff_options,
          &dpsgd_phase,
          &audit_evidence,
          &audit_claim,
          &repetitions,
          &group,
          &compose,
          &convert,
          &split,
          &profile,
          &calibrate,
          &dpsgd,
          &dpsgd_pair,
          &dpsgd_samplers,
          &rdp,
          &databases,
          &groupwise_simulate,
          &groupwise_privacy,
          &groupwise_plan,
          &bare_guarantee,
          &tradeoff,
          &audit};
}

const RequestShapes& request_shapes() {
  static const RequestShapes shapes;
  return shapes;
}

const Field& declared(const Shape& shape, const char* name) {
  static const Field kUndeclared;
  const Field* field = shape.field(name);
  return field != nullptr ? *field : kUndeclared;
}

}  // namespace dpcalc::api
