// Shared helpers for the Node tests of the built JS API (dist/dpcalc.js).
import assert from 'node:assert/strict';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const distDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist');

export async function loadCalculator() {
  const { createCalculator } = await import(pathToFileURL(path.join(distDir, 'dpcalc.js')).href);
  return createCalculator();
}

/** `actual` within relative tolerance `relative` of `expected`. */
export function assertClose(actual, expected, relative, label = '') {
  assert.equal(typeof actual, 'number', `${label}: expected a number, got ${actual}`);
  const error = Math.abs(actual - expected) / Math.abs(expected);
  assert.ok(
    error <= relative,
    `${label}: ${actual} differs from ${expected} by ${error.toExponential(2)} (allowed ${relative})`,
  );
}

/** Unwraps an ok response, failing with the error when it is not ok. */
export function okResult(response) {
  assert.equal(response.ok, true, `expected ok, got ${JSON.stringify(response)}`);
  return response.result;
}

/** Asserts an invalid_argument (or `code`) error on `field`, with a non-empty message. */
export function assertError(response, field, code = 'invalid_argument') {
  assert.equal(response.ok, false, `expected an error on ${field}, got ${JSON.stringify(response)}`);
  assert.equal(response.error.code, code, JSON.stringify(response.error));
  assert.equal(response.error.field, field, JSON.stringify(response.error));
  assert.ok(response.error.message.length > 10, 'the message explains the error');
}
