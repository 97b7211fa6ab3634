#include "dpcalc/databases/worst_case.hpp"

#include <algorithm>
#include <functional>
#include <numeric>

#include "dpcalc/checks.hpp"

namespace dpcalc::databases {
namespace {

using Dominates = std::function<bool(const DatabaseClass&, const DatabaseClass&)>;

// Fills `capacity` database slots with whole classes, in `order`, the last one partly.
Footprint greedy(const std::vector<DatabaseClass>& classes, const std::vector<std::size_t>& order, double capacity) {
  Footprint footprint(classes.size(), 0.0);
  double left = capacity;
  for (std::size_t c : order) {
    footprint[c] = std::min(classes[c].count, left);
    left -= footprint[c];
    if (left <= 0) break;
  }
  return footprint;
}

// Class indices by decreasing score.
std::vector<std::size_t> by_score(const std::vector<DatabaseClass>& classes,
                                  const std::function<double(const DatabaseClass&)>& score) {
  std::vector<std::size_t> order(classes.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return score(classes[a]) > score(classes[b]); });
  return order;
}

// Per-release domination of (ε, δ) guarantees, the order advanced composition's bounds respect.
bool approx_dominates(const DatabaseClass& a, const DatabaseClass& b) {
  const ApproxDp x = approx_release(a).value(), y = approx_release(b).value();
  return x.epsilon >= y.epsilon && x.delta >= y.delta && a.queries >= b.queries;
}

// Domination of dominating pairs (Zhu, Dong, Wang 2022, Def. 7): within a mechanism family by its
// own rule (mechanisms::Mechanism::dominates: the larger Δ/σ, the larger Δ/b); the
// randomized-response pair of (ε, δ) dominates every (ε, δ)-DP mechanism (Kairouz, Oh, Viswanath
// 2015, Thm 2.1), so also any ε'-DP mechanism with ε' <= ε.
bool release_dominates(const Release& a, const Release& b) {
  const auto* mechanism_a = std::get_if<mechanisms::MechanismPtr>(&a);
  const auto* mechanism_b = std::get_if<mechanisms::MechanismPtr>(&b);
  if (mechanism_a && mechanism_b) return (*mechanism_a)->dominates(**mechanism_b);
  const auto* approx_a = std::get_if<ApproxDp>(&a);
  const auto* approx_b = std::get_if<ApproxDp>(&b);
  if (approx_a && approx_b) return approx_a->epsilon >= approx_b->epsilon && approx_a->delta >= approx_b->delta;
  if (approx_a && mechanism_b) {
    const auto epsilon = (*mechanism_b)->pure_epsilon();
    return epsilon && approx_a->epsilon >= *epsilon;
  }
  return false;
}

bool pld_dominates(const DatabaseClass& a, const DatabaseClass& b) {
  return release_dominates(a.release, b.release) && a.queries >= b.queries;
}

// The classes, most revealing first, when every two are comparable; nothing otherwise.
std::optional<std::vector<std::size_t>> chain_order(const std::vector<DatabaseClass>& classes,
                                                    const Dominates& dominates) {
  for (std::size_t a = 0; a < classes.size(); ++a) {
    for (std::size_t b = a + 1; b < classes.size(); ++b) {
      if (!dominates(classes[a], classes[b]) && !dominates(classes[b], classes[a])) return std::nullopt;
    }
  }
  std::vector<std::size_t> order(classes.size());
  std::iota(order.begin(), order.end(), 0);
  // A total preorder: "strictly dominates" is a strict weak order.
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return dominates(classes[a], classes[b]) && !dominates(classes[b], classes[a]);
  });
  return order;
}

// The least release multiset that dominates, rank by rank, the multiset of values of every
// footprint of `capacity` databases: its k-th largest value is the largest k-th largest value a
// footprint can have. For a threshold t, the most releases of value >= t that `capacity`
// databases hold is a greedy choice of the classes with value >= t by number of queries.
std::vector<std::pair<double, double>> envelope(const std::vector<DatabaseClass>& classes, double capacity,
                                                const std::function<double(const DatabaseClass&)>& value) {
  std::vector<double> thresholds;
  for (const DatabaseClass& database_class : classes) thresholds.push_back(value(database_class));
  std::sort(thresholds.begin(), thresholds.end(), std::greater<double>());
  thresholds.erase(std::unique(thresholds.begin(), thresholds.end()), thresholds.end());
  const std::vector<std::size_t> by_queries = by_score(classes, [](const DatabaseClass& c) { return c.queries; });
  std::vector<std::pair<double, double>> levels;  // (value, number of releases)
  double previous = 0;
  for (double threshold : thresholds) {
    double left = capacity, releases = 0;
    for (std::size_t c : by_queries) {
      if (value(classes[c]) < threshold || left <= 0) continue;
      const double taken = std::min(classes[c].count, left);
      releases += taken * classes[c].queries;
      left -= taken;
    }
    if (releases > previous) levels.push_back({threshold, releases - previous});
    previous = releases;
  }
  return levels;
}

Result<WorstCase> advanced_envelope(const std::vector<DatabaseClass>& classes, double capacity,
                                    const MethodOptions& options) {
  const auto epsilon = [](const DatabaseClass& c) { return approx_release(c).value().epsilon; };
  const auto delta = [](const DatabaseClass& c) { return approx_release(c).value().delta; };
  std::vector<ComposedItem> items;
  for (const auto& [value, count] : envelope(classes, capacity, epsilon)) items.push_back({ApproxDp{value, 0}, count});
  for (const auto& [value, count] : envelope(classes, capacity, delta)) {
    if (value > 0) items.push_back({ApproxDp{0, value}, count});
  }
  DPCALC_TRY(Composed composed, compose_approx_items(items, options));
  // Basic composition bounds every footprint too, and its Σ ε and Σ δ are maximised exactly by
  // greedy choices: when the largest Σ δ meets the target, the largest Σ ε may be smaller.
  const auto most = [&](const std::function<double(const DatabaseClass&)>& value) {
    const Footprint f =
        greedy(classes, by_score(classes, [&](const DatabaseClass& c) { return c.queries * value(c); }), capacity);
    double total = 0;
    for (std::size_t c = 0; c < classes.size(); ++c) total += f[c] * classes[c].queries * value(classes[c]);
    return total;
  };
  if (most(delta) <= *options.delta) composed.approx.epsilon = std::min(composed.approx.epsilon, most(epsilon));
  WorstCase answer{composed,
                   greedy(classes, by_score(classes, [](const DatabaseClass& c) { return c.queries; }), capacity),
                   false, ""};
  answer.note =
      "The classes are not ordered (per release and in number of queries), so this bounds every footprint of " +
      format_number(capacity) +
      " databases at once (the most revealing k-th release for every k); "
      "a single footprint may not attain it.";
  return answer;
}

// Count vectors of `capacity` databases that no swap of one database for a more revealing one
// improves, up to `limit` of them; nothing when there are more.
std::optional<std::vector<Footprint>> unswappable_footprints(const std::vector<DatabaseClass>& classes, double capacity,
                                                             const Dominates& dominates, std::size_t limit,
                                                             long max_visits) {
  std::vector<Footprint> found;
  Footprint current(classes.size(), 0.0);
  long visits = 0;
  bool overflow = false;
  const auto swappable = [&](const Footprint& f) {
    for (std::size_t a = 0; a < classes.size(); ++a) {
      for (std::size_t b = 0; b < classes.size(); ++b) {
        if (a == b || f[b] == 0 || f[a] == classes[a].count || !dominates(classes[a], classes[b])) continue;
        if (!dominates(classes[b], classes[a]) || a < b) return true;
      }
    }
    return false;
  };
  std::function<void(std::size_t, double)> visit = [&](std::size_t c, double left) {
    if (overflow) return;
    if (++visits > max_visits) {
      overflow = true;
      return;
    }
    if (c == classes.size()) {
      if (left == 0 && !swappable(current)) {
        if (found.size() == limit) {
          overflow = true;
          return;
        }
        found.push_back(current);
      }
      return;
    }
    const double most = std::min(classes[c].count, left);
    for (double k = most; k >= 0 && !overflow; --k) {
      current[c] = k;
      visit(c + 1, left - k);
    }
    current[c] = 0;
  };
  visit(0, capacity);
  if (overflow) return std::nullopt;
  return found;
}

// The largest of several composed footprints. With a δ target every answer has the same δ and the
// largest ε is exact; basic composition takes ε and δ separately.
Result<WorstCase> worst_of(const std::vector<DatabaseClass>& classes, const std::vector<Footprint>& footprints,
                           const MethodOptions& options) {
  if (options.method == CompositionMethod::kOptimal && footprints.size() > 1) {
    // Every release is the same (check_method) and the optimal ε grows with their number: the
    // footprint with the most releases is the worst, so only it is composed (64 bounded families
    // are 2080 footprints, each an O(√count) composition).
    const auto most =
        std::max_element(footprints.begin(), footprints.end(), [&](const Footprint& a, const Footprint& b) {
          return footprint_releases(classes, a) < footprint_releases(classes, b);
        });
    return worst_of(classes, {*most}, options);
  }
  WorstCase answer;
  bool first = true;
  std::vector<Composed> all;
  for (const Footprint& footprint : footprints) {
    DPCALC_TRY(Composed composed, compose_footprint(classes, footprint, options));
    all.push_back(composed);
    if (first || reported_epsilon(composed) > reported_epsilon(answer.guarantee) ||
        (reported_epsilon(composed) == reported_epsilon(answer.guarantee) &&
         composed.approx.delta > answer.guarantee.approx.delta)) {
      answer.guarantee = composed;
      answer.footprint = footprint;
      first = false;
    }
  }
  if (options.method == CompositionMethod::kBasic) {
    for (const Composed& composed : all) {
      if (covers(answer.guarantee, composed)) continue;
      answer.guarantee.approx.delta = std::max(answer.guarantee.approx.delta, composed.approx.delta);
      answer.guarantee.pure = answer.guarantee.pure && composed.pure;
      answer.exact = false;
      answer.note =
          "No single footprint has both the largest ε and the largest δ; each is the largest over the "
          "allowed footprints.";
    }
  }
  return answer;
}

// The footprints of `capacity` databases among which the PLD method finds the worst: the most
// revealing ones when the classes are ordered by domination, else every one no swap improves.
Result<std::vector<Footprint>> pld_capacity_footprints(const std::vector<DatabaseClass>& classes, double capacity) {
  if (capacity >= total_databases(classes)) return std::vector<Footprint>{all_databases(classes)};
  if (auto order = chain_order(classes, pld_dominates))
    return std::vector<Footprint>{greedy(classes, *order, capacity)};
  auto candidates = unswappable_footprints(classes, capacity, pld_dominates, kMaxPldFootprints, 100000);
  if (!candidates) {
    return Error{kUnsupported, "constraint",
                 "The classes' releases are not ordered by privacy loss (different mechanism families, or more "
                 "queries on the less noisy one), and more than " +
                     std::to_string(kMaxPldFootprints) + " footprints of " + format_number(capacity) +
                     " databases could be the worst. List the footprints with constraint type 'families', or use "
                     "a closed-form method ('basic', 'advanced', 'zcdp'), which bounds every footprint at once."};
  }
  return *candidates;
}

// Too many explicit footprints to compose numerically.
Result<bool> check_pld_footprint_count(const AllowedFootprints& allowed) {
  if (allowed.footprints.size() <= kMaxPldFootprints) return true;
  return Error{kUnsupported, "families",
               "These families give " + std::to_string(allowed.footprints.size()) +
                   " different footprints to compose numerically; method 'pld' composes at most " +
                   std::to_string(kMaxPldFootprints) + ". Use fewer families or a closed-form method."};
}

Result<WorstCase> capacity_worst(const std::vector<DatabaseClass>& classes, double capacity,
                                 const MethodOptions& options) {
  if (capacity >= total_databases(classes)) return worst_of(classes, {all_databases(classes)}, options);
  const auto score = [&](const std::function<double(const DatabaseClass&)>& f) {
    return greedy(classes, by_score(classes, f), capacity);
  };
  switch (options.method) {
    case CompositionMethod::kBasic:
      // Σ ε and Σ δ are sums over databases of q·ε and q·δ: greedy choices maximise each exactly.
      return worst_of(classes,
                      {score([](const DatabaseClass& c) { return c.queries * approx_release(c).value().epsilon; }),
                       score([](const DatabaseClass& c) { return c.queries * approx_release(c).value().delta; })},
                      options);
    case CompositionMethod::kZcdp:
      return worst_of(classes, {score([](const DatabaseClass& c) { return c.queries * zcdp_release(c).value().rho; })},
                      options);
    case CompositionMethod::kOptimal:
      // Every release is the same (check_method): the most releases is the worst (see worst_of).
      return worst_of(classes, {score([](const DatabaseClass& c) { return c.queries; })}, options);
    case CompositionMethod::kAdvancedDrv:
    case CompositionMethod::kAdvancedKov: {
      if (auto order = chain_order(classes, approx_dominates))
        return worst_of(classes, {greedy(classes, *order, capacity)}, options);
      if (auto candidates =
              unswappable_footprints(classes, capacity, approx_dominates, kMaxClosedFormFootprints, 2000)) {
        return worst_of(classes, *candidates, options);
      }
      return advanced_envelope(classes, capacity, options);
    }
    case CompositionMethod::kPld: {
      DPCALC_TRY(std::vector<Footprint> candidates, pld_capacity_footprints(classes, capacity));
      return worst_of(classes, candidates, options);
    }
  }
  return worst_of(classes, {all_databases(classes)}, options);
}

}  // namespace

Result<WorstCase> worst_case(const std::vector<DatabaseClass>& classes, const AllowedFootprints& allowed,
                             const MethodOptions& options) {
  if (allowed.capacity) return capacity_worst(classes, *allowed.capacity, options);
  if (options.method == CompositionMethod::kPld) DPCALC_CHECK(check_pld_footprint_count(allowed));
  return worst_of(classes, allowed.footprints, options);
}

Result<std::vector<Footprint>> pld_worst_footprints(const std::vector<DatabaseClass>& classes,
                                                    const AllowedFootprints& allowed) {
  if (allowed.capacity) return pld_capacity_footprints(classes, *allowed.capacity);
  DPCALC_CHECK(check_pld_footprint_count(allowed));
  return allowed.footprints;
}

}  // namespace dpcalc::databases
