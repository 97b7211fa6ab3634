// Puts one registered section (see sections.js) on the page and runs it: its markup, its state
// (the text of its inputs), and its computation, rerun shortly after the inputs change. Used by the
// page (main.js) for every section, and usable on its own to show one section anywhere.
import { h, markScrollableFormulas, showFieldErrors } from './dom.js';
import { buildForm, showApplicableFields } from './form.js';
import { exportBar } from './export.js';

const kDebounceMs = 150;

/** A calculator that remembers every request and response of the current run (for the JSON export). */
function recordingCalculator(calculator, log) {
  return {
    run(request, options) {
      const entry = { request, response: null };
      log.push(entry);
      return calculator.run(request, options).then((response) => {
        entry.response = response;
        return response;
      });
    },
  };
}

/**
 * Builds `section` and returns its controller:
 *   element                the <section>
 *   getState() / setState(state)   name → text of every input (setState fills missing names with defaults)
 *   run()                  computes now; schedule(): computes once typing pauses
 *   notify(text)           shows (or with '' hides) the notice about this section's link
 * `onInput(controller)` is called on every edit, before the recomputation is scheduled.
 */
export function mountSection(section, { calculator, onInput = () => {}, permalink = () => location.href }) {
  const form = buildForm(section.name, section.form);
  const titleId = `${section.name}-title`;
  const notice = h('p', { class: 'notice', role: 'status', dataset: { notice: section.name } });
  notice.hidden = true;
  const summary = h('p', { class: 'summary', 'aria-live': 'polite', dataset: { summary: section.name } });
  const results = h('div', { class: 'results', dataset: { results: section.name } });
  const plots = h('div', { class: 'plots', dataset: { plots: section.name } });
  const log = [];
  const element = h(
    'section',
    { id: section.name, class: 'calculator', dataset: { section: section.name }, 'aria-labelledby': titleId },
    h('h2', { id: titleId, tabindex: '-1' }, section.title),
    notice,
    h('p', { class: 'question' }, section.question),
    form,
    summary,
    results,
    plots,
  );
  element.append(exportBar({ section, element, log, permalink }));

  const controller = { element, form, section, generation: 0, timer: 0, abort: null, lastRunState: null };

  controller.getState = () =>
    Object.fromEntries(section.fields.map((field) => [field.name, form.elements[field.name].value]));
  controller.setState = (state) => {
    for (const field of section.fields) form.elements[field.name].value = state[field.name] ?? field.value;
    showApplicableFields(form);
  };
  controller.notify = (text) => {
    notice.textContent = text;
    notice.hidden = !text;
  };
  /** True when the inputs differ from those of the last run (or it never ran). */
  controller.isStale = () => JSON.stringify(controller.getState()) !== controller.lastRunState;

  /**
   * Recomputes. Answers of an older run that arrive late are dropped, and its signal is aborted:
   * numeric requests pass it on so that the worker drops stale work.
   */
  controller.run = async () => {
    clearTimeout(controller.timer);
    const generation = ++controller.generation;
    const isCurrent = () => generation === controller.generation;
    controller.abort?.abort();
    const abort = new AbortController();
    controller.abort = abort;
    controller.lastRunState = JSON.stringify(controller.getState());
    log.length = 0;
    const errors = new Map();
    results.setAttribute('aria-busy', 'true');
    const setSummary = (text) => {
      if (isCurrent() && summary.textContent !== text) summary.textContent = text;
    };
    try {
      await section.update({
        calculator: recordingCalculator(calculator, log),
        form,
        input: (name) => form.elements[name],
        results,
        plots,
        errors,
        isCurrent,
        signal: abort.signal,
        summary: setSummary,
      });
    } catch (error) {
      if (error?.name === 'AbortError') return;
      console.error(error);
      if (isCurrent()) results.textContent = `This section failed: ${error?.message ?? error}`;
    }
    if (!isCurrent()) return;
    showFieldErrors(form, errors);
    markScrollableFormulas(results);
    results.removeAttribute('aria-busy');
    results.dataset.ready = 'true';
  };

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

  form.addEventListener('input', () => {
    onInput(controller);
    controller.schedule();
  });
  new ResizeObserver(() => markScrollableFormulas(results)).observe(results);
  section.setup?.(form);
  showApplicableFields(form);
  return controller;
}
