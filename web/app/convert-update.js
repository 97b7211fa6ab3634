// Conversions on the page: zCDP to (ε, δ) by Bun–Steinke 2016 and by the tighter
// Canonne–Kamath–Steinke 2020 bound, and pure ε-DP to zCDP (convert-requests.js), in one table.
import { h } from './dom.js';
import { formulas } from './formula.js';
import { guaranteeElement, inputsOf, methodTable } from './results.js';
import { answerAll, byId } from './ask.js';
import { formatNumber } from './format.js';
import { citeSentence, paperGuarantee, proof } from './headline.js';
import { explainedItem } from './explained.js';
import { asked, askedQuestions, requests } from './convert-requests.js';

const kFormulas = {
  'bun-steinke': formulas.bunSteinke,
  'canonne-kamath-steinke': formulas.canonneKamathSteinke,
  'pure-to-zcdp': formulas.pureToZcdp,
};

async function updateConvert({ calculator, form, inputs, isCurrent, results, errors, summary, isSet, explain }) {
  const questions = askedQuestions(isSet);
  // The panel explains the guarantee converted (a conversion only loosens it): ρ unless only ε was asked.
  const explained = questions.pure && !questions.zcdp ? 'pure-to-zcdp' : 'canonne-kamath-steinke';
  const sent = (item) => (item.id === explained ? explainedItem(item) : item);
  const answered = await answerAll(calculator, requests(inputs).map(sent));
  if (!isCurrent()) return;
  // Two questions side by side: the one whose input the person did not set shows its example.
  const zcdpExample = questions.zcdp ? undefined : `example ρ = ${inputs.rho.trim()}, not set by you`;
  const examples = {
    'bun-steinke': zcdpExample,
    'canonne-kamath-steinke': zcdpExample,
    'pure-to-zcdp': questions.pure ? undefined : `example ε = ${inputs.epsilon.trim()}, not set by you`,
  };
  const headlined = asked(inputs, isSet);
  const rows = answered.map((item) => ({
    ...item,
    formula: kFormulas[item.id],
    example: examples[item.id],
    answers: headlined.includes(item.id),
    fields: inputsOf(form, item.fields, item.request),
    render: (result) =>
      h(
        'span',
        {},
        guaranteeElement(result.guarantee, {
          vacuous: result.vacuous,
          deltaIsGiven: result.guarantee.type === 'approx',
        }),
      ),
  }));
  results.replaceChildren(methodTable({ caption: 'Conversions', rows, errors }));
  const answers = byId(answered);
  summary(...headlineOf(answers, inputs, questions));
  const { request: of, response } = answers[explained];
  if (response.ok) explain({ of, response });
}

/**
 * The headline: the conversions the person asked for (those whose inputs they set); with nothing
 * set, both, as the example. Returns [text, { cite }].
 */
function headlineOf(answers, inputs, questions) {
  const tighter = answers['canonne-kamath-steinke'].response;
  const pureToZcdp = answers['pure-to-zcdp'].response;
  const rho = inputs.rho.trim();
  const epsilon = inputs.epsilon.trim();
  const parts = {
    zcdp:
      tighter.ok && !tighter.result.vacuous
        ? {
            text: `ρ = ${rho} gives ε ≤ ${formatNumber(tighter.result.guarantee.epsilon)} at δ = ${inputs.delta.trim()}`,
            cite: citeSentence({
              subject: `Every ${rho}-zCDP mechanism`,
              guarantee: paperGuarantee(tighter.result.guarantee, { deltaIsGiven: true }),
              method: 'the conversion of Canonne, Kamath and Steinke',
              citation: tighter.result.citation,
            }),
            result: tighter.result,
          }
        : null,
    pure: pureToZcdp.ok
      ? {
          text: `ε = ${epsilon} gives ρ ≤ ${formatNumber(pureToZcdp.result.guarantee.rho)}`,
          cite: citeSentence({
            subject: `Every ${epsilon}-DP mechanism`,
            guarantee: paperGuarantee(pureToZcdp.result.guarantee),
            method: 'the conversion of pure DP to zCDP',
            citation: pureToZcdp.result.citation,
          }),
          result: pureToZcdp.result,
        }
      : null,
  };
  const chosen = ['zcdp', 'pure'].filter((name) => questions[name]);
  const shown = (chosen.length ? chosen : ['zcdp', 'pure']).map((name) => parts[name]).filter(Boolean);
  if (shown.length === 0) return ['No answer: check the marked fields.'];
  const example = questions.zcdp || questions.pure ? '' : 'Example: ';
  return [
    `${example}${shown.map((part) => part.text).join('; ')}.`,
    { cite: shown[0].cite, result: shown[0].result, proof: proof.proven('Proven upper bounds, closed forms') },
  ];
}

export { updateConvert };
