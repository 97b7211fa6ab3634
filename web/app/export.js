// The export bar under each section: its permalink (a link, and a button that copies it).
import { h } from './dom.js';

/** Copies `text` to the clipboard; resolves to true when it worked. */
async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** A button that runs `action` and says briefly how it went in a status line beside it. */
function actionButton(label, action, status) {
  const button = h('button', { type: 'button', class: 'secondary' }, label);
  button.addEventListener('click', async () => {
    status.textContent = await action();
  });
  return button;
}

/** The bar: `permalink()` is the address of the section's current state. */
export function exportBar({ section, permalink }) {
  const status = h('span', { class: 'export-status', role: 'status' });
  // Its href is kept current by the page (main.js), as the address bar is.
  const link = h('a', { class: 'permalink', href: '#', dataset: { permalink: section.name } }, 'Permalink');
  const copy = actionButton('Copy link', async () => ((await copyText(permalink())) ? 'Link copied.' : 'Copy failed: use the Permalink link.'), status);
  return h('div', { class: 'export-bar', dataset: { export: section.name } }, link, copy, status);
}
