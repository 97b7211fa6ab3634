// "More digits": a numeric (PLD) answer asked again for a bracket ten times narrower than the one
// shown (the request's `discretization.relative_accuracy`, docs/API.md: the core makes the bracket at
// most 4 × that relative width, or says why not), in the numeric worker with progress and Cancel, and
// how long it took. The bounds are shown with as many digits as the bracket supports, rounded outwards.
import { h } from './dom.js';
import { numberText, roundTo } from './format.js';
import { runNumeric } from './numeric.js';
import { apiWords } from './api-words.js';

// The core's default relative accuracy (docs/API.md, discretization), and the finest asked for:
// below it the bound on the FFT's rounding error dominates every bracket.
const kDefaultAccuracy = 5e-4;
const kFinestAccuracy = 1e-9;

/**
 * The accuracy that asks for a tenth of the bracket's width: a tenth of `accuracy` (the one it was
 * asked at), or of the width's own accuracy (width / 4) where the bracket came out narrower than
 * asked, as an exact grid makes it (a tenth of `accuracy` would then give the same bracket again).
 * Null below the finest asked for, and for an exact answer.
 */
function tighterAccuracy({ lower, upper }, accuracy) {
  const width = (upper - lower) / upper;
  const next = Number((Math.min(accuracy, width / 4) / 10).toPrecision(1));
  return next >= kFinestAccuracy && upper > lower ? next : null;
}

/** Significant digits that tell the ends of the bracket apart: two past its relative width. */
function digitsOf({ lower, upper }) {
  const width = (upper - lower) / upper;
  return Math.min(15, Math.max(5, Math.ceil(-Math.log10(width)) + 2));
}

const msText = (ms) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Shows the answer at the finer accuracy: its bracket (or that it is no narrower), and the next control. */
function showTighter(holder, { calculator, request, bracket, bracketOf, signal, id }, { response, accuracy, took }) {
  const tighter = bracketOf(response.result);
  const digits = digitsOf(tighter);
  const range = `[${numberText(roundTo(tighter.lower, 'down', digits))}, ${numberText(roundTo(tighter.upper, 'up', digits))}]`;
  // A bracket the grid already made exact (pure releases sit on it) only widens with the
  // rounding error of a finer one: then the first bracket stands.
  if (tighter.upper - tighter.lower >= bracket.upper - bracket.lower) {
    holder.replaceChildren(
      h(
        'div',
        { class: 'note more-digits-none', dataset: { lower: String(tighter.lower), upper: String(tighter.upper) } },
        `More digits: a finer grid gives no narrower bracket here (${range} at relative accuracy ` +
          `${numberText(accuracy)}; took ${took}): the bracket above stands.`,
      ),
    );
    return;
  }
  holder.replaceChildren(
    h(
      'div',
      {
        class: 'bracket more-digits-bracket',
        dataset: { lower: String(tighter.lower), upper: String(tighter.upper), accuracy: String(accuracy) },
      },
      `More digits: exact ε ∈ ${range} (relative accuracy ${numberText(accuracy)}; took ${took})`,
    ),
    tighter.note ? h('div', { class: 'note' }, tighter.note) : '',
    moreDigits({ calculator, request, bracket: tighter, bracketOf, signal, id, current: accuracy }),
  );
}

/**
 * The control under a numeric answer with bracket `bracket` ({ lower, upper } of ε). `request` is the
 * request that gave it; `bracketOf(result)` reads the bracket of an answer ({ lower, upper, note? }:
 * the note, when the bracket stayed wider than asked, says why); `signal` aborts when the
 * section recomputes; `id` names the status line; `current` is the relative accuracy the answer was
 * asked at. Returns an element (empty for an exact answer or below the finest accuracy).
 */
export function moreDigits({ calculator, request, bracket, bracketOf, signal, id, current = kDefaultAccuracy }) {
  const holder = h('div', { class: 'more-digits', dataset: { moreDigits: id } });
  const accuracy = tighterAccuracy(bracket, current);
  if (accuracy === null) return holder;
  const button = h(
    'button',
    { type: 'button', class: 'secondary small', dataset: { moreDigitsAction: '' } },
    'More digits',
  );
  holder.append(button);
  const again = () => moreDigits({ calculator, request, bracket, bracketOf, signal, id, current });
  button.addEventListener('click', () => {
    const numeric = {
      calculator,
      signal,
      isCurrent: () => !signal.aborted,
      id: `${id}-more-digits`,
      label: 'More digits',
      cancelled: 'More digits: cancelled.',
      onCancel: () => holder.append(again()),
    };
    runNumeric(numeric, async ({ status, run }) => {
      holder.replaceChildren(status.element);
      const started = performance.now();
      const response = await run({ ...request, discretization: { relative_accuracy: accuracy } });
      const took = msText(performance.now() - started);
      if (!response.ok) {
        status.finish('error', `More digits: ${apiWords(response.error.message)} (${took})`);
        return;
      }
      showTighter(holder, { calculator, request, bracket, bracketOf, signal, id }, { response, accuracy, took });
    });
  });
  return holder;
}
