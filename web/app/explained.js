// How the page gets the trade-off curve behind "What an attacker can do" (attacker.js): for a
// section's answer to request `of`, the curve op 'tradeoff' gives for `of` (docs/API.md), at the
// false-positive rate and prior the panel's sentences quote. Today that is one more request per
// curve. This module is the one place to change when the core takes `explain: true` on every
// request op 'tradeoff' takes as `of` (adding `result.tradeoff`, the object op 'tradeoff' returns for
// it): `explainedRequest` then adds that field, and `tradeoffOf` reads the answer's `result.tradeoff`
// instead of asking. No DOM here.

export const kFpr = 1e-3; // "wrongly flags at most 1 in 1,000"
export const kPrior = 0.5; // "an attacker who thought it a coin toss"

/** The op 'tradeoff' request for the answer to `of` (a request, or { guarantee }). */
export const tradeoffRequest = (of) => ({ op: 'tradeoff', of, fpr: [kFpr], prior: kPrior });

/** Request `request` as a section sends it when the panel explains its answer: unchanged for now. */
export const explainedRequest = (request) => request;

/**
 * The trade-off response for `of`: `ask(request)` sends a request (with the panel's cancellation);
 * `response` is the section's own answer to `of` when it sent exactly `of` (through
 * explainedRequest), else undefined. Resolves to { ok, result } as op 'tradeoff' answers.
 */
export function tradeoffOf(ask, of, response) {
  void response; // the answer to `of` carries no trade-off yet
  return ask(tradeoffRequest(of));
}
