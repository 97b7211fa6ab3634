// The registry of the page's sections: one question each, each with its own address (#/name?…).
// Each section is three parts, kept apart so that each stays small and the <dp-calculator> element
// (web/embed/) shares the first two with the page:
//   its description   web/app/<name>.js: name, title, question, form (inputs, defaults, URL names)
//   its requests      web/app/<name>-requests.js: requests(inputs) → the list of requests it sends
//   its rendering     web/app/<name>-update.js: the page's update, which answers them and draws
//
// HOW TO ADD A SECTION
// 1. Describe it in web/app/<name>.js (e.g. web/app/dpsgd.js), data only (no DOM, no requests):
//      export default {
//        name: 'dpsgd',                       // its route: #/dpsgd?field=value&…; ids start with 'dpsgd-'
//        title: 'DP-SGD with groups',         // heading
//        nav: 'A training run (DP-SGD)',      // the nav link: what the section answers, in words
//        question: ['One person may own ', { em: 'k' }, ' examples …'], // a string, or text and { em }
//        form: [                              // its markup and default state, built by form.js
//          { legend: 'Training', fields: [
//            { name: 'group_size', label: 'Examples per person', symbol: 'k', type: 'count', value: '4',
//              hint: 'how many training examples one person may own' },
//            { name: 'sampling', label: 'Batches', type: 'choice', value: 'poisson',
//              options: [['poisson', 'Poisson sampling'], ['fixed_batch', 'Fixed-size batches']] },
//            { name: 'sampling_rate', label: 'Sampling rate', symbol: 'q', type: 'number', value: '0.01',
//              shownWhen: { sampling: ['poisson'] } },
//            { name: 'kmax', label: 'Plot up to group size', type: 'count', value: '5', more: true },
//            { preset: 'An example', values: { group_size: '8' } },
//          ] },
//        ],                                   // `more: true` (a field or fieldset): under "More
//                                             // options", for what the question does not need first
//        setup(form) {},                        // optional: page wiring before the first computation
//      };
//    Changing a default needs a new version (versions.js), so that old links keep their meaning.
// 2. Write its requests in web/app/<name>-requests.js, no DOM (the element bundles it):
//      export function requests(inputs, { catalog } = {}) {   // inputs: name → text, every input
//        const k = parseNumber(inputs.group_size);             // format.js: "1 × 10⁻⁵", "1e−6", …
//        return [{ id: 'tight', role: 'row', label: 'Tight', request: { op: 'dpsgd', group_size: k, … },
//                  fields: { group_size: 'group_size' } }];   // request path → input, for errors
//      }
//      export const asked = (inputs, isSet) => ['tight'];     // optional: the rows the headline answers
//    A pure function of the inputs (and of the core's mechanism `catalog`, mechanism-picker.js, where
//    the section reads mechanisms): the page and the element send the same requests for the same
//    inputs. `role` says what a request is for ('row': a row of the answer, which the element shows;
//    others: plots, shares, …); a request that depends on an answer (the PLD's privacy profile at its
//    ε) is another pure function of the inputs and that answer. Without `asked`, every row answers.
// 3. Draw it in web/app/<name>-update.js, exported by later-sections.js (the default section, the
//    first below, is imported here instead):
//      export async function updateDpsgd({ calculator, inputs, form, results, plots, errors, isCurrent,
//                                          signal, summary, isSet, explain }) {
//        const answered = await answerAll(calculator, requests(inputs));   // ask.js: items + response
//        if (!isCurrent()) return;                                        // newer inputs arrived meanwhile
//        results.replaceChildren(methodTable({ caption, rows, errors }));   // results.js
//        plots.replaceChildren(chartFigure(points, { … }));               // chart.js
//        summary('A group of 4 examples: ε ≤ 3.2 at δ = 10⁻⁵.', { cite, proof: proof.proven() });
//      }                                      // the headline (headline.js), its kind, bracket, detail
//    `update` runs when the section is shown and after each edit (debounced). Numeric requests run
//    through runNumeric (numeric.js: the status line with progress and Cancel, aborted with `signal`
//    when newer inputs arrive). The headline (`summary`, the one line screen readers hear) answers
//    the question asked: the person's own guarantee type first, at their δ, built with headline.js,
//    with `proof` (what kind of number it is: proven, not proven, an estimate, a lower bound),
//    `bracket` (a numeric answer's [lower, upper]) and `detail` (the answer in large type), shown in
//    the answer panel that opens the section, beside the inputs or above them on phones;
//    `isSet(name)` says which inputs they set, so that a row computed from example values says so
//    (row `example`; methodTable puts such rows, unless the headline answers them (`answers`), in
//    one closed "Compare with" block) and stays out of the headline; `cite` is its sentence for a paper ("Cite this
//    result"), with `result` (the result object it states, as the section got it) or `request`,
//    whose every value the export adds to the sentence, with the version and the permalink, and
//    files in the deployment record (export.js). A row that is no proven bound says `proven: false`
//    (the LaTeX export leaves it out). `errors` (input → message) marks fields (methodRow fills it from the API's
//    error.field through each row's `fields` map, inputsOf in results.js, in words: "δ must be below
//    1"); a row whose method does not apply (API code 'unsupported') shows its
//    `notApplicable(error)` sentence. Chart points carry `key` (a method id): add its colour, dash
//    and marker to seriesStyles in chart.js so that the method looks the same in every chart. Every
//    request and response goes into the section's JSON export; every chart gets a CSV button; every
//    methodTable row a LaTeX line; every citation shown a BibTeX entry (results carry
//    `citation_key`; add new works to bibliography.js). `explain({ of, response?, one?, groupSize? })`
//    shows "What an attacker can do" under the answer (attacker.js): the trade-off of request `of`
//    (`response`: the section's own answer to `of`, sent through explainedItem or askExplained,
//    explained.js, so that it carries the trade-off and the panel need not ask op 'tradeoff' to
//    answer it again; `one`: the same for one record, beside a group's). No section imports another
//    section's modules: what two share lives in a module of its own (compose-methods.js, …).
// 4. Add one line to the list below (its position is its place in the nav), and the element's
//    presentation of it to web/embed/sections.js (which fields it shows, and their attribute names).
// That is all: the nav link, the route, permalinks, the back button, the link notices, embedding
// (?embed=1#/dpsgd), the export bar and <dp-calculator section="dpsgd"> come from the registry. The
// page bundle puts every update but the default section's in a chunk loaded after the first answer
// (lazy-update.js), so that the first answer does not wait for their code.
import group from './group.js';
import composition from './composition.js';
import split from './split.js';
import calibrate from './calibrate.js';
import convert from './convert.js';
import kmeans from './kmeans.js';
import dpsgd from './dpsgd.js';
import databases from './databases.js';
import groupwise from './groupwise.js';
import audit from './audit.js';
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
  register(audit, later('updateAudit')),
];
