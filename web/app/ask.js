// Asking the calculator for a section's requests: the page and the <dp-calculator> element send the
// same list (each section's `requests(inputs)`, web/app/<name>-requests.js) and read the answers by
// the id of each request. A response never rejects here: a worker failure becomes an error response,
// so that one failed request shows in its row instead of failing the section. No DOM here: the
// element bundles this module too.

const failure = (error) => ({
  ok: false,
  error: { code: 'internal', field: '', message: `The calculator failed: ${error?.message ?? error}` },
});

/** A calculator response that never rejects: a worker failure becomes an error response. */
export function settle(promise) {
  return promise.catch(failure);
}

/** Like settle, but a cancelled computation still rejects with its AbortError. */
export function settleUnlessAborted(promise) {
  return promise.catch((error) => {
    if (error?.name === 'AbortError') throw error;
    return failure(error);
  });
}

/**
 * The answer of one request item ({ id, request, retry? }): `retry(request, response)` may give the
 * request to ask instead after a refusal (e.g. a mechanism that has a pair only under substitution),
 * or null. Resolves to the item with `request` (the one answered) and `response`; with
 * `options.signal`, a cancelled computation rejects with its AbortError.
 */
export async function answerItem(calculator, item, options) {
  // Only work that can be cancelled (given a signal) rejects when it is.
  const ask = (request) => (options?.signal ? settleUnlessAborted : settle)(calculator.run(request, options));
  let { request } = item;
  let response = await ask(request);
  for (let next = item.retry?.(request, response); next; next = item.retry(request, response)) {
    request = next;
    response = await ask(request);
  }
  return { ...item, request, response };
}

/** Every item's answer (answerItem), all asked at once; resolves in the items' order. */
export function answerAll(calculator, items, options) {
  return Promise.all(items.map((item) => answerItem(calculator, item, options)));
}

/** The answered items by id. */
export const byId = (items) => Object.fromEntries(items.map((item) => [item.id, item]));

/** The items of `role` (each request item names what it is for: a table row, a plot point, …). */
export const ofRole = (items, role) => items.filter((item) => item.role === role);
