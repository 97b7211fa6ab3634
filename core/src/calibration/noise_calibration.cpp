#include "dpcalc/calibration/noise_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "dpcalc/calibration/noise_search.hpp"
#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/analytic_gaussian.hpp"
#include "dpcalc/closed_form/composition.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/closed_form/optimal_composition.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/accountant.hpp"

namespace dpcalc::calibration {
namespace {

// Bracket width (relative, in the noise) at which the search stops even outside the ε window.
constexpr double kClosedFormNoiseTolerance = 1e-12;
constexpr double kPldNoiseTolerance = 1e-6;
// Evaluation budgets: closed forms cost microseconds, a PLD bound milliseconds to a second.
constexpr int kClosedFormEvaluations = 200;
constexpr int kPldEvaluations = 40;
// Progress after n PLD evaluations is 1 − kProgressDecay^n: it rises quickly over the usual
// five to ten evaluations and never reports done before the search is.
constexpr double kProgressDecay = 0.8;
// The search range in absolute terms never extends beyond these, whatever the sensitivity: noise
// scales of 1e±300 keep a few hundred orders of magnitude of room to the double range (1e±308) for
// the products and squares the forward bounds form with them.
constexpr double kSmallestNoise = 1e-300;
constexpr double kLargestNoise = 1e300;
// Composed PLDs on fewer grid points than this are not trusted (see forward_bound).
constexpr std::int64_t kSmallestResolvedGrid = 3;

bool is_closed_form(CalibrationMethod method) { return method != CalibrationMethod::kPld; }

// An error of the accountant that evaluated the bound at a noise the search tried, in this problem's
// terms: its δ is the target's; a composition too large for its grid is the count's to change, and a
// privacy loss it cannot represent is the target's (it asked for that noise). A grid step the problem
// gives stays the step's.
Error in_calibration_terms(Error error, bool step_given = false) {
  const bool about_item = error.item != Error::kNoItem;
  if (error.field == "delta" || error.field == "total_delta") {
    error.field = "target_delta";
  } else if ((about_item && error.field == "count") || (error.field == "discretization_interval" && !step_given)) {
    error = Error{kNumeric, "count",
                  "Near the answer the numeric accountant needs more grid points than its limit (" + error.message +
                      "); lower the count or raise the target ε."};
  } else if (error.code == kNumeric && about_item) {
    error = Error{kNumeric, "target_epsilon",
                  "The numeric accountant cannot evaluate the noise this target needs: one use would have a privacy "
                  "loss beyond ±700, where e^loss no longer fits a double. Ask for a smaller target ε (or change the "
                  "count, the sampling rate or the sensitivity)."};
  }
  error.item = Error::kNoItem;
  return error;
}

}  // namespace

const char* method_name(CalibrationMethod method) {
  switch (method) {
    case CalibrationMethod::kBasic:
      return "basic";
    case CalibrationMethod::kOptimal:
      return "optimal";
    case CalibrationMethod::kAnalytic:
      return "analytic";
    case CalibrationMethod::kZcdp:
      return "zcdp";
    case CalibrationMethod::kPld:
      return "pld";
  }
  return "";
}

namespace {

MethodInfo method_info(CalibrationMethod method) {
  switch (method) {
    case CalibrationMethod::kBasic:
      return kBasicComposition;
    case CalibrationMethod::kOptimal:
      return kOptimalComposition;
    case CalibrationMethod::kAnalytic:
      return kAnalyticGaussianComposition;
    case CalibrationMethod::kZcdp:
      return kGaussianZcdp;
    case CalibrationMethod::kPld:
      return pld::kPldMethod;
  }
  return kBasicComposition;
}

// Poisson subsampling inside: only the PLD accountant knows it.
bool is_subsampled(const mechanisms::Mechanism& mechanism) {
  return mechanism.pair(mechanisms::Relation::kAddRemove).sampling_rate < 1;
}

// "'analytic', 'zcdp' or 'pld'".
std::string quoted_list(const std::vector<CalibrationMethod>& methods) {
  std::string list;
  for (std::size_t i = 0; i < methods.size(); ++i) {
    list += std::string(i == 0 ? "" : i + 1 == methods.size() ? " or " : ", ") + "'" + method_name(methods[i]) + "'";
  }
  return list;
}

// The parameters' ranges (the api layer reports them first, with their request paths), then
// whether the method applies to the mechanism (methods_for).
Result<bool> check_problem(const CalibrationProblem& problem) {
  if (auto target = ApproxDp::create(problem.target.epsilon, problem.target.delta); !target.ok()) {
    Error error = std::move(target).error();
    error.field = "target_" + error.field;
    return error;
  }
  DPCALC_CHECK(check_count(problem.count, "count"));
  const mechanisms::Mechanism& mechanism = *problem.mechanism;
  const std::vector<CalibrationMethod> methods = methods_for(mechanism);
  const CalibrationMethod method = problem.method;
  if (std::find(methods.begin(), methods.end(), method) == methods.end()) {
    return invalid_argument("method", std::string("method '") + method_name(method) + "' does not apply to a " +
                                          mechanism.type().title + " (use " + quoted_list(methods) + ").");
  }
  const bool pure = !is_subsampled(mechanism) && mechanism.pure_epsilon();
  // A pure target: no noise of a mechanism that is never pure meets it (the target is the
  // problem), while Laplace noise does under basic composition (then only the chosen method is).
  if (problem.target.delta == 0 && !pure) {
    return invalid_argument("target_delta", "The target δ must be greater than 0 for a " + mechanism.type().title +
                                                ", which is never pure ε-DP (got 0).");
  }
  if (problem.target.delta == 0 && method != CalibrationMethod::kBasic) {
    return Error{kUnsupported, "method",
                 std::string("method '") + method_name(method) +
                     "' needs a target δ > 0; a pure target (δ = 0) is met by Laplace noise under method 'basic'."};
  }
  if (problem.target.epsilon == 0 && method == CalibrationMethod::kBasic) {
    return invalid_argument("target_epsilon",
                            "The target ε must be greater than 0 with method 'basic': Laplace noise of "
                            "any finite scale has ε = count·Δ/b > 0. Give an ε > 0, or a "
                            "δ > 0 with method 'pld'.");
  }
  return true;
}

// The unknown's largest value (infinite unless the parameter is bounded).
double largest_unknown(const CalibrationProblem& problem) {
  for (const mechanisms::Calibratable& calibratable : problem.mechanism->calibratable()) {
    if (calibratable.unknown == problem.unknown) return calibratable.largest;
  }
  return kInfinity;
}

// The unknown is in units of the sensitivity when it is a noise multiplier.
double noise_unit(const CalibrationProblem& problem) {
  for (const mechanisms::Calibratable& calibratable : problem.mechanism->calibratable()) {
    if (calibratable.unknown == problem.unknown && calibratable.per_sensitivity)
      return problem.mechanism->sensitivity();
  }
  return 1;
}

// A closed-form estimate of the unknown, to start the search close to the answer.
//   Gaussian: the zCDP bound ε = ρ + 2√(ρ ln(1/δ)) (Bun & Steinke 2016, Prop 1.3) solved for ρ;
//             with subsampling, the central-limit approximation μ² = k q² (e^{Δ²/σ²} − 1) of the
//             composed loss (Bu, Dong, Long, Su 2020, Thm 5) with μ² = 2ρ.
//   Laplace:  the per-step ε₀ of advanced composition kε₀²/2 + ε₀√(2k ln(1/δ)) = ε (Dwork & Roth
//             2014, Thm 3.20), never below basic composition's ε/k; with subsampling, ε₀ undoes
//             the amplification ln(1 + q(e^ε₀ − 1)) (Balle, Barthe, Gaboardi 2018, Thm 8).
double initial_unknown(const CalibrationProblem& problem) {
  const mechanisms::Mechanism& mechanism = *problem.mechanism;
  const pld::DominatingPair pair = mechanism.pair(problem.relation);
  const double count = problem.count, rate = pair.sampling_rate;
  const double sensitivity = mechanism.sensitivity(), unit = noise_unit(problem);
  // An ε = 0 target (met by some noise only when δ > 0) starts where ε would be about δ.
  const double epsilon = problem.target.epsilon > 0 ? problem.target.epsilon : problem.target.delta;
  const double log_inverse_delta = problem.target.delta > 0 ? -std::log(problem.target.delta) : 0;
  double noise;
  if (std::holds_alternative<pld::GaussianPair>(pair.base)) {
    const double root_rho = std::sqrt(log_inverse_delta + epsilon) - std::sqrt(log_inverse_delta);
    const double rho = root_rho * root_rho;
    const double inverse_square_multiplier = rate < 1 ? std::log1p(2 * rho / (count * rate * rate)) : 2 * rho / count;
    noise = sensitivity / std::sqrt(inverse_square_multiplier);
  } else {
    double step_epsilon = epsilon / count;
    if (log_inverse_delta > 0) {
      const double advanced =
          (std::sqrt(2 * count * (log_inverse_delta + epsilon)) - std::sqrt(2 * count * log_inverse_delta)) / count;
      step_epsilon = std::max(step_epsilon, advanced);
    }
    if (rate < 1) step_epsilon = std::log1p(std::expm1(step_epsilon) / rate);
    noise = sensitivity / step_epsilon;
  }
  return std::isfinite(noise) && noise > 0 ? noise / unit : sensitivity / unit;
}

}  // namespace

CalibrationMethod default_method(const mechanisms::Mechanism& mechanism, double target_delta) {
  if (is_subsampled(mechanism)) return CalibrationMethod::kPld;
  if (mechanism.gaussian()) return CalibrationMethod::kAnalytic;
  // For Laplace noise the PLD bound is tighter than optimal composition, which treats each step as
  // the worst (Δ/b)-DP mechanism; a pure target has only the basic bound.
  if (mechanism.pure_epsilon() && target_delta == 0) return CalibrationMethod::kBasic;
  return CalibrationMethod::kPld;
}

std::vector<CalibrationMethod> methods_for(const mechanisms::Mechanism& mechanism) {
  std::vector<CalibrationMethod> methods;
  if (!is_subsampled(mechanism) && mechanism.pure_epsilon()) {
    methods.insert(methods.end(), {CalibrationMethod::kBasic, CalibrationMethod::kOptimal});
  }
  if (!is_subsampled(mechanism) && mechanism.gaussian()) {
    methods.insert(methods.end(), {CalibrationMethod::kAnalytic, CalibrationMethod::kZcdp});
  }
  methods.push_back(CalibrationMethod::kPld);
  return methods;
}

Result<ApproxDp> forward_bound(const CalibrationProblem& problem, double unknown,
                               const pld::ProgressCallback& progress) {
  DPCALC_TRY(const mechanisms::MechanismPtr noisy, problem.mechanism->with_noise(problem.unknown, unknown));
  const double count = problem.count, delta = problem.target.delta;
  // Noise that leaves no privacy loss at all (randomized response with p = 1) meets every target;
  // the numeric accountant cannot resolve a loss of 0, so it is answered here.
  if (const auto epsilon = noisy->pure_epsilon(); epsilon && *epsilon == 0) return ApproxDp{0, 0};
  switch (problem.method) {
    case CalibrationMethod::kBasic:
      return compose_basic({ComposedItem{ApproxDp{*noisy->pure_epsilon(), 0}, count}});
    case CalibrationMethod::kOptimal: {
      Result<double> epsilon = optimal_composition_epsilon(ApproxDp{*noisy->pure_epsilon(), 0}, count, delta);
      if (!epsilon.ok()) return in_calibration_terms(std::move(epsilon).error());
      return ApproxDp{epsilon.value(), delta};
    }
    case CalibrationMethod::kAnalytic: {
      // μ of the composition, rounded up so that the exact ε at the exact μ is never understated.
      const mechanisms::GaussianNoise noise = *noisy->gaussian();
      const double mu = std::nextafter(std::sqrt(count) * noise.sensitivity / noise.sigma, kInfinity);
      return ApproxDp{gaussian_epsilon_for_delta(mu, delta), delta};
    }
    case CalibrationMethod::kZcdp: {
      const Zcdp total = compose_zcdp({ZcdpItem{*noisy->zcdp(), count}});
      return zcdp_to_approx_canonne_kamath_steinke(total, delta);
    }
    case CalibrationMethod::kPld: {
      const std::vector<pld::CompositionItem> items{{noisy->pair(problem.relation), count}};
      Result<pld::EpsilonBracket> computed = pld::epsilon_for_delta(items, delta, problem.accounting, progress);
      if (!computed.ok()) {
        return in_calibration_terms(std::move(computed).error(), problem.accounting.discretization_interval != 0);
      }
      const pld::EpsilonBracket& bracket = computed.value();
      // A loss narrower than the grid step leaves the composed PLD on one or two points, where
      // its ε is no longer resolved (measured: ε = 0 at δ = 1e-300 for a subsampled Gaussian at
      // σ = 7e13, whose exact δ(0) is about 2e-15). Such noise is not certified.
      if (bracket.discretization.grid_size < kSmallestResolvedGrid) {
        return Error{kNumeric, "target_epsilon",
                     "The numeric accountant cannot evaluate the noise this target needs: its privacy loss would be "
                     "narrower than the accountant's grid step. Ask for a larger target ε (or change the count, the "
                     "sampling rate or the sensitivity)."};
      }
      return ApproxDp{bracket.epsilon_upper, delta};
    }
  }
  return invalid_argument("method", "Unknown calibration method.");
}

Result<Calibration> calibrate(const CalibrationProblem& problem, const pld::ProgressCallback& progress) {
  DPCALC_CHECK(check_problem(problem));

  const bool closed_form = is_closed_form(problem.method);
  SearchOptions options;
  const double sensitivity = problem.mechanism->sensitivity(), unit = noise_unit(problem);
  options.lowest_noise = std::max(kLowestNoiseRatio * sensitivity, kSmallestNoise) / unit;
  options.highest_noise =
      std::min(std::min(kHighestNoiseRatio * sensitivity, kLargestNoise) / unit, largest_unknown(problem));
  options.initial_noise = std::min(initial_unknown(problem), options.highest_noise);
  options.epsilon_tolerance = closed_form ? kClosedFormTolerance : kPldTolerance;
  options.noise_tolerance = closed_form ? kClosedFormNoiseTolerance : kPldNoiseTolerance;
  options.max_evaluations = closed_form ? kClosedFormEvaluations : kPldEvaluations;

  int evaluations_done = 0;
  const ForwardBound forward = [&](double unknown) {
    pld::ProgressCallback inner;
    if (progress) {
      inner = [&](double fraction) { return progress(1 - std::pow(kProgressDecay, evaluations_done + fraction)); };
    }
    Result<ApproxDp> bound = forward_bound(problem, unknown, inner);
    ++evaluations_done;
    return bound;
  };
  auto searched = smallest_noise_meeting(forward, problem.target, options);
  if (!searched.ok()) return searched.error();
  const SearchResult& search = searched.value();

  if (search.outcome == SearchOutcome::kMetAtLowest) {
    Result<mechanisms::MechanismPtr> lowest = problem.mechanism->with_noise(problem.unknown, kLowestNoiseRatio);
    if (lowest.ok() && lowest.value()->pure_epsilon() == 0.0) {
      const std::string rate = problem.mechanism->sampling_rate_parameter();
      return invalid_argument(rate.empty() ? "target_epsilon" : rate,
                              "Any noise meets the target: this mechanism reveals nothing whatever its noise (a "
                              "sampling rate of 0 uses no record), so there is no noise to calibrate.");
    }
    return invalid_argument("target_epsilon", "The target ε = " + format_number(problem.target.epsilon) +
                                                  " is met even by the smallest noise searched (" +
                                                  format_number(kLowestNoiseRatio) +
                                                  " × the sensitivity); ask for a smaller ε.");
  }
  if (search.outcome == SearchOutcome::kNotMetAtHighest) {
    if (search.first_error) return *search.first_error;
    return invalid_argument(
        "target_epsilon",
        "Even the largest noise searched (" + format_number(kHighestNoiseRatio) +
            " × the sensitivity) does not meet the target (ε = " + format_number(problem.target.epsilon) +
            ", δ = " + format_number(problem.target.delta) + "); raise the target ε or δ, or lower the count.");
  }
  // Noise just below the answer could not be certified, and the answer is not within tolerance of
  // the target: a smaller noise may well meet it, so the answer would not be the smallest.
  const bool within_tolerance = search.guarantee.epsilon >= problem.target.epsilon * (1 - options.epsilon_tolerance) &&
                                problem.target.epsilon > 0;
  if (!search.failing_bound.ok() && !within_tolerance) {
    return search.failing_bound.error();
  }
  Calibration result;
  result.unknown = search.noise;
  result.guarantee = search.guarantee;
  result.bracket_low = search.bracket_low;
  result.tolerance = options.epsilon_tolerance;
  result.evaluations = search.evaluations;
  result.method = method_info(problem.method);
  return result;
}

}  // namespace dpcalc::calibration
