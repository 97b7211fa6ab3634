// The answering code of every section but the default one, in one module: the page bundle makes it
// one chunk, loaded after the first answer (lazy-update.js), and what it shares with the default
// section one more, so that the first answer waits for two files rather than one per section (each
// request costs a round trip on a slow network).
export { updateComposition } from './composition-update.js';
export { updateSplit } from './split-update.js';
export { updateCalibrate } from './calibrate-update.js';
export { updateConvert } from './convert-update.js';
export { updateKmeans } from './kmeans-update.js';
export { updateDpsgd } from './dpsgd-update.js';
export { updateDatabases } from './databases-update.js';
export { updateGroupwise } from './groupwise-update.js';
export { updateAudit } from './audit-update.js';
