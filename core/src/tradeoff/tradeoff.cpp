#include "dpcalc/tradeoff/tradeoff.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "dpcalc/checks.hpp"
#include "dpcalc/tradeoff/outward_rounding.hpp"

namespace dpcalc::tradeoff {
namespace {

// 0, then 16 per decade from 1e-9 (112 points, the last 10^-2.0625), then 0.01, 0.02, ..., 1.
std::vector<double> make_curve_alphas() {
  std::vector<double> alphas{0.0};
  for (int i = 0; i < 112; ++i) alphas.push_back(std::pow(10.0, -9.0 + i / 16.0));
  for (int i = 1; i <= 100; ++i) alphas.push_back(i / 100.0);
  return alphas;
}

const std::vector<double>& curve_alphas() {
  static const std::vector<double> alphas = make_curve_alphas();
  return alphas;
}

// The first problem of a list of rates, if any: too long, or a value that is not a probability.
// `name` is the option's, `what` how sentences name one of its values.
std::optional<Error> invalid_rates(const std::vector<double>& rates, const std::string& name, const std::string& what) {
  if (rates.size() > kMaxRequestedPoints) {
    return invalid_argument(name, "At most " + std::to_string(kMaxRequestedPoints) + " values of " + what +
                                      " may be asked (got " + std::to_string(rates.size()) + ").");
  }
  for (std::size_t i = 0; i < rates.size(); ++i) {
    if (!(rates[i] >= 0 && rates[i] <= 1)) {
      return about_item(
          invalid_argument(name, "Each " + what + " must be a probability between 0 and 1 " + got(rates[i]) + "."), i);
    }
  }
  return std::nullopt;
}

// Upper bound on prior x / (prior x + (1 - prior) y) for x, y >= 0, not both 0.
double posterior_upper(double prior, double tpr, double fpr) {
  if (tpr == 0) return 0;
  return std::min(1.0, round_up(1 / (1 + (1 - prior) * fpr / (prior * tpr)), 6));
}

}  // namespace

Result<TradeoffOptions> check_options(const TradeoffOptions& options) {
  struct Rates {
    const std::vector<double>& values;
    const char* field;
    const char* what;
  };
  for (const Rates& rates :
       {Rates{options.alphas, "alphas", "false-positive rate"}, Rates{options.fprs, "fpr", "false-positive rate"},
        Rates{options.reconstruction_baselines, "reconstruction_baselines",
              "baseline success rate of reconstruction"}}) {
    if (auto error = invalid_rates(rates.values, rates.field, rates.what)) return *error;
  }
  if (options.prior && !(*options.prior > 0 && *options.prior < 1)) {
    return invalid_argument(
        "prior", "The prior probability of membership must be strictly between 0 and 1 " + got(*options.prior) + ".");
  }
  return options;
}

TradeoffResult summarize(const CurveSource& source, const TradeoffOptions& options) {
  // The queries: the curve's rates (sorted already) merged with the few requested ones.
  const std::vector<double>& curve = curve_alphas();
  std::vector<double> requested;
  for (const auto* list : {&options.alphas, &options.fprs, &options.reconstruction_baselines}) {
    requested.insert(requested.end(), list->begin(), list->end());
  }
  std::sort(requested.begin(), requested.end());
  std::vector<double> queries(curve.size() + requested.size());
  std::merge(curve.begin(), curve.end(), requested.begin(), requested.end(), queries.begin());
  queries.erase(std::unique(queries.begin(), queries.end()), queries.end());

  const TprBounds bounds = source.evaluate(queries);
  const bool bracketed = !bounds.lower.empty();
  // A TPR is at least the FPR (flip a coin), at most 1, and nondecreasing in the FPR: an upper bound
  // at a larger FPR also bounds a smaller one, a lower bound at a smaller FPR a larger one. NaN (a
  // source's failure) says nothing.
  std::vector<double> tpr(queries.size()), lower(queries.size());
  for (std::size_t i = queries.size(); i-- > 0;) {
    tpr[i] = std::isnan(bounds.upper[i]) ? 1.0 : std::clamp(bounds.upper[i], queries[i], 1.0);
    if (i + 1 < queries.size()) tpr[i] = std::min(tpr[i], tpr[i + 1]);
  }
  for (std::size_t i = 0; bracketed && i < queries.size(); ++i) {
    lower[i] = std::isnan(bounds.lower[i]) ? queries[i] : std::max(bounds.lower[i], queries[i]);
    if (i > 0) lower[i] = std::max(lower[i], lower[i - 1]);
  }
  std::vector<double> beta(queries.size()), beta_upper;
  if (bracketed) beta_upper.reserve(queries.size());
  double advantage = std::min(source.advantage, bounds.advantage);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    beta[i] = std::max(0.0, one_minus_down(tpr[i]));
    advantage = std::max(advantage, round_up(tpr[i] - queries[i], 1));
    if (bracketed) beta_upper.push_back(std::min(1.0, one_minus_up(std::min(lower[i], tpr[i]))));
  }
  auto index_of = [&](double alpha) {
    return static_cast<std::size_t>(std::lower_bound(queries.begin(), queries.end(), alpha) - queries.begin());
  };

  TradeoffResult result;
  result.alphas = options.alphas;
  for (double alpha : options.alphas) {
    result.beta.push_back(beta[index_of(alpha)]);
    if (bracketed) result.beta_upper.push_back(beta_upper[index_of(alpha)]);
  }
  result.curve.alpha = curve;
  result.curve.beta.reserve(curve.size());
  result.curve.tpr.reserve(curve.size());
  if (bracketed) result.curve.beta_upper.reserve(curve.size());
  for (std::size_t i = 0, k = 0; k < curve.size(); ++k) {
    while (queries[i] < curve[k]) ++i;  // every curve rate is a query
    result.curve.beta.push_back(beta[i]);
    result.curve.tpr.push_back(tpr[i]);
    if (bracketed) result.curve.beta_upper.push_back(beta_upper[i]);
  }
  result.advantage = std::min(1.0, advantage);
  result.vacuous = !(result.advantage < 1);
  for (double fpr : options.fprs) result.tpr_at_fpr.push_back(TprAtFpr{fpr, tpr[index_of(fpr)]});
  if (options.prior) {
    const double prior = *options.prior;
    Posterior posterior{prior, 1.0, {}};
    if (std::isfinite(source.likelihood_ratio)) {
      posterior.max_posterior = posterior_upper(prior, source.likelihood_ratio, 1);
    }
    for (const TprAtFpr& point : result.tpr_at_fpr) {
      // A test with FPR 0 that flags anyone flags only members; one that flags no one teaches nothing.
      const double at_fpr =
          point.fpr == 0 ? (point.tpr > 0 ? 1.0 : prior) : posterior_upper(prior, point.tpr, point.fpr);
      posterior.at_fpr.push_back(PosteriorAtFpr{point.fpr, at_fpr});
      posterior.max_posterior = std::max(posterior.max_posterior, at_fpr);
    }
    result.posterior = posterior;
  }
  for (double baseline : options.reconstruction_baselines) {
    result.reconstruction.push_back(ReconstructionBound{baseline, tpr[index_of(baseline)]});
  }
  result.mu = source.mu;
  if (source.mu) result.gdp = GdpBound{source.mu, ""};
  result.method = source.method;
  return result;
}

void include_points(TradeoffResult& result, const std::vector<CurvePoint>& points) {
  std::vector<CurvePoint> sorted = points;
  std::sort(sorted.begin(), sorted.end(), [](const CurvePoint& a, const CurvePoint& b) { return a.alpha < b.alpha; });
  const TradeoffCurve old = std::move(result.curve);
  TradeoffCurve& curve = result.curve = TradeoffCurve{};
  const bool bracketed = !old.beta_upper.empty();
  const std::size_t size = old.alpha.size() + sorted.size();
  curve.alpha.reserve(size);
  curve.tpr.reserve(size);
  curve.beta.reserve(size);
  if (bracketed) curve.beta_upper.reserve(size);
  std::size_t next = 0;
  const auto push = [&](double alpha, double tpr, double beta_upper) {
    if (!curve.alpha.empty() && curve.alpha.back() == alpha) {
      curve.tpr.back() = std::max(curve.tpr.back(), tpr);
      return;
    }
    curve.alpha.push_back(alpha);
    curve.tpr.push_back(tpr);
    if (bracketed) curve.beta_upper.push_back(beta_upper);
  };
  for (std::size_t i = 0; i <= old.alpha.size(); ++i) {
    // Points below the i-th plotted alpha: beta_upper from the plotted alpha below them.
    const double bound = i < old.alpha.size() ? old.alpha[i] : kInfinity;
    for (; next < sorted.size() && sorted[next].alpha < bound; ++next) {
      push(sorted[next].alpha, sorted[next].tpr, curve.beta_upper.empty() ? 1.0 : curve.beta_upper.back());
    }
    if (i < old.alpha.size()) push(old.alpha[i], old.tpr[i], bracketed ? old.beta_upper[i] : 1.0);
  }
  for (std::size_t j = 0; j < curve.alpha.size(); ++j) {
    if (j > 0) curve.tpr[j] = std::max(curve.tpr[j], curve.tpr[j - 1]);
    curve.beta.push_back(std::max(0.0, one_minus_down(curve.tpr[j])));
    if (bracketed) curve.beta_upper[j] = std::max(curve.beta_upper[j], curve.beta[j]);
  }
}

TradeoffResult pointwise_worst(const std::vector<TradeoffResult>& results) {
  TradeoffResult worst = results.front();
  // beta_upper bounds the true curve of one mechanism from above, and so the smallest of them: the
  // worst of several lies below each.
  const auto lower_upper = [](std::vector<double>& into, const std::vector<double>& from) {
    if (into.empty()) {
      into = from;
      return;
    }
    for (std::size_t i = 0; i < from.size(); ++i) into[i] = std::min(into[i], from[i]);
  };
  for (std::size_t r = 1; r < results.size(); ++r) {
    const TradeoffResult& other = results[r];
    for (std::size_t i = 0; i < worst.beta.size(); ++i) worst.beta[i] = std::min(worst.beta[i], other.beta[i]);
    lower_upper(worst.beta_upper, other.beta_upper);
    for (std::size_t i = 0; i < worst.curve.alpha.size(); ++i) {
      worst.curve.beta[i] = std::min(worst.curve.beta[i], other.curve.beta[i]);
      worst.curve.tpr[i] = std::max(worst.curve.tpr[i], other.curve.tpr[i]);
    }
    lower_upper(worst.curve.beta_upper, other.curve.beta_upper);
    worst.advantage = std::max(worst.advantage, other.advantage);
    for (std::size_t i = 0; i < worst.tpr_at_fpr.size(); ++i) {
      worst.tpr_at_fpr[i].tpr = std::max(worst.tpr_at_fpr[i].tpr, other.tpr_at_fpr[i].tpr);
    }
    worst.mu = worst.mu && other.mu ? std::optional<double>(std::max(*worst.mu, *other.mu)) : std::nullopt;
    // G_μ decreases in μ: the largest μ bounds every one.
    if (worst.gdp.mu_upper && other.gdp.mu_upper) {
      worst.gdp.mu_upper = std::max(*worst.gdp.mu_upper, *other.gdp.mu_upper);
    } else if (worst.gdp.mu_upper) {
      worst.gdp = other.gdp;
    }
    if (worst.posterior && other.posterior) {
      worst.posterior->max_posterior = std::max(worst.posterior->max_posterior, other.posterior->max_posterior);
      for (std::size_t i = 0; i < worst.posterior->at_fpr.size(); ++i) {
        worst.posterior->at_fpr[i].posterior =
            std::max(worst.posterior->at_fpr[i].posterior, other.posterior->at_fpr[i].posterior);
      }
    }
    for (std::size_t i = 0; i < worst.reconstruction.size(); ++i) {
      worst.reconstruction[i].max_success =
          std::max(worst.reconstruction[i].max_success, other.reconstruction[i].max_success);
    }
    worst.vacuous = worst.vacuous || other.vacuous;
    if (!worst.discretization) worst.discretization = other.discretization;
  }
  return worst;
}

}  // namespace dpcalc::tradeoff
