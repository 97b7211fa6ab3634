// The registry of the page's sections: one question each, each with its own address (#/name?…).
//
// HOW TO ADD A SECTION
// 1. Write one module in web/app/ (e.g. web/app/dpsgd.js) whose default export describes it:
//      export default {
//        name: 'dpsgd',                       // its route: #/dpsgd?field=value&…; ids start with 'dpsgd-'
//        title: 'DP-SGD with groups',         // heading and nav link
//        question: 'You train with DP-SGD …', // the question it answers: a string or h(…) nodes
//        form: [                              // its markup and default state, built by form.js
//          { legend: 'Training', fields: [
//            { name: 'group_size', label: 'Examples per person', symbol: 'k', type: 'count', value: '4',
//              hint: 'how many training examples one person may own' },
//            { name: 'sampling', label: 'Batches', type: 'choice', value: 'poisson',
//              options: [['poisson', 'Poisson sampling'], ['fixed_batch', 'Fixed-size batches']] },
//            { name: 'sampling_rate', label: 'Sampling rate', symbol: 'q', type: 'number', value: '0.01',
//              shownWhen: { sampling: ['poisson'] } },
//            { preset: 'An example', values: { group_size: '8' } },
//          ] },
//        ],
//        async update({ calculator, input, form, results, plots, errors, isCurrent, signal, summary, isSet, explain }) {
//          const k = readNumber(input('group_size'));          // dom.js: reads "1 × 10⁻⁵", "1e−6", …
//          const [response] = await askAll(calculator, [{ op: 'dpsgd', group_size: k, … }]);
//          if (!isCurrent()) return;                            // newer inputs arrived meanwhile
//          results.replaceChildren(methodTable({ caption, rows, errors }));   // results.js
//          plots.replaceChildren(chartFigure(points, { … }));               // chart.js
//          summary('A group of 4 examples: ε ≤ 3.2 at δ = 10⁻⁵.', { cite });   // the headline (headline.js)
//        },
//        setup(form) {},                        // optional: wiring before the first computation
//      };
//    `update` runs when the section is shown and after each edit (debounced). The headline (`summary`,
//    the one line screen readers hear) answers the question asked: the person's own guarantee type
//    first, at their δ, built with headline.js; `isSet(name)` says which inputs they set, so that a
//    row computed from example values says so (row `example`) and stays out of the headline; `cite`
//    is its sentence for a paper ("Cite this result"). Changing a default needs a new version
//    (versions.js), so that old links keep their meaning. `errors` (input →
//    message) marks fields (methodRow fills it from the API's error.field through each row's
//    `fields` map, in words: "δ must be below 1"); a row whose method does not apply (API code
//    'unsupported') shows its `notApplicable(error)` sentence; `signal` aborts when newer inputs
//    arrive (pass it to calculator.run for numeric work, with onProgress: see numeric.js). Chart
//    points carry `key` (a method id): add its colour, dash and marker to seriesStyles in chart.js
//    so that the method looks the same in every chart. Every request and response goes into the
//    section's JSON export; every chart gets a CSV button; every methodTable row a LaTeX line; every
//    citation shown a BibTeX entry (results carry `citation_key`; add new works to bibliography.js).
//    `explain({ of, one?, groupSize? })` shows "What an attacker can do" under the answer (attacker.js):
//    the trade-off of request `of` (and of `one`, the same for one record, beside a group's).
//    The section also becomes a <dp-calculator section="…"> (web/embed/sections.js): add it there.
//    Unless it is the default section (the first below), keep the module to its description and move
//    `update` and what only it uses to web/app/<name>-update.js, exported by later-sections.js and
//    registered in the description as
//      update: lazyUpdate(() => import('./later-sections.js'), 'updateDpsgd'),   // lazy-update.js
//    so that the page's first answer does not wait for that code (it loads after the first answer).
// 2. Add one line to the list below (its position is its place in the nav).
// That is all: the nav link, the route, permalinks, the back button, the link notices, embedding
// (?embed=1#/dpsgd) and the export bar come from the registry.
import group from './group.js';
import composition from './composition.js';
import split from './split.js';
import calibrate from './calibrate.js';
import convert from './convert.js';
import kmeans from './kmeans.js';
import dpsgd from './dpsgd.js';
import databases from './databases.js';
import groupwise from './groupwise.js';
import { updateGroup } from './group-update.js';
import { lazyUpdate } from './lazy-update.js';
import { fieldsOf } from './form-fields.js';

/** The answering code of a section other than the default one: `name` of later-sections.js. */
const later = (name) => lazyUpdate(() => import('./later-sections.js'), name);

/** A section on the page: its description, its `update`, and `fields`, the list of its inputs. */
const register = (section, update) => Object.freeze({ ...section, update, fields: fieldsOf(section.form) });

export const sections = [
  register(group, updateGroup),
  register(composition, later('updateComposition')),
  register(split, later('updateSplit')),
  register(calibrate, later('updateCalibrate')),
  register(convert, later('updateConvert')),
  register(kmeans, later('updateKmeans')),
  register(dpsgd, later('updateDpsgd')),
  register(databases, later('updateDatabases')),
  register(groupwise, later('updateGroupwise')),
];
