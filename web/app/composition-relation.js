// A ledger whose releases need another neighbouring relation than the one chosen (randomized
// response has a dominating pair under substitution only: a respondent's answer changes): the core
// refuses it under that relation for every method, naming the release. The page says so once, in
// its own words, on the relation input, and finds the choice of that input every release supports
// (the core checks the relation of every release before it computes, so a closed-form request under
// each other choice answers at once whether it suits them all). No DOM here.
import { choiceWords } from './request-words.js';

/** Whether `response` refuses a release for the neighbouring relation (core: mechanism_io check_relation). */
export const isRelationError = (response) =>
  !response.ok &&
  response.error.code === 'invalid_argument' &&
  /^relation '/.test(response.error.message) &&
  /(^|\.)(relation|mechanism\.type)$/.test(response.error.field);

/** "Release 2 (randomized response)": the release the refusal names, by its number and title. */
function releaseWords(catalog, request, field) {
  const index = /^items\.(\d+)\./.exec(field)?.[1];
  if (index === undefined) return 'A release';
  const type = request.items[Number(index)]?.mechanism?.type;
  const title = catalog.types.find((each) => each.name === type)?.title ?? type;
  return `Release ${Number(index) + 1} (${title})`;
}

/**
 * Why `refused` (an answered row: { request, response }) was refused, and the choice of `input`
 * (the relation select) under which every release has a bound, asked of `calculator`:
 * { relation, words, headline, field } (the headline says why and what to do; the field's message,
 * beside the relation input, what to choose); `relation` is null when no choice suits them all.
 */
export async function relationRefusal({ calculator, catalog, input, refused }) {
  const current = choiceWords(input.value);
  const release = releaseWords(catalog, refused.request, refused.response.error.field);
  const why = `${release} has no bound under “${current}”`;
  for (const option of [...input.options].filter((each) => each.value !== input.value)) {
    const response = await calculator.run({ ...refused.request, relation: option.value });
    if (isRelationError(response)) continue;
    const words = choiceWords(option.value);
    return {
      relation: option.value,
      words,
      headline: `No answer: ${why.replace(/^Release/, 'release')}. Every release has one under “${words}”: switch to it below.`,
      field: `${release} has no bound under this choice: choose “${words}”.`,
    };
  }
  return {
    relation: null,
    words: '',
    headline: `No answer: ${why.replace(/^Release/, 'release')}, and no other choice of neighbouring datasets suits every release. Remove that release or change it.`,
    field: `${release} has no bound under this choice, nor under any other.`,
  };
}
