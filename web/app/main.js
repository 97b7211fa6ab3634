// Wires the page: puts every registered section on it (one shown at a time), follows the address
// (router.js) and keeps it in step with the inputs the person set, keeps those inputs for the visit
// (visit.js), and in embed mode (?embed=1) shows one section without the page around it and tells
// the parent frame its height.
import { createWorkerCalculator } from '../client.js';
import { h } from './dom.js';
import { sections } from './sections.js';
import { mountSection } from './mount.js';
import { checkState, parseHash, routeHash } from './router.js';
import { savedInputs, saveInputs } from './visit.js';
import { kUnversioned, linkVersion } from './versions.js';
import { glossaryElement } from './glossary.js';
import { startEmbedMode } from './embed.js';
import { landingElement } from './landing.js';

document.documentElement.dataset.started = ''; // boot.js: the page's module runs (not refused)
// The performance marks "dpcalc:…" time the phases of a load for the cold-load bench (tests/bench/cold_load.mjs).
performance.mark('dpcalc:main-start');
const embedded = new URLSearchParams(location.search).get('embed') === '1';
const calculator = createWorkerCalculator();
const main = document.getElementById('main');
const navList = document.getElementById('section-nav');
const pageTitle = document.title;

/** The address of a section's current state, for people to share: the full page, not the embed. */
const permalinkOf = (controller) =>
  `${location.origin === 'null' ? '' : location.origin}${location.pathname}${routeHash(controller.section.name, controller.setInputs())}`;

let current = null;
const controllers = new Map();
const navLinks = new Map();

// Edits closer together than this are one step of the back button (typing "0.05" is one change).
const kHistoryPauseMs = 1000;
let lastEditAt = -Infinity;

/**
 * Puts `controller`'s inputs in the address, its permalink and the visit. An `edit` (the person
 * changed an input) after a pause is a new step of the back button; edits in quick succession, and
 * every other change, replace the current step.
 */
function recordState(controller, { edit = false } = {}) {
  const inputs = controller.setInputs();
  const hash = routeHash(controller.section.name, inputs);
  controller.element.querySelector('[data-permalink]').href = permalinkOf(controller);
  saveInputs(controller.section.name, inputs);
  const now = performance.now();
  if (controller === current && location.hash !== hash) {
    if (edit && now - lastEditAt > kHistoryPauseMs) history.pushState(null, '', hash);
    else history.replaceState(history.state, '', hash);
  }
  if (edit) lastEditAt = now;
}

/** Fills section `name` with the inputs of a link of `version`: that version's defaults for the others. */
function applyLink(name, state, version) {
  const { defaults, note } = linkVersion(version, name);
  const controller = controllerOf(name);
  controller.setState({ ...defaults, ...state });
  if (note) controller.notify(note);
}

const saved = savedInputs();

/**
 * The controller of section `name`. Sections are built when first needed (the one a load shows,
 * then the others in a later task, so that they do not delay its first result), each in its place
 * in the registry's order.
 */
function controllerOf(name) {
  if (controllers.has(name)) return controllers.get(name);
  const index = sections.findIndex((section) => section.name === name);
  const controller = mountSection(sections[index], {
    calculator,
    onInput: (edited) => {
      edited.notify('');
      recordState(edited, { edit: true });
    },
    permalink: () => permalinkOf(controller),
  });
  controller.element.hidden = true;
  const kept = saved[name] && checkState(sections[index], saved[name]);
  if (kept?.state) controller.setState(kept.state);
  controllers.set(name, controller);
  const following = sections.slice(index + 1).find((section) => controllers.has(section.name));
  main.insertBefore(controller.element, following ? controllers.get(following.name).element : null);
  return controller;
}

const buildAllSections = () => sections.forEach((section) => controllerOf(section.name));

for (const section of sections) {
  const link = h('a', { href: `#/${section.name}` }, section.nav ?? section.title);
  navLinks.set(section.name, link);
  navList.append(h('li', {}, link));
}
document.getElementById('glossary-list')?.replaceWith(glossaryElement());
// "What do you want to know?": on the landing only (an address that names no section).
const landing = landingElement(sections);
landing.hidden = true;
navList.closest('nav').after(landing);

/**
 * Shows section `name` (and only it); computes it when its inputs changed since it last ran.
 * Resolves when that computation has ended.
 */
function show(name, { focus }) {
  const next = controllerOf(name);
  for (const controller of controllers.values()) controller.element.hidden = controller !== next;
  for (const [linkName, link] of navLinks) {
    if (linkName === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  current = next;
  document.title = `${next.section.title} · ${pageTitle}`;
  recordState(next);
  const running = next.isStale() ? next.run() : Promise.resolve();
  // Embedded, the section is the whole frame: moving to it would scroll the host page to the frame
  // and take the focus from it.
  if (focus && !embedded) {
    next.element.scrollIntoView({ block: 'start' });
    next.element.querySelector('h2').focus({ preventScroll: true });
  }
  return running;
}

/**
 * Scrolls to and focuses the element a plain anchor names, showing the section that holds it.
 * `move: false` (an embedded page's first load) only shows it: the host page keeps its place and focus.
 */
function goToAnchor(id, { move = true } = {}) {
  buildAllSections();
  const target = document.getElementById(id);
  const holder = target.closest('section.calculator');
  if (holder && holder !== current?.element) show(holder.dataset.section, { focus: false });
  if (!move) return;
  if (!target.matches('a, button, input, select, textarea, [tabindex]')) target.setAttribute('tabindex', '-1');
  target.scrollIntoView({ block: 'start' });
  target.focus({ preventScroll: true });
}

const unreadable = (error, name, initial) =>
  `This link could not be read: ${error}. ` +
  (initial && Object.keys(saved[name] ?? {}).length === 0
    ? 'The section shows its default values.'
    : 'The inputs were left as they were.');

/**
 * Follows the address. `initial`: the page just loaded (nothing to keep yet). Resolves when the
 * section it shows has computed.
 */
function applyLocation({ initial }) {
  const route = parseHash(location.hash, sections);
  // A question of the landing leads to its section, even the one already shown below it.
  const fromLanding = !landing.hidden;
  landing.hidden = route.type !== 'empty';
  for (const controller of controllers.values()) controller.notify('');
  const fallback = current?.section.name ?? sections[0].name;
  if (route.type === 'empty') return show(fallback, { focus: false });
  if (route.type === 'anchor') {
    const running = current ? Promise.resolve() : show(fallback, { focus: false });
    recordState(current);
    goToAnchor(route.id, { move: !(embedded && initial) });
    return running;
  }
  if (route.error) {
    const name = route.name ?? fallback;
    controllerOf(name).notify(unreadable(route.error, name, initial));
    return show(name, { focus: true });
  }
  if (route.type === 'legacy') {
    for (const [name, state] of Object.entries(route.states)) applyLink(name, state, kUnversioned);
    for (const [name, note] of Object.entries(route.notes)) controllerOf(name).notify(note);
    return show(route.name, { focus: true });
  }
  if (route.state) applyLink(route.name, route.state, route.version);
  // Back and forward through the inputs of the section shown keep the reader where they are.
  return show(route.name, { focus: fromLanding || route.name !== current?.section.name });
}

// A plain in-page anchor (the skip link, the glossary) scrolls without touching the address, so
// it never changes a section or its inputs, and adds no step to the back button.
document.addEventListener('click', (event) => {
  const link = event.target.closest?.('a[href^="#"]');
  if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
  const route = parseHash(link.getAttribute('href'), sections);
  if (route.type !== 'anchor') return;
  event.preventDefault();
  goToAnchor(route.id);
});
window.addEventListener('hashchange', () => applyLocation({ initial: false }));

if (embedded) startEmbedMode(() => current?.element);
const firstRun = applyLocation({ initial: true });
performance.mark('dpcalc:main-end');
// The other sections are built once the section shown has answered (or after kBuildOthersAfterMs,
// when its answer is a long numeric one): building them holds the page's thread for tens of
// milliseconds, which its first answer would otherwise wait for (the wasm's compilation ends there).
// Their answering code is fetched then too (lazy-update.js), so that opening one does not wait for
// it; data-sections-loaded on <html> says when those fetches have ended (a failed one is tried again
// when its section runs).
const kBuildOthersAfterMs = 1000;
const buildOthers = () =>
  setTimeout(() => {
    buildAllSections();
    Promise.allSettled(sections.map((section) => section.update.load?.())).then(() => {
      document.documentElement.dataset.sectionsLoaded = '';
    });
  });
Promise.race([firstRun, new Promise((resolve) => setTimeout(resolve, kBuildOthersAfterMs))]).then(
  buildOthers,
  buildOthers,
);
