// The Group privacy section's headline: the group's guarantee for what the person described, in
// their own terms (pure or (ε, δ) at their δ, zCDP, or a mechanism), in the form's order; with
// nothing set, the form's first description, said to be the example. And its sentence for a paper.
import { parseNumber } from './format.js';
import { boundText, citeSentence, givenNumber, methodWords, paperGuarantee, proof } from './headline.js';
import { askedKinds, isPureRecord, ownInputs } from './group-requests.js';

const kSubject = (k) => `A group of ${k} records`;

/** Each description's part of the headline, [text, cite(), result] or null when it has no answer. */
const kParts = {
  guarantee({ answers, inputs, isSet, value, k }) {
    const pureRecord = isPureRecord(inputs, isSet);
    const { response } = pureRecord ? answers.pure : answers.approx;
    if (!response.ok || response.result.vacuous) return null;
    const record = pureRecord
      ? `${value('epsilon')}-DP per record`
      : `(${value('epsilon')}, ${value('delta')})-DP per record`;
    return [
      `${boundText(response.result.guarantee)} (from ${record})`,
      () =>
        citeSentence({
          subject: kSubject(k),
          guarantee: paperGuarantee(response.result.guarantee),
          scope: `when each record is ${record.replace(' per record', '')}`,
          method: `group privacy (${pureRecord ? 'pure DP' : 'approximate DP'})`,
          citation: response.result.citation,
        }),
      response.result,
    ];
  },
  zcdp({ answers, value, k }) {
    const { response } = answers.zcdp;
    if (!response.ok) return null;
    return [
      `${boundText(response.result.guarantee)} (from ρ = ${value('rho')} per record)`,
      () =>
        citeSentence({
          subject: kSubject(k),
          guarantee: paperGuarantee(response.result.guarantee),
          scope: `when each record is ${value('rho')}-zCDP`,
          method: 'group privacy of zCDP',
          citation: response.result.citation,
        }),
      response.result,
    ];
  },
  laplace({ answers, value, k }) {
    const { response } = answers.laplace;
    if (!response.ok) return null;
    return [
      `${boundText(response.result.guarantee)} (Laplace mechanism, b = ${value('scale')})`,
      () =>
        citeSentence({
          subject: `The Laplace mechanism (b = ${value('scale')}, sensitivity ${value('sensitivity')})`,
          guarantee: paperGuarantee(response.result.guarantee),
          scope: `for a group of ${k} records`,
          method: 'the Laplace mechanism at sensitivity kΔ',
          citation: response.result.citation,
        }),
      response.result,
    ];
  },
  gaussian({ answers, value, k }) {
    const { response } = answers.gaussian;
    if (!response.ok || response.result.vacuous) return null;
    const { guarantee } = response.result;
    return [
      `${boundText(guarantee, { deltaIsGiven: true })} (Gaussian mechanism, σ = ${value('sigma')}, exact)`,
      () =>
        citeSentence({
          subject: `The Gaussian mechanism (σ = ${value('sigma')}, sensitivity ${value('sensitivity')})`,
          guarantee: paperGuarantee(guarantee, { deltaIsGiven: true }),
          scope: `for a group of ${k} records`,
          method: 'the exact (ε, δ) of the Gaussian mechanism at sensitivity kΔ',
          citation: response.result.citation,
        }),
      response.result,
    ];
  },
  picked({ answers, k }) {
    const { response, view } = answers.picked;
    if (!response.ok || response.result.vacuous) return null;
    const { guarantee } = response.result;
    const deltaIsGiven = guarantee.type === 'approx';
    return [
      `${boundText(guarantee, { deltaIsGiven })} (${view.words}${view.overProfile ? ', a generic bound' : ''})`,
      () =>
        citeSentence({
          subject: `The ${view.words}`,
          guarantee: paperGuarantee(guarantee, { deltaIsGiven }),
          scope: `for a group of ${k} records`,
          method: methodWords(response.result.method),
          citation: response.result.citation,
        }),
      response.result,
    ];
  },
};

/**
 * The headline of the answered rows `answers` (by id; 'picked' with its `view`) for `inputs`, the
 * descriptions the person set first (`isSet`). Returns [text, { cite }] for the section's summary.
 */
export function groupHeadline(answers, { inputs, isSet }) {
  const k = inputs.k.trim();
  const value = (name) => {
    const number = parseNumber(inputs[name]);
    return Number.isNaN(number) ? inputs[name].trim() : givenNumber(number);
  };
  const parts = askedKinds(isSet)
    .map((kind) => kParts[kind]({ answers, inputs, isSet, value, k }))
    .filter(Boolean);
  if (parts.length === 0) return ['No answer: check the marked fields.'];
  // Nothing set: the form's first description, said to be the example.
  const example = Object.values(ownInputs(isSet)).some(Boolean) ? '' : 'Example: ';
  return [
    `${example}${kSubject(k)}: ${parts.map(([text]) => text).join('; ')}.`,
    { cite: parts[0][1](), result: parts[0][2], proof: proof.proven() },
  ];
}
