// The Audit section's box for pasted scores: a <textarea> that writes its text into the section's
// hidden `scores` input (so that the text is the section's state, in its link, like any input) and
// shows that input's text when a link or the back button sets it. Shown for the scores evidence only.
import { h } from './dom.js';
import { showApplicableFields } from './form.js';

const boxes = new WeakMap();

function buildBox(form) {
  const input = form.elements.scores;
  const id = 'audit-scores-text';
  const area = h('textarea', {
    id,
    rows: '6',
    spellcheck: 'false',
    autocomplete: 'off',
    'aria-describedby': `${id}-hint`,
    dataset: { term: 'Scores' },
  });
  const hint = h(
    'span',
    { class: 'hint', id: `${id}-hint` },
    'One row per example, as CSV (commas, semicolons or tabs); a first row of names is skipped. Higher scores mean “member”.',
  );
  const error = h('p', { class: 'field-error', id: `${id}-error` });
  error.hidden = true;
  const field = h(
    'div',
    {
      class: 'field scores-field',
      dataset: { field: 'scores-text', shownWhen: JSON.stringify({ evidence: ['scores'] }) },
    },
    h('label', { for: id }, 'Scores'),
    area,
    hint,
    error,
  );
  area.addEventListener('input', () => {
    input.value = area.value;
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
  // After the evidence's other fields rather than in the slot (before them), which then stays empty.
  const slot = form.querySelector('[data-scores]');
  slot.hidden = true;
  slot.closest('fieldset').append(field);
  showApplicableFields(form);
  return {
    /** Marks the box with `message` (in words), or clears it with null. */
    showError(message) {
      error.textContent = message ?? '';
      error.hidden = !message;
      if (message) {
        area.setAttribute('aria-invalid', 'true');
        area.setAttribute('aria-describedby', `${id}-hint ${id}-error`);
      } else {
        area.removeAttribute('aria-invalid');
        area.setAttribute('aria-describedby', `${id}-hint`);
      }
    },
  };
}

/** The scores box of the Audit section's `form`, built on first use and showing the `scores` input's text. */
export function scoresBox(form) {
  if (!boxes.has(form)) boxes.set(form, buildBox(form));
  const area = form.querySelector('#audit-scores-text');
  if (area.value !== form.elements.scores.value) area.value = form.elements.scores.value;
  return boxes.get(form);
}
