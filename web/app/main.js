// Wires the page: restores the state from the URL hash, recomputes a section shortly after its
// inputs change (debounced), and keeps the hash and the permalink in step with the inputs.
import { createWorkerCalculator } from '../client.js';
import { decodeState, defaultState, encodeState, readControls, stateControls, writeControls } from './state.js';
import { showFieldErrors } from './dom.js';
import { updateGroup } from './group.js';
import { setupComposition, updateComposition } from './composition.js';
import { updateSplit } from './split.js';
import { updateConvert } from './convert.js';
import { updateKmeans } from './kmeans.js';

const kDebounceMs = 150;
const updaters = { group: updateGroup, composition: updateComposition, split: updateSplit, convert: updateConvert, kmeans: updateKmeans };
// What a section wires once, before its first computation.
const setups = { composition: setupComposition };

const calculator = createWorkerCalculator();
const controls = stateControls();
const notice = document.getElementById('notice');
const permalink = document.getElementById('permalink');

const sections = [...document.querySelectorAll('form[data-section]')].map((form) => {
  const name = form.dataset.section;
  return { name, form, update: updaters[name], generation: 0, timer: 0, controller: null,
    results: document.querySelector(`[data-results="${name}"]`), plots: document.querySelector(`[data-plots="${name}"]`) };
});

function showNotice(text) {
  notice.textContent = text;
  notice.hidden = !text;
}

function recordState() {
  const hash = encodeState(readControls(controls));
  history.replaceState(null, '', hash);
  permalink.href = hash;
}

/**
 * Recomputes one section. Answers of an older run that arrive late are dropped, and its signal is
 * aborted: numeric requests pass it on so that the worker drops stale work.
 */
async function run(section) {
  const generation = ++section.generation;
  const isCurrent = () => generation === section.generation;
  section.controller?.abort();
  section.controller = new AbortController();
  const errors = new Map();
  section.results.setAttribute('aria-busy', 'true');
  try {
    await section.update({ calculator, form: section.form, results: section.results, plots: section.plots, errors, isCurrent,
      signal: section.controller.signal });
  } catch (error) {
    if (error?.name === 'AbortError') return;
    console.error(error);
    if (isCurrent()) section.results.textContent = `This section failed: ${error?.message ?? error}`;
  }
  if (!isCurrent()) return;
  showFieldErrors(section.form, errors);
  section.results.removeAttribute('aria-busy');
  section.results.dataset.ready = 'true';
}

/**
 * Runs the section once typing pauses; meanwhile its results are marked busy and stale, and a
 * numeric computation for the old inputs stops at once rather than after the pause.
 */
function schedule(section) {
  section.generation += 1;
  section.controller?.abort();
  section.results.setAttribute('aria-busy', 'true');
  clearTimeout(section.timer);
  section.timer = setTimeout(() => run(section), kDebounceMs);
}

/** Applies the hash to the inputs; a hash this page cannot read falls back to the defaults. */
function applyHash() {
  const { state, error } = decodeState(location.hash, controls);
  writeControls(controls, { ...defaultState(controls), ...(state ?? {}) });
  showNotice(error ? `This link could not be read (${error}), so the page shows the default values instead.` : '');
  recordState();
}

for (const section of sections) {
  setups[section.name]?.(section.form);
  section.form.addEventListener('submit', (event) => event.preventDefault());
  section.form.addEventListener('input', () => {
    recordState();
    schedule(section);
  });
}
window.addEventListener('hashchange', () => {
  applyHash();
  for (const section of sections) run(section);
});

applyHash();
for (const section of sections) run(section);
