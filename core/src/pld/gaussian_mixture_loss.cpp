#include "dpcalc/pld/gaussian_mixture_loss.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

#include "dpcalc/log_math.hpp"

namespace dpcalc::pld {
namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;
// exp(-40) < 5e-18: terms of a log-sum-exp this far below its largest one change it by less than
// a rounding error and are not exponentiated.
constexpr double kNegligibleExponent = 40;
// increasing_root: at most kMaxRootSteps steps; done when f is within kRootTolerance (relative to
// max(1, |target|), a few rounding errors) of the target or a step is below kSmallestRootStep relative.
constexpr int kMaxRootSteps = 400;
constexpr double kRootTolerance = 4e-16;
constexpr double kSmallestRootStep = 1e-15;

using Masses = GaussianMixtureLoss::ComponentMasses;

// N(mean, sigma^2) masses of (-inf, x] and (x, inf), the smaller one from erfc, the other as its
// complement (which is then >= 1/2 and accurate).
Masses normal_below(double mean, double sigma, double x) {
  const double z = (x - mean) / sigma;
  if (z < 0) {
    const double below = 0.5 * std::erfc(-z * kSqrtHalf);
    return {below, 1 - below};
  }
  const double above = 0.5 * std::erfc(z * kSqrtHalf);
  return {1 - above, above};
}

// N(mean, sigma^2) masses of [lo, hi] and of its complement, each without cancellation.
Masses normal_between(double mean, double sigma, double lo, double hi) {
  const double z_lo = (lo - mean) / sigma;
  const double z_hi = (hi - mean) / sigma;
  const double lower_tail = 0.5 * std::erfc(-z_lo * kSqrtHalf);
  const double upper_tail = 0.5 * std::erfc(z_hi * kSqrtHalf);
  double inside;
  if (z_lo > 0) {
    inside = 0.5 * std::erfc(z_lo * kSqrtHalf) - upper_tail;
  } else if (z_hi < 0) {
    inside = 0.5 * std::erfc(-z_hi * kSqrtHalf) - lower_tail;
  } else {
    inside = 1 - lower_tail - upper_tail;
  }
  return {std::max(0.0, inside), lower_tail + upper_tail};
}

// The weighted sum of the component masses of P and of Q: `component_masses(shift)` once per
// distinct shift (a Q component at the shift of a P component, as in every subsampled pair, reuses
// that component's normal masses: `shared[j]` is its P index, or -1).
template <class F>
std::pair<Masses, Masses> mixture_masses(const std::vector<GaussianMixtureLoss::Term>& p,
                                         const std::vector<GaussianMixtureLoss::Term>& q,
                                         const std::vector<std::ptrdiff_t>& shared, std::vector<Masses>& p_masses,
                                         F component_masses) {
  Masses p_total, q_total;
  p_masses.resize(p.size());
  for (std::size_t i = 0; i < p.size(); ++i) {
    p_masses[i] = component_masses(p[i].shift);
    p_total.inside += p[i].weight * p_masses[i].inside;
    p_total.outside += p[i].weight * p_masses[i].outside;
  }
  for (std::size_t j = 0; j < q.size(); ++j) {
    const Masses m = shared[j] >= 0 ? p_masses[static_cast<std::size_t>(shared[j])] : component_masses(q[j].shift);
    q_total.inside += q[j].weight * m.inside;
    q_total.outside += q[j].weight * m.outside;
  }
  return {p_total, q_total};
}

double total_weight(const std::vector<GaussianMixtureLoss::Term>& terms) {
  double total = 0;
  for (const auto& term : terms) total += term.weight;
  return total;
}

// log sum_i e^{offset_i + slope_i x} and its derivative (the softmax mean of the slopes), in one
// pass with a running maximum.
std::pair<double, double> log_sum_exp(const std::vector<GaussianMixtureLoss::Term>& terms, double x) {
  double top = kNegativeInfinity, sum = 0, weighted_slope = 0;
  for (const auto& term : terms) {
    const double e = term.offset + term.slope * x;
    if (e <= top) {
      if (e < top - kNegligibleExponent) continue;
      const double r = std::exp(e - top);
      sum += r;
      weighted_slope += r * term.slope;
    } else {
      const double r = top == kNegativeInfinity ? 0.0 : std::exp(top - e);
      sum = sum * r + 1;
      weighted_slope = weighted_slope * r + term.slope;
      top = e;
    }
  }
  return {top + std::log(sum), weighted_slope / sum};
}

struct Root {
  double x, slope;  // the root and f' there
};

// Solves f(x) = target for f increasing on (lo, hi) (bounds may be infinite; the root must lie
// inside) by Newton steps from `start`, falling back to bisection inside the bracket found so far,
// or to steps of doubling length while one side is still open. f returns {value, slope}. Stops
// when f is within a few rounding errors of the target or the step is below 1e-15 relative.
template <class F>
Root increasing_root(F f, double target, double lo, double hi, double start, double scale) {
  double x = std::clamp(start, std::nextafter(lo, kInfinity), std::nextafter(hi, -kInfinity));
  double step = scale;
  const double tolerance = kRootTolerance * std::max(1.0, std::fabs(target));
  for (int i = 0; i < kMaxRootSteps; ++i) {
    const auto [value, slope] = f(x);
    const double gap = value - target;
    if (std::fabs(gap) <= tolerance) return {x, slope};
    (gap < 0 ? lo : hi) = x;
    double next = x - gap / slope;
    if (!(slope > 0 && next > lo && next < hi)) {
      if (std::isinf(lo)) {
        next = hi - step;
      } else if (std::isinf(hi)) {
        next = lo + step;
      } else {
        next = lo + 0.5 * (hi - lo);
      }
      step *= 2;
    }
    if (!(std::fabs(next - x) > kSmallestRootStep * std::max(1.0, std::fabs(x)))) return {next, slope};
    if (!(next > lo && next < hi)) return {0.5 * (lo + hi), slope};  // the bracket is a single double wide
    x = next;
  }
  return {x, 0.0};
}

// Where to start the search for the root at threshold t: one Newton step from the previous root
// (at threshold `previous.threshold`, slope `previous.slope`).
double predicted(const GaussianMixtureLoss::Hint& previous, double t) {
  const double guess = previous.x + (t - previous.threshold) / previous.slope;
  return previous.slope > 0 && std::isfinite(guess) ? guess : previous.x;
}

double min_shift(const std::vector<MixtureComponent>& c) {
  double m = kInfinity;
  for (const auto& x : c) m = std::min(m, x.shift);
  return m;
}
double max_shift(const std::vector<MixtureComponent>& c) {
  double m = -kInfinity;
  for (const auto& x : c) m = std::max(m, x.shift);
  return m;
}

bool informative(const std::vector<MixtureComponent>& p, const std::vector<MixtureComponent>& q) {
  const double lo = std::min(min_shift(p), min_shift(q));
  const double hi = std::max(max_shift(p), max_shift(q));
  return lo < hi;
}

std::vector<GaussianMixtureLoss::Term> terms_of(const std::vector<MixtureComponent>& components, double sigma) {
  std::vector<GaussianMixtureLoss::Term> terms;
  const double variance = sigma * sigma;
  for (const auto& c : components) {
    terms.push_back({c.shift, c.weight, std::log(c.weight) - 0.5 * c.shift * c.shift / variance, c.shift / variance});
  }
  std::sort(terms.begin(), terms.end(), [](const auto& a, const auto& b) { return a.shift < b.shift; });
  return terms;
}

// log of the total weight at the smallest (largest) shift.
double log_weight_at(const std::vector<GaussianMixtureLoss::Term>& terms, double shift) {
  double weight = 0;
  for (const auto& t : terms) {
    if (t.shift == shift) weight += t.weight;
  }
  return std::log(weight);
}

}  // namespace

Result<GaussianMixtureLoss> GaussianMixtureLoss::create(double sigma, std::vector<MixtureComponent> p,
                                                        std::vector<MixtureComponent> q, bool prune_p, bool prune_q,
                                                        const std::string& shifts_parameter) {
  if (p.empty() || q.empty() || !informative(p, q)) {
    return invalid_argument(shifts_parameter,
                            "The two mixtures are equal (every component at the same shift), so there is "
                            "nothing to account; give at least one component at a different shift.");
  }
  GaussianMixtureLoss loss;
  loss.sigma_ = sigma;
  if (!(min_shift(p) >= max_shift(q)) && max_shift(p) <= min_shift(q)) {
    // Mirror x -> -x: both masses of every sublevel set are unchanged.
    for (auto& c : p) c.shift = -c.shift;
    for (auto& c : q) c.shift = -c.shift;
  }
  loss.convex_ = !(min_shift(p) >= max_shift(q));
  if (loss.convex_ && !(min_shift(q) == max_shift(q))) {
    return invalid_argument(shifts_parameter,
                            "Unsupported mixture pair: the shifts of P must all lie on one side of those of "
                            "Q, or Q must be a single Gaussian.");
  }
  auto pruned = [](std::vector<MixtureComponent> components, bool allowed, double& dropped) {
    dropped = 0;
    if (allowed) dropped = prune_lightest(components);
    return components;
  };
  std::vector<MixtureComponent> p_kept = pruned(p, prune_p, loss.pruned_p_);
  std::vector<MixtureComponent> q_kept = pruned(q, prune_q, loss.pruned_q_);
  if (!informative(p_kept, q_kept)) {  // never prune the pair into P = Q
    p_kept = std::move(p);
    q_kept = std::move(q);
    loss.pruned_p_ = loss.pruned_q_ = 0;
  }
  loss.p_ = terms_of(p_kept, sigma);
  loss.q_ = terms_of(q_kept, sigma);
  for (const Term& q_term : loss.q_) {
    std::ptrdiff_t match = -1;
    for (std::size_t i = 0; i < loss.p_.size(); ++i) {
      if (loss.p_[i].shift == q_term.shift) match = static_cast<std::ptrdiff_t>(i);
    }
    loss.shared_.push_back(match);
  }
  if (loss.convex_) {
    // l' is increasing; its root is the minimiser.
    const auto slope = [&](double x) {
      const auto [value, derivative] = loss.loss_and_slope(x);
      (void)value;
      return std::pair<double, double>{derivative, 0.0};  // no second derivative: bisection steps
    };
    loss.minimiser_ = increasing_root(slope, 0.0, -kInfinity, kInfinity, loss.q_.front().shift, sigma).x;
    loss.infimum_ = loss.loss(loss.minimiser_);
    loss.supremum_ = kInfinity;
    loss.hint_high_ = Hint{loss.minimiser_, loss.infimum_, 0.0};
    loss.hint_low_ = Hint{-loss.minimiser_, loss.infimum_, 0.0};
  } else {
    // As x -> -inf (+inf) each log-sum-exp follows its smallest (largest) shift.
    const double a_min = loss.p_.front().shift, a_max = loss.p_.back().shift;
    const double b_min = loss.q_.front().shift, b_max = loss.q_.back().shift;
    loss.infimum_ = a_min > b_min ? kNegativeInfinity : log_weight_at(loss.p_, a_min) - log_weight_at(loss.q_, b_min);
    loss.supremum_ = a_max > b_max ? kInfinity : log_weight_at(loss.p_, a_max) - log_weight_at(loss.q_, b_max);
    loss.explicit_root_ = loss.q_.size() == 1 && (loss.p_.size() == 1 || (loss.p_.size() == 2 && loss.shared_[0] >= 0));
  }
  return loss;
}

double GaussianMixtureLoss::loss(double x) const { return loss_and_slope(x).first; }

double GaussianMixtureLoss::explicit_root(double t) const {
  const Term& q = q_.front();
  if (p_.size() == 1) {
    // l(x) = (offset_p - offset_q) + (slope_p - slope_q) x.
    return (t - (p_[0].offset - q.offset)) / (p_[0].slope - q.slope);
  }
  // One P component sits at Q's shift, so its exponent minus Q's is a constant c0 and
  // l(x) = log(e^{c0} + e^{c1 + d x}): c1 + d x = log(e^t - e^{c0}), for t above the infimum c0.
  const Term& same = p_[static_cast<std::size_t>(shared_[0])];
  const Term& other = p_[shared_[0] == 0 ? 1 : 0];
  return (log_sub_exp(t, same.offset - q.offset) - (other.offset - q.offset)) / (other.slope - q.slope);
}

std::pair<double, double> GaussianMixtureLoss::loss_and_slope(double x) const {
  const auto [p_value, p_slope] = log_sum_exp(p_, x);
  const auto [q_value, q_slope] = log_sum_exp(q_, x);
  return {p_value - q_value, p_slope - q_slope};
}

SublevelMasses GaussianMixtureLoss::sublevel_masses(double t) const {
  SublevelMasses result;
  const double p_total = total_weight(p_), q_total = total_weight(q_);
  const bool empty = convex_ ? t < infimum_ : t <= infimum_;
  if (empty || std::isnan(t)) return {0, p_total, 0, q_total};
  if (!convex_ && t >= supremum_) return {p_total, 0, q_total, 0};
  Masses p, q;
  const auto f = [&](double x) { return loss_and_slope(x); };
  if (!convex_) {
    double root = 0;
    if (explicit_root_) {
      root = explicit_root(t);
    } else {
      const Root found = increasing_root(f, t, -kInfinity, kInfinity, predicted(hint_high_, t), sigma_);
      hint_high_ = Hint{found.x, t, found.slope};
      root = found.x;
    }
    std::tie(p, q) =
        mixture_masses(p_, q_, shared_, p_masses_, [&](double shift) { return normal_below(shift, sigma_, root); });
  } else {
    const Root high = increasing_root(f, t, minimiser_, kInfinity, predicted(hint_high_, t), sigma_);
    const auto mirrored = [&](double y) {
      const auto [value, slope] = loss_and_slope(-y);
      return std::pair<double, double>{value, -slope};
    };
    // hint_low_ is kept in the mirrored coordinate y = -x.
    const Root low = increasing_root(mirrored, t, -minimiser_, kInfinity, predicted(hint_low_, t), sigma_);
    hint_high_ = Hint{high.x, t, high.slope};
    hint_low_ = Hint{low.x, t, low.slope};
    const double hi = high.x, lo = -low.x;
    std::tie(p, q) =
        mixture_masses(p_, q_, shared_, p_masses_, [&](double shift) { return normal_between(shift, sigma_, lo, hi); });
  }
  result.p_inside = p.inside;
  result.p_outside = p.outside;
  result.q_inside = q.inside;
  result.q_outside = q.outside;
  return result;
}

}  // namespace dpcalc::pld
