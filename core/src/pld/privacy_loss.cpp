#include "dpcalc/pld/privacy_loss.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"

namespace dpcalc::pld {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();

// Masses of N(mean, sigma^2) inside [lo, hi] and outside it, each without cancellation.
struct Split {
  double inside = 0;
  double outside = 0;
};

Split normal_split(double mean, double sigma, double lo, double hi) {
  if (!(lo <= hi)) return {0, 1};
  const double z_lo = (lo - mean) / sigma;
  const double z_hi = (hi - mean) / sigma;
  const double lower_tail = 0.5 * std::erfc(-z_lo / std::sqrt(2.0));  // Phi(z_lo)
  const double upper_tail = 0.5 * std::erfc(z_hi / std::sqrt(2.0));   // 1 - Phi(z_hi)
  Split split;
  split.outside = lower_tail + upper_tail;
  if (z_lo > 0) {
    split.inside = 0.5 * std::erfc(z_lo / std::sqrt(2.0)) - upper_tail;  // Phi^c(z_lo) - Phi^c(z_hi)
  } else if (z_hi < 0) {
    split.inside = 0.5 * std::erfc(-z_hi / std::sqrt(2.0)) - lower_tail;
  } else {
    split.inside = 1 - lower_tail - upper_tail;
  }
  split.inside = std::max(0.0, split.inside);
  return split;
}

// Laplace(mean, scale) masses of (-inf, x] and (x, inf), each without cancellation.
Split laplace_below(double mean, double scale, double x) {
  if (x == kInfinity) return {1, 0};
  if (x == -kInfinity) return {0, 1};
  const double z = (x - mean) / scale;
  if (z < 0) {
    const double tail = 0.5 * std::exp(z);
    return {tail, 1 - tail};
  }
  const double tail = 0.5 * std::exp(-z);
  return {1 - tail, tail};
}

// Mixture log-likelihood ratio l(x) = log sum_j w_j exp((s_j x - s_j^2 / 2) / sigma^2); convex.
double mixture_loss(const PrivacyLossPair::Mixture& m, double x) {
  double result = kNegativeInfinity;
  for (std::size_t j = 0; j < m.shifts.size(); ++j) {
    if (m.weights[j] <= 0) continue;
    const double s = m.shifts[j];
    result = log_add_exp(result, std::log(m.weights[j]) + (s * x - 0.5 * s * s) / (m.sigma * m.sigma));
  }
  return result;
}

// dl/dx: the softmax-weighted mean of s_j / sigma^2; increasing in x.
double mixture_slope(const PrivacyLossPair::Mixture& m, double x) {
  const double total = mixture_loss(m, x);
  double slope = 0;
  for (std::size_t j = 0; j < m.shifts.size(); ++j) {
    if (m.weights[j] <= 0) continue;
    const double s = m.shifts[j];
    slope += std::exp(std::log(m.weights[j]) + (s * x - 0.5 * s * s) / (m.sigma * m.sigma) - total) * s;
  }
  return slope / (m.sigma * m.sigma);
}

// Root of an increasing function f on the real line by bracketing from `start` and bisection.
template <class F>
double increasing_root(F f, double start, double scale) {
  double lo = start, hi = start;
  double step = scale;
  if (f(start) < 0) {
    while (f(hi) < 0) { lo = hi; hi += step; step *= 2; if (step > 1e300) return kInfinity; }
  } else {
    while (f(lo) >= 0) { hi = lo; lo -= step; step *= 2; if (step > 1e300) return -kInfinity; }
  }
  for (int i = 0; i < 200; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (!(mid > lo && mid < hi)) break;
    (f(mid) < 0 ? lo : hi) = mid;
  }
  return 0.5 * (lo + hi);
}

struct MixtureShape {
  bool increasing = false;   // all shifts >= 0
  bool decreasing = false;   // all shifts <= 0
  double zero_weight = 0;    // weight on shift 0
  int nonzero_count = 0;
  double single_shift = 0, single_weight = 0;  // the only nonzero shift, when nonzero_count == 1
};

MixtureShape shape_of(const PrivacyLossPair::Mixture& m) {
  MixtureShape shape;
  bool any_positive = false, any_negative = false;
  for (std::size_t j = 0; j < m.shifts.size(); ++j) {
    if (m.weights[j] <= 0) continue;
    if (m.shifts[j] == 0) { shape.zero_weight += m.weights[j]; continue; }
    ++shape.nonzero_count;
    shape.single_shift = m.shifts[j];
    shape.single_weight = m.weights[j];
    (m.shifts[j] > 0 ? any_positive : any_negative) = true;
  }
  shape.increasing = !any_negative;
  shape.decreasing = !any_positive;
  return shape;
}

// The interval {x : l(x) <= t} = [lo, hi] (lo > hi when empty).
std::pair<double, double> mixture_sublevel(const PrivacyLossPair::Mixture& m, const MixtureShape& shape,
                                           double t) {
  const double empty_lo = kInfinity, empty_hi = -kInfinity;
  const double variance = m.sigma * m.sigma;
  if (shape.nonzero_count == 1) {
    // l = log(w0 + w e^{(s x - s^2/2)/sigma^2}) is monotone with a closed-form inverse.
    const double log_rest = log_sub_exp(t, std::log(shape.zero_weight));
    if (log_rest == kNegativeInfinity) return {empty_lo, empty_hi};
    const double s = shape.single_shift;
    const double root = variance * (log_rest - std::log(shape.single_weight)) / s + 0.5 * s;
    return s > 0 ? std::make_pair(-kInfinity, root) : std::make_pair(root, kInfinity);
  }
  const double scale = m.sigma;
  auto excess = [&](double x) { return mixture_loss(m, x) - t; };
  if (shape.increasing || shape.decreasing) {
    const double limit = std::log(shape.zero_weight);  // l at the flat end
    if (!(t > limit)) return {empty_lo, empty_hi};
    if (shape.increasing) return {-kInfinity, increasing_root(excess, 0.0, scale)};
    return {increasing_root([&](double x) { return -excess(x); }, 0.0, scale), kInfinity};
  }
  const double minimiser = increasing_root([&](double x) { return mixture_slope(m, x); }, 0.0, scale);
  if (!(mixture_loss(m, minimiser) <= t)) return {empty_lo, empty_hi};
  const double hi = increasing_root(excess, minimiser, scale);
  const double lo = increasing_root([&](double x) { return -excess(x); }, minimiser, scale);
  return {lo, hi};
}

// Mass of sum_j w_j N(s_j, sigma^2) inside / outside [lo, hi].
Split mixture_split(const PrivacyLossPair::Mixture& m, double lo, double hi) {
  Split total;
  for (std::size_t j = 0; j < m.shifts.size(); ++j) {
    if (m.weights[j] <= 0) continue;
    const Split s = normal_split(m.shifts[j], m.sigma, lo, hi);
    total.inside += m.weights[j] * s.inside;
    total.outside += m.weights[j] * s.outside;
  }
  return total;
}

LossMasses mixture_masses(const PrivacyLossPair::Mixture& m, double t) {
  const MixtureShape shape = shape_of(m);
  LossMasses result;
  if (!m.swapped) {
    const auto [lo, hi] = mixture_sublevel(m, shape, t);
    const Split p = mixture_split(m, lo, hi);
    const Split q = normal_split(0, m.sigma, lo, hi);
    result.p_at_most = p.inside;
    result.p_above = p.outside;
    result.q_at_most = q.inside;
    result.q_above = q.outside;
  } else {
    // L = -l(X), X ~ N(0, sigma^2): {L > t} = {l < -t}, the (open) sublevel set at -t.
    const auto [lo, hi] = mixture_sublevel(m, shape, -t);
    const Split p = normal_split(0, m.sigma, lo, hi);
    const Split q = mixture_split(m, lo, hi);
    result.p_above = p.inside;
    result.p_at_most = p.outside;
    result.q_above = q.inside;
    result.q_at_most = q.outside;
  }
  return result;
}

// Laplace pair: u(x) = (|x| - |x - Delta|) / b in [-Delta/b, Delta/b], l = log(1 - q + q e^u).
// Returns the x-threshold x_v of {u <= v} (or {u < v}) as (-inf, x_v]; +-inf for all / nothing.
double laplace_threshold(const PrivacyLossPair::Laplace& m, double v, bool strict) {
  const double bound = m.sensitivity / m.scale;
  if (strict ? v > bound : v >= bound) return kInfinity;
  if (strict ? v <= -bound : v < -bound) return -kInfinity;
  return 0.5 * (m.scale * v + m.sensitivity);
}

// u-threshold of {l <= t}: log((e^t - (1 - q)) / q); -inf when e^t <= 1 - q.
double laplace_u_level(const PrivacyLossPair::Laplace& m, double t) {
  const double rest = m.sampling_rate < 1 ? log_sub_exp(t, std::log1p(-m.sampling_rate)) : t;
  return rest - std::log(m.sampling_rate);
}

Split laplace_mixture_below(const PrivacyLossPair::Laplace& m, double x) {
  const Split base = laplace_below(0, m.scale, x);
  const Split shifted = laplace_below(m.sensitivity, m.scale, x);
  const double q = m.sampling_rate;
  return {(1 - q) * base.inside + q * shifted.inside, (1 - q) * base.outside + q * shifted.outside};
}

LossMasses laplace_masses(const PrivacyLossPair::Laplace& m, double t) {
  LossMasses result;
  if (!m.swapped) {
    const double x = laplace_threshold(m, laplace_u_level(m, t), false);
    const Split p = laplace_mixture_below(m, x);
    const Split q = laplace_below(0, m.scale, x);
    result.p_at_most = p.inside;
    result.p_above = p.outside;
    result.q_at_most = q.inside;
    result.q_above = q.outside;
  } else {
    const double x = laplace_threshold(m, laplace_u_level(m, -t), true);
    const Split p = laplace_below(0, m.scale, x);
    const Split q = laplace_mixture_below(m, x);
    result.p_above = p.inside;
    result.p_at_most = p.outside;
    result.q_above = q.inside;
    result.q_at_most = q.outside;
  }
  return result;
}

// Mass of Laplace(mean, scale) on the interval (lo, hi), without cancellation: the factor
// 1 - e^{-(hi - lo)/b} times the density-like term of the end nearer the mean.
double laplace_between(double mean, double scale, double lo, double hi) {
  if (!(hi > lo)) return 0;
  const double width_factor = -std::expm1(-(hi - lo) / scale);
  if (lo >= mean) return 0.5 * std::exp(-(lo - mean) / scale) * width_factor;
  if (hi <= mean) return 0.5 * std::exp((hi - mean) / scale) * width_factor;
  return -0.5 * std::expm1(-(hi - mean) / scale) - 0.5 * std::expm1((lo - mean) / scale);
}

// Mass of (1 - q) Lap(0, b) + q Lap(Delta, b) on (lo, hi).
double laplace_mixture_between(const PrivacyLossPair::Laplace& m, double lo, double hi) {
  return (1 - m.sampling_rate) * laplace_between(0, m.scale, lo, hi) +
         m.sampling_rate * laplace_between(m.sensitivity, m.scale, lo, hi);
}

// The continuous part of the Laplace loss: the interior 0 < x < Delta, where u(x) is strictly
// between its extremes (x <= 0 and x >= Delta are the two atoms).
LossMasses laplace_continuous_masses(const PrivacyLossPair::Laplace& m, double t) {
  const double interior = m.sensitivity;
  LossMasses result;
  if (!m.swapped) {
    // {L <= t} is x <= x_t.
    const double x = std::clamp(laplace_threshold(m, laplace_u_level(m, t), false), 0.0, interior);
    result.p_at_most = laplace_mixture_between(m, 0, x);
    result.p_above = laplace_mixture_between(m, x, interior);
    result.q_at_most = laplace_between(0, m.scale, 0, x);
    result.q_above = laplace_between(0, m.scale, x, interior);
  } else {
    // {L > t} is x < x_s.
    const double x = std::clamp(laplace_threshold(m, laplace_u_level(m, -t), true), 0.0, interior);
    result.p_above = laplace_between(0, m.scale, 0, x);
    result.p_at_most = laplace_between(0, m.scale, x, interior);
    result.q_above = laplace_mixture_between(m, 0, x);
    result.q_at_most = laplace_mixture_between(m, x, interior);
  }
  return result;
}

double finite_loss(double p, double q) { return std::log(p) - std::log(q); }

LossMasses finite_masses(const PrivacyLossPair::Finite& m, double t) {
  LossMasses result;
  for (std::size_t i = 0; i < m.p.size(); ++i) {
    if (m.q[i] == 0 || m.p[i] == 0) continue;  // loss +inf (infinite_loss_mass) or -inf (no P-mass)
    if (finite_loss(m.p[i], m.q[i]) > t) {
      result.p_above += m.p[i];
      result.q_above += m.q[i];
    } else {
      result.p_at_most += m.p[i];
      result.q_at_most += m.q[i];
    }
  }
  return result;
}

Result<PrivacyLossPair::Mixture> validate_mixture(const GaussianMixtureMechanism& mixture,
                                                  const std::string& prefix) {
  DPCALC_TRY(double sigma, check_positive(mixture.sigma, field_path(prefix, "sigma")));
  if (mixture.shifts.empty() || mixture.shifts.size() != mixture.weights.size()) {
    return invalid_argument(field_path(prefix, "weights"),
                            "weights and shifts must be non-empty lists of the same length (got " +
                                std::to_string(mixture.weights.size()) + " weights and " +
                                std::to_string(mixture.shifts.size()) + " shifts).");
  }
  double total = 0;
  bool informative = false;
  for (std::size_t j = 0; j < mixture.weights.size(); ++j) {
    const std::string index = std::to_string(j);
    const double w = mixture.weights[j];
    if (!(w >= 0 && w <= 1)) {
      return invalid_argument(field_path(prefix, "weights." + index),
                              "each weight must be a number in [0, 1] (got " + format_number(w) + ").");
    }
    if (!std::isfinite(mixture.shifts[j])) {
      return invalid_argument(field_path(prefix, "shifts." + index),
                              "each shift must be a finite number (got " + format_number(mixture.shifts[j]) + ").");
    }
    total += w;
    informative = informative || (w > 0 && mixture.shifts[j] != 0);
  }
  if (!(std::fabs(total - 1) <= 1e-9)) {
    return invalid_argument(field_path(prefix, "weights"),
                            "weights must sum to 1 (got a sum of " + format_number(total) + ").");
  }
  if (!informative) {
    return invalid_argument(field_path(prefix, "shifts"),
                            "at least one shift with positive weight must be nonzero (otherwise P = Q).");
  }
  PrivacyLossPair::Mixture result{sigma, mixture.shifts, mixture.weights, false};
  for (double& w : result.weights) w /= total;
  return result;
}

}  // namespace

Result<PrivacyLossPair> PrivacyLossPair::create(const Mechanism& mechanism, Direction direction,
                                                const std::string& prefix) {
  DPCALC_TRY(const double rate, check_rate(mechanism.sampling_rate, field_path(prefix, "sampling_rate")));
  const bool swapped = direction == Direction::kAdd;
  PrivacyLossPair pair;
  if (const auto* laplace = std::get_if<LaplaceMechanism>(&mechanism.base)) {
    DPCALC_TRY(const double scale, check_positive(laplace->scale, field_path(prefix, "scale")));
    DPCALC_TRY(const double sensitivity, check_positive(laplace->sensitivity, field_path(prefix, "sensitivity")));
    pair.pair_ = Laplace{scale, sensitivity, rate, swapped};
  } else if (const auto* gaussian = std::get_if<GaussianMechanism>(&mechanism.base)) {
    DPCALC_TRY(const double sigma, check_positive(gaussian->sigma, field_path(prefix, "sigma")));
    DPCALC_TRY(const double sensitivity, check_positive(gaussian->sensitivity, field_path(prefix, "sensitivity")));
    Mixture mixture{sigma, {sensitivity}, {1.0}, swapped};
    if (rate < 1) mixture = Mixture{sigma, {0.0, sensitivity}, {1 - rate, rate}, swapped};
    pair.pair_ = std::move(mixture);
  } else if (const auto* mixture = std::get_if<GaussianMixtureMechanism>(&mechanism.base)) {
    DPCALC_TRY(Mixture validated, validate_mixture(*mixture, prefix));
    if (rate < 1) {
      for (double& w : validated.weights) w *= rate;
      validated.shifts.push_back(0.0);
      validated.weights.push_back(1 - rate);
    }
    validated.swapped = swapped;
    pair.pair_ = std::move(validated);
  } else {
    const auto& approx = std::get<ApproxDpMechanism>(mechanism.base);
    DPCALC_TRY(const double epsilon, check_epsilon(approx.epsilon, field_path(prefix, "epsilon")));
    DPCALC_TRY(const double delta, check_delta(approx.delta, field_path(prefix, "delta")));
    // Kairouz, Oh, Viswanath 2015 randomized-response pair; e^eps / (1 + e^eps) written so that it
    // cannot overflow.
    const double high = (1 - delta) / (1 + std::exp(-epsilon));
    const double low = (1 - delta) / (1 + std::exp(epsilon));
    std::vector<double> p{delta, high, low, 0.0};
    std::vector<double> q{0.0, low, high, delta};
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = rate * p[i] + (1 - rate) * q[i];
    if (swapped) std::swap(p, q);
    pair.pair_ = Finite{std::move(p), std::move(q)};
  }
  pair.compute_loss_range();
  return pair;
}

void PrivacyLossPair::compute_loss_range() {
  atoms_.clear();
  if (const auto* finite = std::get_if<Finite>(&pair_)) {
    min_finite_loss_ = kInfinity;
    max_finite_loss_ = -kInfinity;
    for (std::size_t i = 0; i < finite->p.size(); ++i) {
      if (finite->p[i] <= 0 || finite->q[i] <= 0) continue;
      const double loss = finite_loss(finite->p[i], finite->q[i]);
      min_finite_loss_ = std::min(min_finite_loss_, loss);
      max_finite_loss_ = std::max(max_finite_loss_, loss);
      atoms_.push_back(LossAtom{loss, finite->p[i], finite->q[i]});
    }
    std::sort(atoms_.begin(), atoms_.end(), [](const LossAtom& a, const LossAtom& b) { return a.loss < b.loss; });
    if (atoms_.empty()) min_finite_loss_ = max_finite_loss_ = 0;
  } else if (const auto* laplace = std::get_if<Laplace>(&pair_)) {
    const double bound = laplace->sensitivity / laplace->scale;
    const double q = laplace->sampling_rate;
    const double top = q < 1 ? log_add_exp(std::log1p(-q), std::log(q) + bound) : bound;
    const double bottom = q < 1 ? log_add_exp(std::log1p(-q), std::log(q) - bound) : -bound;
    min_finite_loss_ = laplace->swapped ? -top : bottom;
    max_finite_loss_ = laplace->swapped ? -bottom : top;
    // The atoms x <= 0 and x >= Delta, as masses of the mixture (1 - q) Lap(0, b) + q Lap(Delta, b)
    // and of Lap(0, b); the mixture is P in the remove direction and Q in the add direction.
    const double far = 0.5 * std::exp(-bound);
    const LossAtom low_x{bottom, (1 - q) * 0.5 + q * far, 0.5};
    const LossAtom high_x{top, (1 - q) * far + q * 0.5, far};
    if (laplace->swapped) {
      atoms_ = {LossAtom{-top, high_x.q, high_x.p}, LossAtom{-bottom, low_x.q, low_x.p}};
    } else {
      atoms_ = {low_x, high_x};
    }
  } else {
    const auto& mixture = std::get<Mixture>(pair_);
    const MixtureShape shape = shape_of(mixture);
    double smallest = std::log(shape.zero_weight);  // inf of l over x for monotone l
    if (!shape.increasing && !shape.decreasing) {
      smallest = mixture_loss(mixture, increasing_root([&](double x) { return mixture_slope(mixture, x); },
                                                       0.0, mixture.sigma));
    }
    min_finite_loss_ = mixture.swapped ? -kInfinity : smallest;
    max_finite_loss_ = mixture.swapped ? -smallest : kInfinity;
  }
}

LossMasses PrivacyLossPair::masses(double threshold) const {
  // Every finite loss lies in [min_finite_loss, max_finite_loss]. Decide the ends here rather than
  // through the inverse of the loss function, whose rounding can put the atom at the top (Laplace)
  // just above a threshold equal to it, where the discretisation would count it as infinite loss.
  if (threshold >= max_finite_loss_) threshold = kInfinity;
  if (threshold < min_finite_loss_) threshold = -kInfinity;
  if (const auto* finite = std::get_if<Finite>(&pair_)) return finite_masses(*finite, threshold);
  if (const auto* laplace = std::get_if<Laplace>(&pair_)) return laplace_masses(*laplace, threshold);
  return mixture_masses(std::get<Mixture>(pair_), threshold);
}

LossMasses PrivacyLossPair::continuous_masses(double threshold) const {
  if (std::holds_alternative<Finite>(pair_)) return LossMasses{};
  if (threshold >= max_finite_loss_) threshold = kInfinity;  // as in masses()
  if (threshold < min_finite_loss_) threshold = -kInfinity;
  if (const auto* laplace = std::get_if<Laplace>(&pair_)) return laplace_continuous_masses(*laplace, threshold);
  return mixture_masses(std::get<Mixture>(pair_), threshold);
}

double PrivacyLossPair::infinite_loss_mass() const {
  const auto* finite = std::get_if<Finite>(&pair_);
  if (finite == nullptr) return 0;
  double mass = 0;
  for (std::size_t i = 0; i < finite->p.size(); ++i) {
    if (finite->q[i] == 0) mass += finite->p[i];
  }
  return mass;
}

bool is_symmetric(const Mechanism& mechanism) {
  return mechanism.sampling_rate == 1 && !std::holds_alternative<GaussianMixtureMechanism>(mechanism.base);
}

}  // namespace dpcalc::pld
