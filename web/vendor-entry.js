// The only third-party code the page loads, bundled by scripts/vendor.mjs into dist/vendor/vendor.js
// (no CDN): KaTeX for formulas and Observable Plot for the SVG charts.
export { render as renderTex } from 'katex';
export { plot, line, dot, ruleY, gridY, tip, pointer } from '@observablehq/plot';
