// Observable Plot for the SVG charts, bundled by scripts/vendor.mjs into dist/vendor/vendor.js (no
// CDN). KaTeX is bundled apart (dist/vendor/katex.js): formulas are typeset at build time and KaTeX
// is loaded only for a formula that was not.
export { plot, line, dot, ruleY, gridY, tip, pointer } from '@observablehq/plot';
