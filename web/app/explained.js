// How the page gets the trade-off curve behind "What an attacker can do" (attacker.js): for a
// section's answer to request `of`, the curve op 'tradeoff' gives for `of` (docs/API.md), at the
// false-positive rate and prior the panel's sentences quote. A section that sends `of` itself sends
// it through explainedRequest (or explainedItem), which adds `explain` with the panel's options: the
// core then answers the request and its trade-off at once (result.tradeoff, the object op 'tradeoff'
// returns for it, from the answer's own privacy loss distributions), and tradeoffOf reads it
// instead of asking op 'tradeoff' to answer the request again. No DOM here.
import { isNumeric } from '../client.js';

export const kFpr = 1e-3; // "wrongly flags at most 1 in 1,000"
export const kDefaultFpr = 0.01; // the panel's FPR input, until the person sets another
export const kPrior = 0.5; // "an attacker who thought it a coin toss"

const kPanelFprs = Object.freeze([kFpr, kDefaultFpr]);
const kPanelOptions = Object.freeze({ fpr: kPanelFprs, prior: kPrior });

/** `request` without the trade-off it asks for (`explain`). */
function withoutExplain(request) {
  if (!request || !Object.hasOwn(request, 'explain')) return request;
  const plain = { ...request };
  delete plain.explain;
  return plain;
}

/** The op 'tradeoff' request for the answer to `of` (a request, or { guarantee }), at the rates `fpr`. */
export const tradeoffRequest = (of, fpr = kPanelFprs) => ({
  op: 'tradeoff',
  of: withoutExplain(of),
  fpr: [...fpr],
  prior: kPrior,
});

/**
 * Request `request` as a section sends it when the panel explains its answer: with `explain` (the
 * panel's options), where its trade-off runs in the request's own lane. Where it does not (a group
 * of Laplace noise answers in closed form, its curve comes from the mechanism's privacy loss
 * distribution), the request goes unchanged and the panel asks op 'tradeoff' in the numeric lane.
 */
export function explainedRequest(request) {
  return isNumeric(tradeoffRequest(request)) === isNumeric(request) ? { ...request, explain: kPanelOptions } : request;
}

/**
 * A request item (ask.js: { id, request, retry? }) as a section sends it when the panel explains its
 * answer: its request through explainedRequest. Should the answer with its trade-off be refused, the
 * request is asked again alone (after the item's own retry rule), so that the row shows what the
 * request alone answers; the panel then asks op 'tradeoff'.
 */
export function explainedItem(item) {
  const retry = (asked, response) =>
    item.retry?.(asked, response) ?? (!response.ok && Object.hasOwn(asked, 'explain') ? withoutExplain(asked) : null);
  return { ...item, request: explainedRequest(item.request), retry };
}

/**
 * The answer to `request` with its trade-off, as explainedItem asks it, for a section that sends its
 * requests with `ask(request)` (resolving to the response) rather than as items.
 */
export async function askExplained(ask, request) {
  const explained = explainedRequest(request);
  const response = await ask(explained);
  return response.ok || explained === request ? response : ask(request);
}

/**
 * The trade-off response for `of`: `ask(request)` sends a request (with the panel's cancellation);
 * `response` is the section's own answer to `of` when it sent exactly `of` (through explainedRequest),
 * else undefined. Resolves to { ok, result } as op 'tradeoff' answers.
 */
export function tradeoffOf(ask, of, response) {
  const tradeoff = response?.ok ? response.result.tradeoff : undefined;
  return tradeoff ? Promise.resolve({ ok: true, result: tradeoff }) : ask(tradeoffRequest(of));
}
