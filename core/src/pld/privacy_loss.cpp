#include "dpcalc/pld/privacy_loss.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "dpcalc/checks.hpp"
#include "dpcalc/log_math.hpp"
#include "dpcalc/pld/pld.hpp"

namespace dpcalc::pld {
namespace {

// Mixture weights must sum to 1 within this (they are renormalised).
constexpr double kWeightSumTolerance = 1e-9;

// The masses of {L <= t} and {L > t} from a mixture loss's sublevel sets of l (`sublevel(s, strict)`
// gives those of {l <= s}, or {l < s}): L = l(X), X ~ P, or, swapped (the add direction),
// L = -l(X), X ~ Q, where {L > t} = {l < -t}, the strict sublevel set at -t, and P and Q trade places.
template <class Sublevel>
LossMasses directed_masses(bool swapped, double t, Sublevel sublevel) {
  LossMasses result;
  if (!swapped) {
    const SublevelMasses s = sublevel(t, false);
    result.p_at_most = s.p_inside;
    result.p_above = s.p_outside;
    result.q_at_most = s.q_inside;
    result.q_above = s.q_outside;
  } else {
    const SublevelMasses s = sublevel(-t, true);
    result.p_above = s.q_inside;
    result.p_at_most = s.q_outside;
    result.q_above = s.p_inside;
    result.q_at_most = s.p_outside;
  }
  return result;
}

// The Gaussian mixture's sublevel sets are intervals of a continuous law: strict or not, the same.
LossMasses mixture_masses(const PrivacyLossPair::Mixture& m, double t) {
  return directed_masses(m.swapped, t, [&](double s, bool) { return m.loss.sublevel_masses(s); });
}

// The range of a mixture pair's finite losses, in the direction it is taken in.
double mixture_min_loss(const PrivacyLossPair::Mixture& m) { return m.swapped ? -m.loss.supremum() : m.loss.infimum(); }
double mixture_max_loss(const PrivacyLossPair::Mixture& m) { return m.swapped ? -m.loss.infimum() : m.loss.supremum(); }

// The weighted sum of the parts' masses: the law of L on the revealed mixture (each part's masses
// are computed directly, so the sum keeps their relative accuracy).
LossMasses revealed_masses(const PrivacyLossPair::Revealed& r, double t) {
  LossMasses total;
  for (std::size_t i = 0; i < r.parts.size(); ++i) {
    const LossMasses m = mixture_masses(r.parts[i], t);
    total.p_above += r.weights[i] * m.p_above;
    total.q_above += r.weights[i] * m.q_above;
    total.p_at_most += r.weights[i] * m.p_at_most;
    total.q_at_most += r.weights[i] * m.q_at_most;
  }
  return total;
}

double finite_loss(double p, double q) { return std::log(p) - std::log(q); }

LossMasses finite_masses(const PrivacyLossPair::Finite& m, double t) {
  // The outcomes with loss <= t are the first j in increasing loss.
  const auto j = static_cast<std::size_t>(std::upper_bound(m.losses.begin(), m.losses.end(), t) - m.losses.begin());
  return LossMasses{m.p_above[j], m.q_above[j], m.p_at_most[j], m.q_at_most[j]};
}

// Checks one weighted list of shifts (the pair's parameters `shifts_name` and `weights_name`; an
// element's index as Error::item) and returns its components of positive weight, renormalised.
Result<std::vector<MixtureComponent>> validate_components(const std::vector<double>& shifts,
                                                          const std::vector<double>& weights,
                                                          const std::string& shifts_name,
                                                          const std::string& weights_name) {
  if (shifts.empty() || shifts.size() != weights.size()) {
    return invalid_argument(weights_name,
                            "The weights and the shifts of a mixture must be non-empty lists of the same length (got " +
                                std::to_string(weights.size()) + " weights and " + std::to_string(shifts.size()) +
                                " shifts).");
  }
  double total = 0;
  std::vector<MixtureComponent> components;
  for (std::size_t j = 0; j < weights.size(); ++j) {
    const double w = weights[j];
    if (!(w >= 0 && w <= 1)) {
      return about_item(invalid_argument(weights_name, "Each weight must be a number in [0, 1] " + got(w) + "."), j);
    }
    if (!std::isfinite(shifts[j])) {
      return about_item(invalid_argument(shifts_name, "Each shift must be a finite number " + got(shifts[j]) + "."), j);
    }
    total += w;
    if (w > 0) components.push_back({shifts[j], w});
  }
  if (!(std::fabs(total - 1) <= kWeightSumTolerance)) {
    return invalid_argument(weights_name, "The weights must sum to 1 (got a sum of " + format_number(total) + ").");
  }
  for (auto& c : components) c.weight /= total;
  return components;
}

// The privacy loss of shifted normals is L = mu x + ... with mu = spread / sigma, and its mean is
// about mu^2 / 2. Below kMinShiftSpreadOverSigma the losses (and their subsampled mixtures) are too
// small for double precision to resolve; above kMaxShiftSpreadOverSigma mu^2 overflows (NaN losses),
// while any mu above about 40 already puts losses beyond +-kMaxLoss.
constexpr double kMinShiftSpreadOverSigma = 1e-100;
constexpr double kMaxShiftSpreadOverSigma = 1e100;

// The mixture pair of a mechanism, pruned in the distribution the direction takes L under.
// Errors name "sigma", or `shifts` (the pair's parameter that holds the shifts).
Result<PrivacyLossPair::Mixture> mixture_pair(double sigma, std::vector<MixtureComponent> p,
                                              std::vector<MixtureComponent> q, bool swapped,
                                              const std::string& shifts) {
  double lowest = 0, highest = 0;
  for (const auto* components : {&p, &q}) {
    for (const MixtureComponent& c : *components) {
      lowest = std::min(lowest, c.shift);
      highest = std::max(highest, c.shift);
    }
  }
  const double spread = highest - lowest;
  if (spread > 0 && !(spread / sigma >= kMinShiftSpreadOverSigma)) {
    return invalid_argument("sigma",
                            "σ (" + format_number(sigma) +
                                ") is more than 1e100 times the distance between "
                                "the shifted means (" +
                                format_number(spread) +
                                "): the privacy loss is then below "
                                "1e-100, too small for double precision to represent its distribution. Such an item "
                                "adds almost nothing (its delta at epsilon 0 is at most about " +
                                format_number(0.4 * spread / sigma) +
                                "): leave it out of the composition, or give "
                                "a smaller σ.");
  }
  if (!(spread / sigma <= kMaxShiftSpreadOverSigma)) {
    return invalid_argument("sigma", "σ (" + format_number(sigma) +
                                         ") is less than 1e-100 times the distance between "
                                         "the shifted means (" +
                                         format_number(spread) +
                                         "): the privacy loss then reaches far "
                                         "beyond " +
                                         max_loss_text() +
                                         ", where e^loss no longer fits a double. Increase σ, or bring the "
                                         "shifts closer together.");
  }
  DPCALC_TRY(GaussianMixtureLoss loss,
             GaussianMixtureLoss::create(sigma, std::move(p), std::move(q), !swapped, swapped, shifts));
  return PrivacyLossPair::Mixture{std::move(loss), swapped};
}

// A pair that holds its own sampling (the mixture pairs) given a sampling rate below 1.
Error already_sampled(double rate) {
  return invalid_argument("sampling_rate",
                          "A mixture pair is already the dominating pair of its sampling: its sampling rate must be 1 "
                          "(got " +
                              format_number(rate) + ").");
}

// The pair of a MixtureVsMixturePair (errors on "sigma", "p_shifts", "p_weights", "q_shifts", ...).
Result<PrivacyLossPair::Mixture> two_mixtures_pair(const MixtureVsMixturePair& mixtures, bool swapped) {
  DPCALC_TRY(const double sigma, check_positive(mixtures.sigma, "sigma"));
  DPCALC_TRY(std::vector<MixtureComponent> p,
             validate_components(mixtures.p_shifts, mixtures.p_weights, "p_shifts", "p_weights"));
  DPCALC_TRY(std::vector<MixtureComponent> q,
             validate_components(mixtures.q_shifts, mixtures.q_weights, "q_shifts", "q_weights"));
  return mixture_pair(sigma, std::move(p), std::move(q), swapped, "p_shifts");
}

// The parts of a RevealedMixturePair with positive weight, the weights renormalised. Errors on
// "weights" (a part's index as Error::item), "infinite_loss_weight", or a part's own parameter
// (two_mixtures_pair).
Result<PrivacyLossPair::Revealed> revealed_mixture_pair(const RevealedMixturePair& mixture, bool swapped) {
  if (mixture.parts.empty() || mixture.parts.size() != mixture.weights.size()) {
    return invalid_argument("weights", "The weights and the parts must be non-empty lists of the same length (got " +
                                           std::to_string(mixture.weights.size()) + " weights and " +
                                           std::to_string(mixture.parts.size()) + " parts).");
  }
  const double infinite = mixture.infinite_loss_weight;
  if (!(infinite >= 0 && infinite < 1)) {
    return invalid_argument("infinite_loss_weight",
                            "The weight at infinite loss must be a number in [0, 1) " + got(infinite) + ".");
  }
  PrivacyLossPair::Revealed result;
  double total = infinite;
  for (std::size_t i = 0; i < mixture.parts.size(); ++i) {
    const double w = mixture.weights[i];
    if (!(w >= 0 && w <= 1)) {
      return about_item(invalid_argument("weights", "Each weight must be a number in [0, 1] " + got(w) + "."), i);
    }
    total += w;
    if (w == 0) continue;
    DPCALC_TRY(PrivacyLossPair::Mixture part, two_mixtures_pair(mixture.parts[i], swapped));
    result.parts.push_back(std::move(part));
    result.weights.push_back(w);
  }
  if (!(std::fabs(total - 1) <= kWeightSumTolerance)) {
    return invalid_argument("weights", "The weights and the weight at infinite loss must sum to 1 (got a sum of " +
                                           format_number(total) + ").");
  }
  if (result.parts.empty()) return invalid_argument("weights", "At least one part needs a positive weight.");
  for (double& w : result.weights) w /= total;
  result.infinite_loss_weight = infinite / total;
  return result;
}

// The components of q P + (1 - q) Q, Q the component at shift 0 (Zhu, Dong, Wang 2022, Thm 11).
std::vector<MixtureComponent> subsampled(std::vector<MixtureComponent> p, double rate) {
  if (rate < 1) {
    for (auto& c : p) c.weight *= rate;
    p.push_back({0.0, 1 - rate});
  }
  return p;
}

// The Laplace mixture pair of a mechanism (P the mixture, against Lap(0, scale)), pruned in P when
// the direction takes L under it (the remove direction). `shifts` names the pair's parameter that
// holds the shifts.
Result<PrivacyLossPair::LaplaceMixture> laplace_mixture_pair(double scale, std::vector<MixtureComponent> p,
                                                             bool swapped, const std::string& shifts) {
  DPCALC_TRY(LaplaceMixtureLoss loss, LaplaceMixtureLoss::create(scale, std::move(p), !swapped, shifts));
  return PrivacyLossPair::LaplaceMixture{std::move(loss), swapped};
}

// A probability list of a finite pair: non-empty, each entry finite and >= 0, summing to 1 within
// 1e-9 (then renormalised, so that rounding in the mechanism that built it costs nothing).
Result<std::vector<double>> checked_distribution(const std::vector<double>& masses, const std::string& name) {
  double total = 0;
  for (double mass : masses) {
    if (!(mass >= 0 && std::isfinite(mass))) {
      return invalid_argument(name, name + " must hold probabilities >= 0 " + got(mass) + ".");
    }
    total += mass;
  }
  if (masses.empty() || !(std::fabs(total - 1) <= 1e-9)) {
    return invalid_argument(
        name, name + " must be a probability distribution summing to 1 (got a sum of " + format_number(total) + ").");
  }
  std::vector<double> normalised = masses;
  for (double& mass : normalised) mass /= total;
  return normalised;
}

}  // namespace

Result<PrivacyLossPair> PrivacyLossPair::create(const DominatingPair& mechanism, Direction direction) {
  DPCALC_TRY(const double rate, check_rate(mechanism.sampling_rate, "sampling_rate"));
  const bool swapped = direction == Direction::kAdd;
  PrivacyLossPair pair;
  if (const auto* laplace = std::get_if<LaplacePair>(&mechanism.base)) {
    DPCALC_TRY(const double scale, check_positive(laplace->scale, "scale"));
    DPCALC_TRY(const double sensitivity, check_positive(laplace->sensitivity, "sensitivity"));
    DPCALC_TRY(pair.pair_, laplace_mixture_pair(scale, subsampled({{sensitivity, 1.0}}, rate), swapped, "sensitivity"));
  } else if (const auto* gaussian = std::get_if<GaussianPair>(&mechanism.base)) {
    DPCALC_TRY(const double sigma, check_positive(gaussian->sigma, "sigma"));
    DPCALC_TRY(const double sensitivity, check_positive(gaussian->sensitivity, "sensitivity"));
    DPCALC_TRY(pair.pair_,
               mixture_pair(sigma, subsampled({{sensitivity, 1.0}}, rate), {{0.0, 1.0}}, swapped, "sensitivity"));
  } else if (const auto* mixture = std::get_if<MixtureVsGaussianPair>(&mechanism.base)) {
    DPCALC_TRY(const double sigma, check_positive(mixture->sigma, "sigma"));
    DPCALC_TRY(std::vector<MixtureComponent> p,
               validate_components(mixture->shifts, mixture->weights, "shifts", "weights"));
    DPCALC_TRY(pair.pair_, mixture_pair(sigma, subsampled(std::move(p), rate), {{0.0, 1.0}}, swapped, "shifts"));
  } else if (const auto* mixtures = std::get_if<MixtureVsMixturePair>(&mechanism.base)) {
    if (rate < 1) return already_sampled(rate);
    DPCALC_TRY(pair.pair_, two_mixtures_pair(*mixtures, swapped));
  } else if (const auto* revealed = std::get_if<RevealedMixturePair>(&mechanism.base)) {
    if (rate < 1) return already_sampled(rate);
    DPCALC_TRY(pair.pair_, revealed_mixture_pair(*revealed, swapped));
  } else if (const auto* laplaces = std::get_if<LaplaceMixturePair>(&mechanism.base)) {
    DPCALC_TRY(const double scale, check_positive(laplaces->scale, "scale"));
    DPCALC_TRY(std::vector<MixtureComponent> p,
               validate_components(laplaces->shifts, laplaces->weights, "shifts", "weights"));
    DPCALC_TRY(pair.pair_, laplace_mixture_pair(scale, subsampled(std::move(p), rate), swapped, "shifts"));
  } else if (const auto* finite = std::get_if<FinitePair>(&mechanism.base)) {
    DPCALC_TRY(std::vector<double> p, checked_distribution(finite->p, "p"));
    DPCALC_TRY(std::vector<double> q, checked_distribution(finite->q, "q"));
    if (p.size() != q.size()) {
      return invalid_argument("q", "p and q must list the same outcomes (got " + std::to_string(p.size()) + " and " +
                                       std::to_string(q.size()) + " probabilities).");
    }
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = rate * p[i] + (1 - rate) * q[i];
    if (swapped) std::swap(p, q);
    pair.pair_ = Finite{std::move(p), std::move(q), {}, {}, {}, {}, {}};
  } else {
    const auto& approx = std::get<ApproxDpPair>(mechanism.base);
    DPCALC_TRY(const double epsilon, check_epsilon(approx.epsilon, "epsilon"));
    DPCALC_TRY(const double delta, check_delta(approx.delta, "delta"));
    // e^-epsilon underflows past ~745, which would turn the pair's finite losses into infinite ones.
    if (!(epsilon <= kMaxLoss)) {
      return invalid_argument("epsilon", "ε must be at most " + max_loss_text() + " for the numeric composition (got " +
                                             format_number(epsilon) + "): beyond that e^ε no longer fits a double.");
    }
    // Kairouz, Oh, Viswanath 2015 randomized-response pair; e^eps / (1 + e^eps) written so that it
    // cannot overflow.
    const double high = (1 - delta) / (1 + std::exp(-epsilon));
    const double low = (1 - delta) / (1 + std::exp(epsilon));
    std::vector<double> p{delta, high, low, 0.0};
    std::vector<double> q{0.0, low, high, delta};
    for (std::size_t i = 0; i < p.size(); ++i) p[i] = rate * p[i] + (1 - rate) * q[i];
    if (swapped) std::swap(p, q);
    pair.pair_ = Finite{std::move(p), std::move(q), {}, {}, {}, {}, {}};
  }
  pair.compute_loss_range();
  return pair;
}

void PrivacyLossPair::index_finite_masses() {
  auto& finite = std::get<Finite>(pair_);
  const std::size_t n = atoms_.size();
  finite.losses.resize(n);
  finite.p_at_most.assign(n + 1, 0.0);
  finite.q_at_most.assign(n + 1, 0.0);
  finite.p_above.assign(n + 1, 0.0);
  finite.q_above.assign(n + 1, 0.0);
  for (std::size_t j = 0; j < n; ++j) {
    finite.losses[j] = atoms_[j].loss;
    finite.p_at_most[j + 1] = finite.p_at_most[j] + atoms_[j].p;
    finite.q_at_most[j + 1] = finite.q_at_most[j] + atoms_[j].q;
  }
  for (std::size_t j = n; j-- > 0;) {
    finite.p_above[j] = finite.p_above[j + 1] + atoms_[j].p;
    finite.q_above[j] = finite.q_above[j + 1] + atoms_[j].q;
  }
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
    index_finite_masses();
  } else if (const auto* laplace = std::get_if<LaplaceMixture>(&pair_)) {
    // The two point masses x <= 0 and x >= the largest shift; the mixture is P in the remove
    // direction and Q in the add direction, where the losses change sign.
    const LaplaceMixtureLoss::Atom low = laplace->loss.low_atom(), high = laplace->loss.high_atom();
    if (laplace->swapped) {
      atoms_ = {LossAtom{-high.loss, high.q, high.p}, LossAtom{-low.loss, low.q, low.p}};
    } else {
      atoms_ = {LossAtom{low.loss, low.p, low.q}, LossAtom{high.loss, high.p, high.q}};
    }
    min_finite_loss_ = atoms_.front().loss;
    max_finite_loss_ = atoms_.back().loss;
  } else if (const auto* revealed = std::get_if<Revealed>(&pair_)) {
    min_finite_loss_ = kInfinity;
    max_finite_loss_ = -kInfinity;
    for (const Mixture& part : revealed->parts) {
      min_finite_loss_ = std::min(min_finite_loss_, mixture_min_loss(part));
      max_finite_loss_ = std::max(max_finite_loss_, mixture_max_loss(part));
    }
  } else {
    const auto& mixture = std::get<Mixture>(pair_);
    min_finite_loss_ = mixture_min_loss(mixture);
    max_finite_loss_ = mixture_max_loss(mixture);
  }
}

LossMasses PrivacyLossPair::masses(double threshold) const {
  // Every finite loss lies in [min_finite_loss, max_finite_loss]. Decide the ends here rather than
  // through the inverse of the loss function, whose rounding can put the atom at the top (Laplace)
  // just above a threshold equal to it, where the discretisation would count it as infinite loss.
  if (threshold >= max_finite_loss_) threshold = kInfinity;
  if (threshold < min_finite_loss_) threshold = -kInfinity;
  if (const auto* finite = std::get_if<Finite>(&pair_)) return finite_masses(*finite, threshold);
  if (const auto* laplace = std::get_if<LaplaceMixture>(&pair_)) {
    return directed_masses(laplace->swapped, threshold,
                           [&](double s, bool strict) { return laplace->loss.sublevel_masses(s, strict); });
  }
  if (const auto* revealed = std::get_if<Revealed>(&pair_)) return revealed_masses(*revealed, threshold);
  return mixture_masses(std::get<Mixture>(pair_), threshold);
}

LossMasses PrivacyLossPair::continuous_masses(double threshold) const {
  if (std::holds_alternative<Finite>(pair_)) return LossMasses{};
  if (threshold >= max_finite_loss_) threshold = kInfinity;  // as in masses()
  if (threshold < min_finite_loss_) threshold = -kInfinity;
  if (const auto* laplace = std::get_if<LaplaceMixture>(&pair_)) {
    return directed_masses(laplace->swapped, threshold,
                           [&](double s, bool strict) { return laplace->loss.interior_masses(s, strict); });
  }
  // The Gaussian parts have no atoms: all of their mass is continuous.
  if (const auto* revealed = std::get_if<Revealed>(&pair_)) return revealed_masses(*revealed, threshold);
  return mixture_masses(std::get<Mixture>(pair_), threshold);
}

double PrivacyLossPair::infinite_loss_mass() const {
  if (const auto* revealed = std::get_if<Revealed>(&pair_)) return revealed->infinite_loss_weight;
  const auto* finite = std::get_if<Finite>(&pair_);
  if (finite == nullptr) return 0;
  double mass = 0;
  for (std::size_t i = 0; i < finite->p.size(); ++i) {
    if (finite->q[i] == 0) mass += finite->p[i];
  }
  return mass;
}

double PrivacyLossPair::pruned_mass() const {
  // A Laplace mixture is pruned in P only, which the remove direction takes L under.
  if (const auto* laplace = std::get_if<LaplaceMixture>(&pair_)) return laplace->swapped ? 0 : laplace->loss.pruned_p();
  const auto pruned = [](const Mixture& m) { return m.swapped ? m.loss.pruned_q() : m.loss.pruned_p(); };
  if (const auto* revealed = std::get_if<Revealed>(&pair_)) {
    double mass = 0;
    for (std::size_t i = 0; i < revealed->parts.size(); ++i) mass += revealed->weights[i] * pruned(revealed->parts[i]);
    return mass;
  }
  const auto* mixture = std::get_if<Mixture>(&pair_);
  return mixture == nullptr ? 0 : pruned(*mixture);
}

bool is_symmetric(const DominatingPair& mechanism) {
  return mechanism.sampling_rate == 1 && !std::holds_alternative<MixtureVsGaussianPair>(mechanism.base) &&
         !std::holds_alternative<MixtureVsMixturePair>(mechanism.base) &&
         !std::holds_alternative<RevealedMixturePair>(mechanism.base) &&
         !std::holds_alternative<LaplaceMixturePair>(mechanism.base) &&
         !std::holds_alternative<FinitePair>(mechanism.base);
}

}  // namespace dpcalc::pld
