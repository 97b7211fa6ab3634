// The calculator's versions, so that a number quoted from a permalink stays reproducible. Every link
// the page writes carries the version that answered it (#/group?v=0.2.0&k=8&…) and only the inputs
// the person set; an input it leaves out takes the default of *that* version. Opening a link of an
// earlier version, the page fills in that version's defaults and says which of the changes made
// since then alter the answers of the section; a link of a later version says that this page is
// older. A route link without `v` was written by version 0.1.0 (the first with #/section routes).
//
// HOW TO RELEASE A VERSION THAT ANSWERS DIFFERENTLY
// 1. Set "version" in package.json (a test checks that kVersion below is the same).
// 2. Add an entry to `history` (newest last): the sections whose answers change, each with one
//    sentence a reader of an old link understands; and in `previousDefaults`, the default each
//    changed input had before (a browser test compares the page's defaults with
//    tests/browser/section-defaults.json, which is updated with the version).

/** The version of this page (package.json's). */
export const kVersion = '0.3.0';

/** The version of a route link without `v`. */
export const kUnversioned = '0.1.0';

/**
 * Newest last: { version, changes: { section: sentence }, previousDefaults: { section: { input:
 * text } } }. `previousDefaults` holds, for each input whose default this version changed, the
 * default it had in the version before.
 */
export const history = [
  { version: '0.1.0', changes: {}, previousDefaults: {} },
  // DP-SGD groups now defaults to Poisson sampling (proven); 0.1.0 defaulted to fixed-size batches.
  { version: '0.2.0', changes: {}, previousDefaults: { dpsgd: { sampling: 'fixed_batch' } } },
  // DP-SGD asks how the training loop draws batches: every sampler from N and B (Poisson at q = B/N),
  // neighbours by zero-out. A link of 0.2.0 keeps its Poisson rate (0.01 by default then: the hidden
  // `sampling_rate`) and add/remove neighbours, so that it answers as it did.
  { version: '0.3.0', changes: {}, previousDefaults: { dpsgd: { relation: 'add_remove', sampling_rate: '0.01' } } },
];

/** "0.10.1" → [0, 10, 1]; null when it is not such a version. */
function parts(version) {
  return /^\d+\.\d+\.\d+$/.test(version) ? version.split('.').map(Number) : null;
}

/** Negative, zero or positive as version `a` is earlier than, the same as or later than `b`. */
export function compareVersions(a, b) {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

export const isVersion = (text) => parts(text) !== null;

/**
 * What a link of `version` means for section `name`, by the versions in `entries` (the history):
 *   defaults: input → text, the defaults that version used where they differ from today's;
 *   note: a sentence for the reader, or '' when this page answers the link as that version did.
 */
export function linkVersion(version, name, entries = history) {
  const later = compareVersions(version, kVersion);
  if (later > 0) {
    return {
      defaults: {},
      note: `This link was made with dpcalc ${version}, a newer version than this page (${kVersion}): its numbers may differ from the ones shown here.`,
    };
  }
  const since = entries.filter((entry) => compareVersions(entry.version, version) > 0);
  const defaults = {};
  // Newest first, so that the oldest change of an input leaves the value of `version`.
  for (const entry of [...since].reverse()) Object.assign(defaults, entry.previousDefaults[name] ?? {});
  const changes = since
    .filter((entry) => entry.changes[name])
    .map((entry) => `${entry.version}: ${entry.changes[name]}`);
  const note = changes.length
    ? `This link was made with dpcalc ${version}; this page is ${kVersion}, which answers this section differently ` +
      `(${changes.join(' ')}). The inputs are those of the link, with the defaults of ${version}.`
    : '';
  return { defaults, note };
}
