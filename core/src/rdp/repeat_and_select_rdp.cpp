#include "dpcalc/rdp/repeat_and_select_rdp.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "dpcalc/checks.hpp"
#include "dpcalc/closed_form/conversions.hpp"
#include "dpcalc/directed_rounding.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/rdp/subsampled_gaussian_rdp.hpp"

namespace dpcalc::rdp {
namespace {

// log E[K] of D_{η,γ} at log γ = x < 0: log|η| + log(1 − γ) − log γ − log|1 − γ^η|, or at η = 0
// log(1 − γ) − log γ − log log(1/γ); within a few ulps of each part.
double log_negative_binomial_mean(double shape, double x) {
  const double log_one_minus = std::log(-std::expm1(x));
  if (shape == 0) return log_one_minus - x - std::log(-x);
  return std::log(std::fabs(shape)) + log_one_minus - x - std::log(std::fabs(std::expm1(shape * x)));
}

// λ − 1 rounded down (exact up to 2, by Sterbenz's lemma) and 1 − 1/λ = (λ − 1)/λ rounded up.
double order_minus_one_lower(double order) { return order <= 2 ? order - 1 : std::nextafter(order - 1, 0.0); }
double one_minus_inverse_upper(double order) {
  return divide_up(order <= 2 ? order - 1 : std::nextafter(order - 1, kInfinity), order);
}

double clean(double epsilon) { return std::isnan(epsilon) || epsilon < 0 ? kInfinity : epsilon; }

// min over the auxiliary orders λ̂ of (1 − 1/λ̂)ε(λ̂) + log(1/γ)/λ̂, rounded up: log(1/γ) at λ̂ = 1
// (where ε(1) is multiplied by 0), ε(∞) at λ̂ = ∞.
double negative_binomial_bracket(const std::vector<double>& orders, const std::vector<double>& base,
                                 double log_inverse_gamma) {
  double best = kInfinity;
  for (std::size_t j = 0; j < orders.size(); ++j) {
    const double order = orders[j], epsilon = clean(base[j]);
    if (!std::isfinite(epsilon)) continue;
    double value;
    if (order == 1) {
      value = log_inverse_gamma;
    } else if (order == kInfinity) {
      value = epsilon;
    } else {
      value = add_up(multiply_up(one_minus_inverse_upper(order), epsilon), divide_up(log_inverse_gamma, order));
    }
    best = std::min(best, value);
  }
  return best;
}

}  // namespace

Result<Repetitions> check_repetitions(const Repetitions& repetitions) {
  if (!(repetitions.mean >= 1) || std::isinf(repetitions.mean)) {
    return invalid_argument(
        "mean", "The mean number of runs must be a finite number ≥ 1 " + got(repetitions.mean) + " (1: a single run).");
  }
  if (repetitions.law == RepetitionLaw::kTruncatedNegativeBinomial &&
      (!(repetitions.shape > -1) || std::isinf(repetitions.shape))) {
    return invalid_argument("shape",
                            "The shape η of the truncated negative binomial must be a finite number above −1 " +
                                got(repetitions.shape) + " (0: logarithmic, 1: geometric).");
  }
  return repetitions;
}

double truncated_negative_binomial_gamma(double shape, double mean) {
  if (!(mean > 1)) return 1;
  // E[K] falls from +∞ to 1 as γ rises from 0 to 1: bisect on x = log γ for the largest x whose
  // mean, lowered by 1e-12 for the rounding of its few terms, is still at least `mean`.
  const double target = std::log(mean) + 1e-12;
  double low = -1500, high = 0;  // E[K] ≥ e^{1500 (1 + η)}-ish at the low end: far above any double mean
  for (int i = 0; i < 200 && high - low > 1e-15 * std::max(1.0, -low); ++i) {
    const double middle = 0.5 * (low + high);
    if (log_negative_binomial_mean(shape, middle) >= target) {
      low = middle;
    } else {
      high = middle;
    }
  }
  return std::min(1.0, std::exp(low) * (1 - 4e-16));
}

Result<std::vector<double>> repeat_and_select_rdp(const Repetitions& repetitions, const std::vector<double>& orders,
                                                  const std::vector<double>& base_epsilons) {
  DPCALC_TRY(const Repetitions runs, check_repetitions(repetitions));
  DPCALC_CHECK(check_orders(orders));
  if (base_epsilons.size() != orders.size()) {
    return invalid_argument("base_epsilons", "The base curve needs one ε per order (" + std::to_string(orders.size()) +
                                                 " orders, " + std::to_string(base_epsilons.size()) + " values of ε).");
  }
  std::vector<double> base(base_epsilons.size());
  std::transform(base_epsilons.begin(), base_epsilons.end(), base.begin(), clean);
  // log E[K], rounded up (mean ≥ 1, so it is ≥ 0).
  const double log_mean = runs.mean == 1 ? 0.0 : std::nextafter(std::log(runs.mean), kInfinity);
  std::vector<double> result(orders.size(), kInfinity);
  if (runs.law == RepetitionLaw::kTruncatedNegativeBinomial) {
    const double gamma = truncated_negative_binomial_gamma(runs.shape, runs.mean);
    const double log_inverse_gamma = gamma >= 1 ? 0.0 : std::nextafter(-std::log(gamma), kInfinity);
    const double bracket = negative_binomial_bracket(orders, base, log_inverse_gamma);
    const double constant = multiply_up(add_up(1, runs.shape), bracket);
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const double order = orders[i];
      if (order == 1 || !std::isfinite(base[i]) || !std::isfinite(constant)) continue;
      const double mean_term = order == kInfinity ? 0.0 : divide_up(log_mean, order_minus_one_lower(order));
      result[i] = add_up(add_up(base[i], constant), mean_term);
    }
  } else {
    const RdpCurve curve{orders, base};
    for (std::size_t i = 0; i < orders.size(); ++i) {
      const double order = orders[i];
      if (order == 1 || !std::isfinite(base[i])) continue;
      // ε̂ = log(1 + 1/(λ − 1)), rounded down so that e^{ε̂} ≤ 1 + 1/(λ − 1) holds (δ̂ falls with ε̂, so a
      // smaller ε̂ is sound); 0 at λ = ∞.
      double epsilon_hat = 0, mean_term = 0;
      if (order != kInfinity) {
        epsilon_hat =
            std::max(0.0, std::nextafter(std::nextafter(std::log1p(1 / (order - 1)), 0.0), 0.0) * (1 - 4e-16));
        mean_term = divide_up(log_mean, order_minus_one_lower(order));
      }
      const double delta_hat = rdp_to_delta(curve, epsilon_hat).delta;
      result[i] = add_up(add_up(base[i], multiply_up(runs.mean, delta_hat)), mean_term);
    }
  }
  return monotone_envelope(orders, std::move(result));
}

Result<std::vector<double>> repeat_and_select_rdp(const Repetitions& repetitions, const std::vector<double>& orders,
                                                  const RdpFunction& base) {
  DPCALC_CHECK(check_orders(orders));
  std::vector<double> auxiliary = default_orders();
  auxiliary.insert(auxiliary.end(), orders.begin(), orders.end());
  auxiliary.push_back(1);
  auxiliary.push_back(kInfinity);
  std::sort(auxiliary.begin(), auxiliary.end());
  auxiliary.erase(std::unique(auxiliary.begin(), auxiliary.end()), auxiliary.end());
  std::vector<double> values(auxiliary.size());
  std::transform(auxiliary.begin(), auxiliary.end(), values.begin(), [&base](double order) { return base(order); });
  DPCALC_TRY(const std::vector<double> tuned, repeat_and_select_rdp(repetitions, auxiliary, values));
  std::vector<double> result;
  result.reserve(orders.size());
  for (double order : orders) {
    result.push_back(tuned[std::lower_bound(auxiliary.begin(), auxiliary.end(), order) - auxiliary.begin()]);
  }
  return result;
}

}  // namespace dpcalc::rdp
