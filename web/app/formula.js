// The formula of each method, in TeX. The page shows the formula; the number beside it always comes
// from the calculator core. Formulas are typeset by KaTeX at build time (scripts/formulas.mjs writes
// vendor/formulas.js, a module of its own that the page loads once it has drawn its first answer);
// KaTeX itself is loaded only for TeX that was not.
import { afterNextPaint, h } from './dom.js';

const kNamespaces = { m: 'http://www.w3.org/1998/Math/MathML', s: 'http://www.w3.org/2000/svg' };

// A node of KaTeX's output as scripts/formulas.mjs stores it: text, or [tag, class, style, attributes,
// children] with 'm:' (MathML) or 's:' (SVG) before the tag.
function buildNode(node) {
  if (typeof node === 'string') return document.createTextNode(node);
  const [tag, className, style = {}, attributes = {}, children = []] = node;
  const [prefix, localName] = tag.includes(':') ? tag.split(':') : ['', tag];
  const element = prefix ? document.createElementNS(kNamespaces[prefix], localName) : document.createElement(tag);
  if (className) element.setAttribute('class', className);
  Object.assign(element.style, style);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, value);
  element.append(...children.map(buildNode));
  return element;
}

// The formulas of the first answers are most of the page's elements at that point (KaTeX's spans:
// about three in four), and laying them out held back the drawing of the first number; their typeset
// forms are also an eighth of the bytes of the page's script. So the formulas asked for before the
// page has drawn an answer wait for that frame, and for vendor/formulas.js, which is fetched then;
// later ones are typeset at once.
let waitingForFirstFrame = null; // [tex, element, options] of each
let prerendered = null; // { tex: JSON text } once vendor/formulas.js has loaded

/** KaTeX's render(): the output typeset at build time, else KaTeX loaded and run now. */
function renderTex(tex, element, options) {
  if (!prerendered) {
    if (!waitingForFirstFrame) {
      waitingForFirstFrame = [];
      afterNextPaint()
        .then(() => import('../vendor/formulas.js'))
        .catch(() => ({ prerendered: {} })) // typeset by KaTeX instead
        .then((loaded) => {
          prerendered = loaded.prerendered;
          for (const waiting of waitingForFirstFrame) renderTex(...waiting);
        });
    }
    waitingForFirstFrame.push([tex, element, options]);
    return;
  }
  const typeset = prerendered[tex]; // JSON text (scripts/formulas.mjs)
  if (typeset) element.append(...JSON.parse(typeset).map(buildNode));
  else import('../vendor/katex.js').then(({ render }) => render(tex, element, options));
}

const approxGroup = String.raw`\Bigl(k\varepsilon,\ \delta\,\frac{e^{k\varepsilon}-1}{e^{\varepsilon}-1}\Bigr)`;
const cks = String.raw`\varepsilon = \inf_{\alpha>1}\, \alpha\rho + \frac{\ln\frac{1}{\delta} + (\alpha-1)\ln\bigl(1-\frac{1}{\alpha}\bigr) - \ln\alpha}{\alpha-1}`;
const bunSteinke = String.raw`\varepsilon = \rho + 2\sqrt{\rho\ln(1/\delta)}`;

export const formulas = {
  groupPure: String.raw`\varepsilon_k = k\,\varepsilon`,
  groupApprox: String.raw`(\varepsilon_k, \delta_k) = ${approxGroup}`,
  groupOverProfile: String.raw`\varepsilon_k = k \min\Bigl\{\varepsilon : \delta(\varepsilon)\,\frac{e^{k\varepsilon}-1}{e^{\varepsilon}-1} \le \delta_k\Bigr\}`,
  groupZcdp: String.raw`\rho_k = k^2 \rho`,
  groupLaplace: String.raw`\varepsilon_k = \frac{k\Delta}{b}`,
  groupGaussianExact: String.raw`\Phi\Bigl(\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Bigr) - e^{\varepsilon}\,\Phi\Bigl(-\frac{\mu}{2}-\frac{\varepsilon}{\mu}\Bigr) \le \delta,\quad \mu = \frac{k\Delta}{\sigma}`,
  groupGaussianZcdp: String.raw`\rho_k = \frac{(k\Delta)^2}{2\sigma^2},\quad ${cks}`,
  groupGaussianGeneric: String.raw`\text{the Gaussian's }(\varepsilon,\delta)\text{ at }k=1,\text{ then } ${approxGroup}`,
  groupGaussianComposition: String.raw`\rho = k\,\frac{\Delta^2}{2\sigma^2}\ \ (\text{vs. } k^2\,\tfrac{\Delta^2}{2\sigma^2}\text{ for a group})`,
  basic: String.raw`\Bigl(\sum_i \varepsilon_i,\ \sum_i \delta_i\Bigr) = (k\varepsilon_0,\ k\delta_0)`,
  parallel: String.raw`\Bigl(\max_i \varepsilon_i,\ \max_i \delta_i\Bigr)`,
  advancedDrv: String.raw`\varepsilon_0\sqrt{2k\ln(1/\delta')} + k\varepsilon_0\bigl(e^{\varepsilon_0}-1\bigr),\quad \delta = k\delta_0 + \delta'`,
  advancedKov: String.raw`\min\Bigl\{k\varepsilon_0,\ k\varepsilon_0\tanh\tfrac{\varepsilon_0}{2} + \varepsilon_0\sqrt{2k\ln\bigl(e+\sqrt{k\varepsilon_0^2}/\delta'\bigr)},\ k\varepsilon_0\tanh\tfrac{\varepsilon_0}{2} + \varepsilon_0\sqrt{2k\ln(1/\delta')}\Bigr\},\quad \delta = 1-(1-\delta_0)^k(1-\delta')`,
  optimal: String.raw`\delta = 1-(1-\delta_0)^k\Bigl(1-\sum_{\ell=0}^{k}\binom{k}{\ell}\frac{\bigl[e^{(k-\ell)\varepsilon_0}-e^{\varepsilon+\ell\varepsilon_0}\bigr]_+}{(1+e^{\varepsilon_0})^k}\Bigr)\ \text{solved for the smallest }\varepsilon`,
  zcdp: String.raw`\rho = k\,\frac{\varepsilon_0^2}{2},\quad ${cks}`,
  bunSteinke,
  canonneKamathSteinke: cks,
  pureToZcdp: String.raw`\rho = \frac{\varepsilon^2}{2}`,
  rdp: String.raw`\varepsilon = \min_{\alpha>1}\, \sum_i k_i\,\varepsilon_i(\alpha) + \ln\frac{\alpha-1}{\alpha} - \frac{\ln\delta + \ln\alpha}{\alpha-1}`,
  pld: String.raw`\delta(\varepsilon) = \mathbb{E}_{\omega \sim L_1 * \cdots * L_k}\bigl[(1 - e^{\varepsilon - \omega})_+\bigr]`,
  split: String.raw`\varepsilon_0 = \max\{\varepsilon_0 : \mathrm{compose}_k(\varepsilon_0,\delta_0) \le (\varepsilon,\delta)\}`,
};

/** An element holding `tex` typeset by KaTeX (display style). */
export function formulaElement(tex) {
  // The TeX source stays with it, for the LaTeX export.
  const element = h('span', { class: 'formula', dataset: { tex } });
  renderTex(tex, element, { throwOnError: false, displayMode: false });
  return element;
}
