// Noise calibration (calibration/noise_calibration.hpp): answers against closed forms evaluated with
// mpmath at 50 digits (the script is quoted in each case), against dp_accounting's own calibration,
// round trips through the forward bound, and monotonicity.
#include <cmath>

#include "approx.hpp"
#include "dpcalc/calibration/noise_calibration.hpp"
#include "mechanisms_for_tests.hpp"

using dpcalc::ApproxDp;
using dpcalc::calibration::Calibration;
using dpcalc::calibration::CalibrationMethod;
using dpcalc::calibration::CalibrationProblem;

namespace {

// The noise whose scale (Laplace) or σ (Gaussian) is calibrated.
enum class NoiseKind { kLaplace, kGaussian };

// The mechanism with a placeholder noise of 1, as a calibration request reads it.
dpcalc::mechanisms::MechanismPtr noiseless(NoiseKind noise, double sensitivity, double sampling_rate) {
  auto base = noise == NoiseKind::kLaplace ? test_mechanisms::laplace(1, sensitivity)
                                           : test_mechanisms::gaussian(1, sensitivity);
  return sampling_rate < 1 ? test_mechanisms::poisson_subsampled(sampling_rate, base) : base;
}

CalibrationProblem problem(NoiseKind noise, CalibrationMethod method, ApproxDp target, double count = 1,
                           double sensitivity = 1, double sampling_rate = 1) {
  CalibrationProblem result;
  result.mechanism = noiseless(noise, sensitivity, sampling_rate);
  result.unknown = noise == NoiseKind::kLaplace ? "scale" : "sigma";
  result.method = method;
  result.target = target;
  result.count = count;
  return result;
}

Calibration calibrated(const CalibrationProblem& problem) {
  auto result = dpcalc::calibration::calibrate(problem);
  if (!result.ok()) FAIL(result.error().message);
  return result.value();
}

// Composing the answer back never exceeds the target and is within the tolerance (and 1%) of it;
// the low end of the bracket does not meet it.
void check_round_trip(const CalibrationProblem& problem, const Calibration& answer) {
  const auto back = dpcalc::calibration::forward_bound(problem, answer.unknown);
  REQUIRE(back.ok());
  CHECK(back.value().epsilon == answer.guarantee.epsilon);
  CHECK(back.value().epsilon <= problem.target.epsilon);
  CHECK(back.value().delta <= problem.target.delta);
  CHECK(back.value().epsilon >= problem.target.epsilon * (1 - answer.tolerance));
  CHECK(answer.tolerance <= 1e-3);
  const auto below = dpcalc::calibration::forward_bound(problem, answer.bracket_low);
  REQUIRE(below.ok());
  CHECK(below.value().epsilon > problem.target.epsilon);
}

}  // namespace

TEST_CASE("[calibration] Gaussian, analytic: the exact σ of Balle & Wang 2018") {
  // σ* = Δ√k/μ with δ(ε; μ) = Φ(μ/2 − ε/μ) − e^ε Φ(−μ/2 − ε/μ) = δ (Balle & Wang 2018, Thm 8), μ by
  // 400 bisection steps on [1e-6, 100] in mpmath at 50 digits.
  struct Case {
    double epsilon, delta, count, sensitivity, sigma;
  };
  for (const Case& c : {Case{1, 1e-5, 1, 1, 3.7306316348159418}, Case{0.5, 1e-6, 100, 1, 80.576184807250443},
                        Case{8, 1e-10, 1000, 2, 52.746110187780425}, Case{0.01, 1e-5, 1, 1, 243.78543767567802}}) {
    CAPTURE(c.epsilon);
    const CalibrationProblem p =
        problem(NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {c.epsilon, c.delta}, c.count, c.sensitivity);
    const Calibration answer = calibrated(p);
    // Never below the exact σ (that would not meet the target), and within 1e-8 of it.
    CHECK(answer.unknown >= c.sigma * (1 - 1e-13));
    CHECK_REL(answer.unknown, c.sigma, 1e-8);
    check_round_trip(p, answer);
    CHECK(answer.evaluations <= 12);
  }
}

TEST_CASE("[calibration] Gaussian with an ε = 0 target: δ(0) = 2Φ(μ/2) − 1") {
  // mpmath: μ = 2√2 erfinv(δ), σ* = 1/μ = 39894.228039098836 for δ = 1e-5, 398.94217595855782 for 1e-3.
  for (auto [delta, sigma] : {std::pair{1e-5, 39894.228039098836}, std::pair{1e-3, 398.94217595855782}}) {
    const CalibrationProblem p = problem(NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {0, delta});
    const Calibration answer = calibrated(p);
    CHECK(answer.guarantee.epsilon == 0);
    CHECK(answer.unknown >= sigma * (1 - 1e-13));
    CHECK_REL(answer.unknown, sigma, 1e-9);
  }
}

TEST_CASE("[calibration] Laplace, basic: b = kΔ/ε") {
  // Pure composition of the (Δ/b)-DP Laplace mechanism (Dwork & Roth 2014, Thm 3.16): 10·2/0.5 = 40.
  const CalibrationProblem p = problem(NoiseKind::kLaplace, CalibrationMethod::kBasic, {0.5, 0}, 10, 2);
  const Calibration answer = calibrated(p);
  CHECK(answer.unknown == 40);
  CHECK(answer.guarantee.epsilon == 0.5);
  CHECK(answer.guarantee.delta == 0);
  CHECK(answer.evaluations <= 3);
}

TEST_CASE("[calibration] Laplace, optimal composition: Kairouz, Oh, Viswanath 2015, Thm 3.3") {
  // b* = Δ/ε₀ with Σ_{l: (k−2l)ε₀ > ε} C(k,l)(e^{(k−l)ε₀} − e^ε e^{lε₀}) / (1 + e^ε₀)^k = δ, ε₀ by
  // bisection in mpmath at 50 digits.
  struct Case {
    double epsilon, delta, count, sensitivity, scale;
  };
  for (const Case& c : {Case{1, 1e-5, 10, 2, 19.874987415944478}, Case{1, 1e-6, 100, 1, 41.647438743251481}}) {
    const CalibrationProblem p =
        problem(NoiseKind::kLaplace, CalibrationMethod::kOptimal, {c.epsilon, c.delta}, c.count, c.sensitivity);
    const Calibration answer = calibrated(p);
    CHECK(answer.unknown >= c.scale * (1 - 1e-13));
    CHECK_REL(answer.unknown, c.scale, 1e-8);
    check_round_trip(p, answer);
  }
}

TEST_CASE("[calibration] Laplace, PLD: single use against the exact Laplace profile") {
  // δ(ε) = 1 − e^{(ε − Δ/b)/2} for ε < Δ/b, so b* = Δ/(ε − 2 ln(1 − δ)) (mpmath).
  struct Case {
    double epsilon, delta, sensitivity, scale;
  };
  for (const Case& c : {Case{1, 1e-5, 2, 1.9999600005999907}, Case{0.1, 1e-3, 1, 9.8038253885668818}}) {
    const CalibrationProblem p =
        problem(NoiseKind::kLaplace, CalibrationMethod::kPld, {c.epsilon, c.delta}, 1, c.sensitivity);
    const Calibration answer = calibrated(p);
    // The PLD bound is above the exact ε, so its b is at least b*; the tolerance is 1e-3 in ε.
    CHECK(answer.unknown >= c.scale);
    CHECK(answer.unknown <= c.scale * (1 + 2e-3));
    check_round_trip(p, answer);
  }
}

TEST_CASE("[calibration] DP-SGD noise multiplier against dp_accounting's calibrate_dp_mechanism") {
  // dp_accounting b5b0286 (0.6.0), mechanism_calibration.calibrate_dp_mechanism with PLDAccountant
  // (value_discretization_interval 1e-4), SelfComposed(PoissonSampled(q, Gaussian(z)), T),
  // ExplicitBracketInterval(0.3, 10), tol 1e-6; the ε of dp_accounting at its z is within 2e-6 of
  // the target in each case.
  struct Case {
    double rate, steps, epsilon, delta, noise_multiplier;
  };
  for (const Case& c : {Case{0.01, 1000, 1, 1e-5, 1.4146308374757288}, Case{0.01, 10000, 8, 1e-5, 0.8825307316256692},
                        Case{0.004, 100000, 2, 1e-6, 2.9140824838811086}}) {
    CAPTURE(c.steps);
    CalibrationProblem p =
        problem(NoiseKind::kGaussian, CalibrationMethod::kPld, {c.epsilon, c.delta}, c.steps, 2, c.rate);
    p.unknown = "noise_multiplier";  // solve for σ/Δ with a clip norm Δ = 2
    const Calibration answer = calibrated(p);
    // Both are upper-bound accountants at about 1e-4 resolution; ours stops within 0.1% in ε.
    CHECK_REL(answer.unknown, c.noise_multiplier, 2e-3);
    check_round_trip(p, answer);
    CHECK(answer.evaluations <= 8);
  }
}

TEST_CASE("[calibration] the default method is the tightest sound one") {
  using dpcalc::calibration::default_method;
  CHECK(default_method(*noiseless(NoiseKind::kGaussian, 1, 1), 1e-5) == CalibrationMethod::kAnalytic);
  CHECK(default_method(*noiseless(NoiseKind::kLaplace, 1, 1), 1e-5) == CalibrationMethod::kPld);
  CHECK(default_method(*noiseless(NoiseKind::kLaplace, 1, 1), 0) == CalibrationMethod::kBasic);
  CHECK(default_method(*noiseless(NoiseKind::kGaussian, 1, 0.1), 1e-5) == CalibrationMethod::kPld);
  // Tighter bounds need less noise: exact ≤ PLD ≤ zCDP for Gaussians, PLD ≤ optimal ≤ basic for Laplace.
  const ApproxDp target{1, 1e-6};
  const double analytic = calibrated(problem(NoiseKind::kGaussian, CalibrationMethod::kAnalytic, target, 50)).unknown;
  const double gaussian_pld = calibrated(problem(NoiseKind::kGaussian, CalibrationMethod::kPld, target, 50)).unknown;
  const double zcdp = calibrated(problem(NoiseKind::kGaussian, CalibrationMethod::kZcdp, target, 50)).unknown;
  CHECK(analytic <= gaussian_pld);
  CHECK(gaussian_pld <= analytic * (1 + 2e-3));
  CHECK(gaussian_pld < zcdp);
  const double laplace_pld = calibrated(problem(NoiseKind::kLaplace, CalibrationMethod::kPld, target, 50)).unknown;
  const double optimal = calibrated(problem(NoiseKind::kLaplace, CalibrationMethod::kOptimal, target, 50)).unknown;
  const double basic = calibrated(problem(NoiseKind::kLaplace, CalibrationMethod::kBasic, target, 50)).unknown;
  CHECK(laplace_pld < optimal);
  CHECK(optimal < basic);
}

TEST_CASE("[calibration] more compositions, smaller ε or smaller δ need more noise") {
  for (CalibrationMethod method : {CalibrationMethod::kAnalytic, CalibrationMethod::kZcdp}) {
    double previous = 0;
    for (double count : {1.0, 10.0, 1e3, 1e6, 9007199254740992.0}) {
      const double sigma = calibrated(problem(NoiseKind::kGaussian, method, {1, 1e-5}, count)).unknown;
      CHECK(sigma > previous);
      previous = sigma;
    }
    previous = 0;
    for (double epsilon : {100.0, 10.0, 1.0, 0.1, 1e-3}) {
      const double sigma = calibrated(problem(NoiseKind::kGaussian, method, {epsilon, 1e-5}, 10)).unknown;
      CHECK(sigma > previous);
      previous = sigma;
    }
    previous = 0;
    for (double delta : {0.1, 1e-3, 1e-6, 1e-12, 1e-100}) {
      const double sigma = calibrated(problem(NoiseKind::kGaussian, method, {1, delta}, 10)).unknown;
      CHECK(sigma > previous);
      previous = sigma;
    }
  }
  // The subsampled Gaussian: more steps and a higher sampling rate need a larger noise multiplier.
  double previous = 0;
  for (double steps : {10.0, 100.0, 1000.0}) {
    const double z =
        calibrated(problem(NoiseKind::kGaussian, CalibrationMethod::kPld, {1, 1e-5}, steps, 1, 0.01)).unknown;
    CHECK(z > previous);
    previous = z;
  }
  previous = 0;
  for (double rate : {0.001, 0.01, 0.1, 1.0}) {
    const double z =
        calibrated(problem(NoiseKind::kGaussian, CalibrationMethod::kPld, {1, 1e-5}, 100, 1, rate)).unknown;
    CHECK(z > previous);
    previous = z;
  }
}

TEST_CASE("[calibration] round trips at extreme but valid targets") {
  struct Case {
    NoiseKind noise;
    CalibrationMethod method;
    ApproxDp target;
    double count;
  };
  for (const Case& c : {Case{NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {1e-12, 1e-300}, 1},
                        Case{NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {1e6, 1e-5}, 1},
                        Case{NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {1, 1e-5}, 9007199254740992.0},
                        Case{NoiseKind::kGaussian, CalibrationMethod::kZcdp, {1e4, 1e-10}, 3},
                        Case{NoiseKind::kLaplace, CalibrationMethod::kBasic, {1e-9, 0}, 9007199254740992.0},
                        Case{NoiseKind::kLaplace, CalibrationMethod::kOptimal, {5, 1e-9}, 1000},
                        Case{NoiseKind::kGaussian, CalibrationMethod::kPld, {30, 1e-9}, 20}}) {
    CAPTURE(c.target.epsilon);
    CAPTURE(c.count);
    const CalibrationProblem p = problem(c.noise, c.method, c.target, c.count);
    check_round_trip(p, calibrated(p));
  }
}

TEST_CASE("[calibration] targets no noise in range can reach, and methods that do not apply") {
  const auto error_of = [](const CalibrationProblem& p) {
    auto result = dpcalc::calibration::calibrate(p);
    REQUIRE_FALSE(result.ok());
    return result.error();
  };
  SUBCASE("a pure target with Gaussian noise") {
    const auto error = error_of(problem(NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {1, 0}));
    CHECK(error.field == "target_delta");
  }
  SUBCASE("a pure target with a Laplace method other than basic: that method does not apply") {
    for (CalibrationMethod method : {CalibrationMethod::kOptimal, CalibrationMethod::kPld}) {
      const auto error = error_of(problem(NoiseKind::kLaplace, method, {1, 0}));
      CHECK(error.code == dpcalc::kUnsupported);
      CHECK(error.field == "method");
    }
  }
  SUBCASE("ε = 0 with basic composition") {
    const auto error = error_of(problem(NoiseKind::kLaplace, CalibrationMethod::kBasic, {0, 0}));
    CHECK(error.field == "target_epsilon");
  }
  SUBCASE("a target met below the searched range") {
    const auto error = error_of(problem(NoiseKind::kLaplace, CalibrationMethod::kBasic, {1e300, 0}));
    CHECK(error.code == dpcalc::kInvalidArgument);
    CHECK(error.field == "target_epsilon");
    CHECK(error.message.find("1e-100") != std::string::npos);
  }
  SUBCASE("a target not met above the searched range") {
    const auto error = error_of(problem(NoiseKind::kLaplace, CalibrationMethod::kBasic, {1e-300, 0}, 1e6));
    CHECK(error.field == "target_epsilon");
    CHECK(error.message.find("1e+100") != std::string::npos);
  }
  SUBCASE("closed forms of one mechanism do not apply to the other, nor to subsampling") {
    CHECK(error_of(problem(NoiseKind::kLaplace, CalibrationMethod::kAnalytic, {1, 1e-5})).field == "method");
    CHECK(error_of(problem(NoiseKind::kGaussian, CalibrationMethod::kOptimal, {1, 1e-5})).field == "method");
    CHECK(error_of(problem(NoiseKind::kGaussian, CalibrationMethod::kAnalytic, {1, 1e-5}, 1, 1, 0.5)).field ==
          "method");
  }
}

TEST_CASE("[calibration] progress is reported for PLD searches and cancelling stops them") {
  const CalibrationProblem p = problem(NoiseKind::kGaussian, CalibrationMethod::kPld, {1, 1e-5}, 1000, 1, 0.01);
  double last = 0;
  bool increasing = true;
  auto answer = dpcalc::calibration::calibrate(p, [&](double fraction) {
    increasing = increasing && fraction >= last && fraction < 1;
    last = fraction;
    return true;
  });
  REQUIRE(answer.ok());
  CHECK(increasing);
  CHECK(last > 0.3);
  auto cancelled = dpcalc::calibration::calibrate(p, [](double fraction) { return fraction < 0.3; });
  REQUIRE_FALSE(cancelled.ok());
  CHECK(cancelled.error().code == dpcalc::pld::kCancelled);
}
