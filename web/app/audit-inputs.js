// The Audit section's inputs that are more than a number: the scores pasted as CSV, and the claim
// that another section's result makes (a request, as JSON, carried by the "Audit this claim" link of
// its attacker panel, attacker.js). Pure functions of text, no DOM: the <dp-calculator> element
// reads them too.
import { parseNumber, quote } from './format.js';

/** The longest scores text a link may carry (characters). */
export const kMaxScoresLength = 200_000;
/** The longest claimed request a link may carry (characters): a long Composition ledger fits. */
export const kMaxClaimLength = 8_000;

/** The claimed request of `text` (JSON of a request or of { guarantee }), or { error } in words. */
export function parseClaim(text) {
  let claim;
  try {
    claim = JSON.parse(text);
  } catch {
    return { error: 'the claimed result is not a request of another section (JSON)' };
  }
  const isObject = (value) => typeof value === 'object' && value !== null && !Array.isArray(value);
  if (!isObject(claim) || !(typeof claim.op === 'string' || isObject(claim.guarantee)))
    return { error: 'the claimed result is not a request of another section' };
  return { claim };
}

/** For the link's check (router.js): a sentence when `text` cannot be a claimed request, else null. */
export const claimProblem = (text) => parseClaim(text).error ?? null;

const kSeparator = /[,;\t]/;
const kLabels = { 1: 'member', 0: 'nonmember', member: 'member', nonmember: 'nonmember', 'non-member': 'nonmember' };

/**
 * The scores of `text`, CSV with one row per example: `format` 'labelled' (score, label: 1 for a
 * member, 0 for a non-member) or 'columns' (a member's score, a non-member's score; either cell may
 * be empty). A first row that is not numbers is a header. Returns { member_scores, nonmember_scores }
 * or { error } naming the line.
 */
export function parseScores(text, format) {
  const lines = String(text)
    .split(/\r?\n/)
    .map((line, index) => ({ cells: line.split(kSeparator).map((cell) => cell.trim()), number: index + 1 }))
    .filter(({ cells }) => cells.some((cell) => cell !== ''));
  if (lines.length > 0 && lines[0].cells.every((cell) => cell === '' || Number.isNaN(parseNumber(cell)))) lines.shift();
  if (lines.length === 0) return { error: 'Paste the scores: one row per example, as CSV.' };
  const members = [];
  const nonmembers = [];
  for (const { cells, number } of lines) {
    if (cells.length !== 2) return { error: `Line ${number} has ${cells.length} cells; each row needs two.` };
    const score = (cell) => {
      const value = parseNumber(cell);
      return Number.isFinite(value) ? value : null;
    };
    if (format === 'labelled') {
      const value = score(cells[0]);
      const label = kLabels[cells[1].toLowerCase()];
      if (value === null) return { error: `Line ${number}: ${quote(cells[0])} is not a score.` };
      if (!label) return { error: `Line ${number}: the label must be 1 (member) or 0 (non-member).` };
      (label === 'member' ? members : nonmembers).push(value);
      continue;
    }
    for (const [cell, list] of [
      [cells[0], members],
      [cells[1], nonmembers],
    ]) {
      if (cell === '') continue;
      const value = score(cell);
      if (value === null) return { error: `Line ${number}: ${quote(cell)} is not a score.` };
      list.push(value);
    }
  }
  return { member_scores: members, nonmember_scores: nonmembers };
}
