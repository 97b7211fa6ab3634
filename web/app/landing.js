// The landing: "What do you want to know?", the common questions in a person's words, each leading to
// the section that answers it. Shown when the address names no section (main.js).
import { h } from './dom.js';

// [question, section, where it leads, in words]
const kQuestions = [
  ['One person contributes several records: what does the guarantee of one record give them?', 'group'],
  ['I train a model with DP-SGD: what ε does the training run give, for one example or a user’s k?', 'dpsgd'],
  ['A year of releases about the same data: what is the total guarantee?', 'composition'],
  ['Releases on several databases, and a person is in only some: what is their guarantee?', 'databases'],
  ['How much noise do I need for a target (ε, δ)?', 'calibrate'],
  [
    'What can an attacker do against my guarantee?',
    'group',
    'under every answer: “What an attacker can do”, the best membership test',
  ],
  ['My membership attack flagged members: what ε does it prove, and does it refute a claim?', 'audit'],
  ['How large may each step’s ε be within a total budget?', 'split'],
  ['What is a zCDP or pure DP guarantee in (ε, δ)?', 'convert'],
  ['Counts of groups of very different sizes: how much better do large groups do?', 'groupwise'],
  ['A worked example: how does DP k-means spend its budget?', 'kmeans'],
];

/** The landing's questions as an element; `sections`: the registry (sections.js), for each one's nav name. */
export function landingElement(sections) {
  const names = new Map(sections.map((section) => [section.name, section.nav ?? section.title]));
  return h(
    'section',
    { class: 'ask', id: 'ask', 'aria-labelledby': 'ask-title' },
    h('h2', { id: 'ask-title' }, 'What do you want to know?'),
    h(
      'ul',
      {},
      kQuestions
        .filter(([, name]) => names.has(name))
        .map(([question, name, where]) =>
          h(
            'li',
            {},
            h(
              'a',
              { href: `#/${name}`, dataset: { ask: name } },
              question,
              h('span', { class: 'ask-where' }, where ? `${names.get(name)}: ${where}` : names.get(name)),
            ),
          ),
        ),
    ),
  );
}
