// What an answer means to an attacker who tests whether a record (or a group of k records) was in
// the data: the trade-off curve of the answer, from the tightest source the answer has (tradeoff/):
//  * exactly Gaussian noise (μ² = Σ count (Δ/σ)², Dong, Roth, Su 2019, Cor. 3.3): the μ-GDP curve;
//  * the privacy loss distributions a numeric answer was read from: their Neyman–Pearson curve,
//    through the points of the answer's own (ε, δ), so that the curve never says less than it;
//  * a guarantee (pure, (ε, δ), zCDP, RDP): its whole privacy profile.
// Each op whose answers have a trade-off explains them with these (op.hpp: OpSteps::explain); op
// 'tradeoff' and `explain: true` write the result with write_tradeoff.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "dpcalc/api/guarantee_io.hpp"
#include "dpcalc/api/value.hpp"
#include "dpcalc/guarantees.hpp"
#include "dpcalc/pld/accountant.hpp"
#include "dpcalc/result.hpp"
#include "dpcalc/tradeoff/tradeoff.hpp"

namespace dpcalc::api {

// A curve and what it was computed from.
struct Explained {
  tradeoff::TradeoffResult tradeoff;
  std::string source;                  // 'gaussian', 'pld', 'profile', 'pure', 'approx', 'zcdp', 'rdp'
  std::optional<Guarantee> guarantee;  // the guarantee the curve is the trade-off of, when it is one
  std::optional<double> group_size;
  std::string method_note;  // added to the method's name (several footprints)
};

// What a numeric answer read from its PLDs: ε at a δ (its bracket), δ at an ε, or δ at each of
// several ε. The curve is made to pass through the points of these answers (tradeoff::answer_points).
struct PldQueries {
  std::optional<pld::EpsilonBracket> epsilon_at;  // with `delta`
  std::optional<double> delta;
  std::optional<double> epsilon;
  std::vector<double> epsilons;
};

// μ-GDP (μ ≥ 0 finite).
Result<Explained> explain_mu(double mu, const tradeoff::TradeoffOptions& options);
// The curve of a guarantee (its own profile).
Result<Explained> explain_guarantee(const Guarantee& guarantee, const tradeoff::TradeoffOptions& options);
// The Neyman–Pearson curve of composed PLDs, through the points of the answers read from them.
Result<Explained> explain_plds(const pld::ComposedPlds& plds, const PldQueries& queries,
                               const tradeoff::TradeoffOptions& options);
// The points of those answers (tradeoff::answer_points), for a curve made of several PLDs' curves.
std::vector<tradeoff::CurvePoint> answered_points(const pld::ComposedPlds& plds, const PldQueries& queries);

// The result of op 'tradeoff' (and `result.tradeoff` of an answer asked with explain: true):
// {alphas, beta, beta_upper?, curve, advantage, tpr_at_fpr, mu?, posterior?, reconstruction?,
// vacuous?, source, guarantee?, group_size?, discretization?, grid_size?, truncated_mass?, method,
// citation, citation_key}.
Value write_tradeoff(const Explained& explained);

}  // namespace dpcalc::api
