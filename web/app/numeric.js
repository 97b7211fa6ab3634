// Numeric work on the page: runNumeric, the one way every section runs its numeric (PLD, quadrature,
// search) requests, under a status line with a labelled progress bar and a Cancel button; the
// rendering of a PLD answer with its bracket, and the ε grid of its privacy profile. The requests run
// in the calculator's numeric worker; every number comes from the core.
import { h } from './dom.js';
import { formatNumber, numberText } from './format.js';
import { guaranteeElement } from './results.js';
import { settleUnlessAborted } from './ask.js';
import { apiWords } from './api-words.js';

const kCancelledText = 'Cancelled. Change any input to compute again.';

const kProfilePoints = 96;

/**
 * A status line for numeric work. `onCancel` runs when Cancel is pressed. Returns { element,
 * progress(fraction), finish(state, text) } with state 'done' | 'cancelled' | 'error'.
 */
export function numericStatus({ id, label, onCancel }) {
  const progressBar = h('progress', { id: `${id}-progress`, max: '1', value: '0' });
  const labelElement = h('label', { for: progressBar.id }, `${label}: starting…`);
  const cancel = h('button', { type: 'button', class: 'secondary cancel' }, 'Cancel');
  cancel.addEventListener('click', onCancel);
  const element = h(
    'div',
    { class: 'numeric-status', dataset: { numericStatus: id, state: 'running' } },
    labelElement,
    progressBar,
    cancel,
  );
  return {
    element,
    progress(fraction) {
      if (!(fraction >= 0 && fraction <= 1)) return;
      progressBar.value = fraction;
      labelElement.textContent = `${label}: ${Math.floor(fraction * 100)}%`;
    },
    finish(state, text) {
      element.dataset.state = state;
      element.replaceChildren(h('span', { class: `status-text ${state}` }, text));
    },
  };
}

/**
 * Runs numeric work under a status line (`id`, `label`: see numericStatus). `work({ status, run })`
 * places `status.element` and asks its requests with `run(request, progress?)`: in the numeric
 * worker, cancelled by the status line's button or when `signal` aborts (newer inputs), the fraction
 * done shown on the bar as `progress(fraction)` (the whole bar by default); it resolves to the
 * response (a worker failure as an error response). A cancelled run ends `work`: then, if
 * `isCurrent()`, the status says `cancelled` (a sentence) and `onCancel()` runs. Resolves to what
 * `work` returns, or undefined when cancelled.
 */
export async function runNumeric(
  { calculator, signal, isCurrent, id, label, cancelled = kCancelledText, onCancel },
  work,
) {
  const numeric = new AbortController();
  const abort = () => numeric.abort();
  signal.addEventListener('abort', abort, { once: true });
  const status = numericStatus({ id, label, onCancel: abort });
  const run = (request, progress = (fraction) => fraction) =>
    settleUnlessAborted(
      calculator.run(request, {
        signal: numeric.signal,
        onProgress: (fraction) => status.progress(progress(fraction)),
      }),
    );
  try {
    return await work({ status, run });
  } catch (error) {
    if (error?.name !== 'AbortError') throw error;
    if (!isCurrent()) return undefined;
    status.finish('cancelled', cancelled);
    onCancel?.();
    return undefined;
  } finally {
    signal.removeEventListener('abort', abort);
  }
}

/** The PLD answer: ε ≤ upper at the target δ, then the bracket [lower, upper] on the exact ε. */
export function renderPld(result) {
  // No finite ε at this δ (noise 0): the guarantee says "no meaningful guarantee"; there is no bracket.
  if (typeof result.epsilon_upper !== 'number') {
    return h(
      'div',
      {},
      guaranteeElement(result.guarantee, { deltaIsGiven: true }),
      h('div', { class: 'bracket' }, 'no finite ε at this δ'),
    );
  }
  const bracket = h(
    'div',
    { class: 'bracket', dataset: { lower: String(result.epsilon_lower), upper: String(result.epsilon_upper) } },
    `exact ε ∈ [${formatNumber(result.epsilon_lower, 'down')}, ${formatNumber(result.epsilon_upper, 'up')}]`,
  );
  return h('div', {}, guaranteeElement(result.guarantee, { deltaIsGiven: true }), bracket);
}

/** The small print of a PLD answer: its grid, the tail mass it cut (added to δ), and any note. */
export function pldNote(result) {
  const grid =
    `grid step ${numberText(Number(result.discretization.toPrecision(4)))}, ${result.grid_size.toLocaleString('en-US')} points; ` +
    `tail mass ${formatNumber(result.truncated_mass)} counted in δ`;
  return result.note ? h('span', {}, grid, h('br'), apiWords(result.note)) : grid;
}

/**
 * The ε values at which to ask for the PLD privacy profile: log-spaced from an eighth of the ε the
 * PLD gave at the target δ to beyond every closed-form ε plotted (so the curves share the x range),
 * each rounded to three digits so that the table can show them exactly as sent.
 */
export function profileEpsilons(pldEpsilon, closedFormEpsilons) {
  const finite = closedFormEpsilons.filter((epsilon) => Number.isFinite(epsilon) && epsilon > 0);
  const center = pldEpsilon > 0 ? pldEpsilon : Math.min(1, ...finite);
  const low = center / 8;
  const high = Math.max(4 * center, ...finite);
  const values = new Set();
  for (let i = 0; i < kProfilePoints; i += 1) {
    values.add(Number((low * (high / low) ** (i / (kProfilePoints - 1))).toPrecision(3)));
  }
  return [...values].sort((a, b) => a - b);
}
