// Puts one registered section (see sections.js) on the page and runs it: its markup, its state
// (the text of its inputs), and its computation, rerun shortly after the inputs change. Used by the
// page (main.js) for every section, and usable on its own to show one section anywhere.
import { afterNextPaint, h, markScrollableFormulas, richText, showFieldErrors } from './dom.js';
import { buildForm, revealField, showApplicableFields } from './form.js';
import { exportBar } from './export.js';
import { showAttacker } from './attacker.js';

const kDebounceMs = 150;

/**
 * A calculator that remembers every request and response of the current run (for the JSON export).
 * A request waits for `gate()` when it returns a promise.
 */
function recordingCalculator(calculator, log, gate = () => null) {
  return {
    // The request schema and the mechanism catalog (for the mechanism pickers): not a computation.
    schema: () => calculator.schema?.(),
    run(request, options) {
      const entry = { request, response: null };
      log.push(entry);
      const waiting = gate();
      const answer = waiting ? waiting.then(() => calculator.run(request, options)) : calculator.run(request, options);
      return answer.then((response) => {
        entry.response = response;
        return response;
      });
    },
  };
}

/**
 * The answer panel: the headline (the one line screen readers hear), what kind of bound it is
 * (proven, not proven, an estimate, a lower bound) and its bracket, and the section's answer in large
 * type where it has one. On wide screens it sits beside the inputs, on phones above them, so that
 * every section opens on its answer.
 */
function answerPanel(section) {
  const summary = h('p', { class: 'summary', 'aria-live': 'polite', dataset: { summary: section.name } });
  const proof = h('p', { class: 'proof' });
  const bracket = h('p', { class: 'headline-bracket' });
  const detail = h('div', { class: 'headline-detail' });
  for (const part of [proof, bracket, detail]) part.hidden = true;
  const element = h(
    'div',
    { class: 'answer-panel', dataset: { headline: section.name } },
    summary,
    proof,
    bracket,
    detail,
  );
  return { element, summary, proof, bracket, detail };
}

/** The <section> of `section` and the parts the computation fills. */
function sectionParts(section) {
  const form = buildForm(section.name, section.form);
  const titleId = `${section.name}-title`;
  const notice = h('p', { class: 'notice', role: 'status', dataset: { notice: section.name } });
  notice.hidden = true;
  const panel = answerPanel(section);
  const results = h('div', { class: 'results', dataset: { results: section.name } });
  const plots = h('div', { class: 'plots', dataset: { plots: section.name } });
  // "What an attacker can do" (attacker.js): filled when the section calls `explain`.
  const attacker = h('div', { class: 'attacker', dataset: { attacker: section.name } });
  const element = h(
    'section',
    { id: section.name, class: 'calculator', dataset: { section: section.name }, 'aria-labelledby': titleId },
    h('h2', { id: titleId, tabindex: '-1' }, section.title),
    notice,
    h('p', { class: 'question' }, richText(section.question)),
    h('div', { class: 'first-screen' }, panel.element, form),
    results,
    attacker,
    plots,
  );
  return { element, form, notice, panel, summary: panel.summary, results, plots, attacker };
}

/**
 * Shows the headline `text` in `panel` with what kind of bound it is (`proof`: { kind: 'proven' |
 * 'not-proven' | 'estimate' | 'lower-bound', text }), its `bracket` (text) and `detail` (a Node: the
 * answer in large type), each left out when not given.
 */
function showHeadline(panel, text, { proof, bracket, detail }) {
  if (panel.summary.textContent !== text) panel.summary.textContent = text;
  panel.proof.hidden = !proof;
  panel.proof.textContent = proof?.text ?? '';
  if (proof) panel.proof.dataset.proof = proof.kind;
  else delete panel.proof.dataset.proof;
  panel.bracket.hidden = !bracket;
  panel.bracket.textContent = bracket ?? '';
  panel.detail.hidden = !detail;
  if (detail) panel.detail.replaceChildren(detail);
  else panel.detail.replaceChildren();
}

/**
 * What `update` gets for one run of `controller` (see sections.js): the inputs, where to show the
 * answer, and `explain`, which fills the attacker panel; `explained.value` says whether it was called.
 */
function updateContext(controller, { isCurrent, signal, errors, calculator, explained }) {
  const { parts, section, citation, given } = controller;
  // The sentence changes with the headline, never apart from it. It states the answer to one
  // request: `request`, or the one in the log whose answer is `result` (the object the section got).
  const summary = (text, { cite = '', result, request, proof, bracket, detail } = {}) => {
    if (!isCurrent()) return;
    showHeadline(parts.panel, text, { proof, bracket, detail });
    const entry = controller.log.find((logged) =>
      request ? logged.request === request : result && logged.response?.result === result,
    );
    citation.sentence = cite;
    citation.request = cite ? (entry?.request ?? request ?? null) : null;
    citation.result = cite ? (result ?? entry?.response?.result ?? null) : null;
    citation.onChange?.();
  };
  return {
    calculator,
    form: parts.form,
    inputs: controller.getState(),
    input: (name) => parts.form.elements[name],
    results: parts.results,
    plots: parts.plots,
    errors,
    isCurrent,
    signal,
    summary,
    isSet: (name) => given.has(name),
    // The panel for the answer to request `of` (`response`: the section's answer to it; `one`: the
    // same for one record; `groupSize`).
    explain: (spec) => {
      explained.value = true;
      const named = { name: section.name, title: section.title };
      return showAttacker(parts.attacker, { ...spec, calculator, ...named, isCurrent, signal }).catch((error) =>
        console.error(error),
      );
    },
  };
}

/**
 * Recomputes `controller`'s section. Answers of an older run that arrive late are dropped, and its
 * signal is aborted: numeric requests pass it on so that the worker drops stale work.
 */
async function runSection(controller, calculator) {
  const { parts, section, log } = controller;
  const { results, attacker, form } = parts;
  clearTimeout(controller.timer);
  const generation = ++controller.generation;
  const isCurrent = () => generation === controller.generation;
  controller.abort?.abort();
  const abort = new AbortController();
  controller.abort = abort;
  controller.lastRunState = controller.runState();
  log.length = 0;
  const errors = new Map();
  const explained = { value: false };
  results.setAttribute('aria-busy', 'true');
  // Once the section shows its answer, what it asks next (the attacker panel, the plots) waits
  // for the browser to draw that answer: closed forms answer without yielding, so all of it would
  // otherwise run in the same task, and the first number would be drawn only after the plots.
  const shown = results.firstChild;
  let drawn = null;
  const afterAnswerDrawn = () => {
    if (!drawn && results.firstChild !== shown) drawn = afterNextPaint();
    return drawn;
  };
  const sectionCalculator = recordingCalculator(calculator, log, afterAnswerDrawn);
  const context = { isCurrent, signal: abort.signal, errors, calculator: sectionCalculator, explained };
  try {
    await section.update(updateContext(controller, context));
  } catch (error) {
    if (error?.name === 'AbortError') return;
    console.error(error);
    if (isCurrent()) results.textContent = `This section failed: ${error?.message ?? error}`;
  }
  if (!isCurrent()) return;
  if (!explained.value) {
    attacker.replaceChildren();
    attacker.removeAttribute('aria-busy');
    delete attacker.dataset.ready;
  }
  showFieldErrors(form, errors);
  // A marked field is never left behind "More options".
  for (const input of errors.keys()) if (input.closest?.('form') === form) revealField(input);
  markScrollableFormulas(results);
  results.removeAttribute('aria-busy');
  results.dataset.ready = 'true';
}

/**
 * Builds `section` and returns its controller:
 *   element                the <section>
 *   getState() / setState(state)   name → text of every input (setState fills missing names with
 *                          defaults, and counts the names it was given as set by the person)
 *   setInputs()            name → text of the inputs the person set (typed, chose, filled by an
 *                          example or named by a link), in the form's order: what a link carries
 *   run()                  computes now; schedule(): computes once typing pauses
 *   notify(text)           shows (or with '' hides) the notice about this section's link
 * `onInput(controller)` is called on every edit, before the recomputation is scheduled. `update`
 * gets `isSet(name)`, so that a section answers the question asked (a headline in the person's own
 * terms) and marks what it computed from inputs nobody set.
 */
export function mountSection(section, { calculator, onInput = () => {}, permalink = () => location.href }) {
  const parts = sectionParts(section);
  const { element, form, notice, results } = parts;
  const log = [];
  // The sentence "Cite this result" offers: set with the headline (see headline.js).
  const citation = { sentence: '', request: null, result: null };
  element.append(exportBar({ section, element, citation, log, permalink }));
  const given = new Set();
  const controller = { element, form, section, parts, log, citation, given, generation: 0, timer: 0, abort: null };
  controller.lastRunState = null;
  controller.getState = () =>
    Object.fromEntries(section.fields.map((field) => [field.name, form.elements[field.name].value]));
  controller.setState = (state) => {
    given.clear();
    for (const field of section.fields) {
      form.elements[field.name].value = state[field.name] ?? field.value;
      if (Object.hasOwn(state, field.name)) {
        given.add(field.name);
        // An option the link sets is shown, not left behind "More options".
        revealField(form.elements[field.name]);
      }
    }
    showApplicableFields(form);
  };
  controller.setInputs = () =>
    Object.fromEntries(
      section.fields
        .filter((field) => given.has(field.name))
        .map((field) => [field.name, form.elements[field.name].value]),
    );
  controller.notify = (text) => {
    notice.textContent = text;
    notice.hidden = !text;
  };
  controller.runState = () => JSON.stringify([controller.getState(), [...given]]);
  /** True when the inputs differ from those of the last run (or it never ran). */
  controller.isStale = () => controller.runState() !== controller.lastRunState;
  controller.run = () => runSection(controller, calculator);
  /**
   * Runs once typing pauses; meanwhile the results are marked busy and stale, and a numeric
   * computation for the old inputs stops at once rather than after the pause.
   */
  controller.schedule = () => {
    controller.generation += 1;
    controller.abort?.abort();
    results.setAttribute('aria-busy', 'true');
    clearTimeout(controller.timer);
    controller.timer = setTimeout(controller.run, kDebounceMs);
  };
  form.addEventListener('input', (event) => {
    if (event.target.name && section.fields.some((field) => field.name === event.target.name))
      given.add(event.target.name);
    onInput(controller);
    controller.schedule();
  });
  new ResizeObserver(() => markScrollableFormulas(results)).observe(results);
  section.setup?.(form);
  showApplicableFields(form);
  return controller;
}
