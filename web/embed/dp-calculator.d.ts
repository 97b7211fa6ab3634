// <dp-calculator section="group|composition|split|calibrate|convert|kmeans|dpsgd|databases|groupwise" …inputs as attributes> or
// <dp-calculator request='{"op": …}'>: defined when dp-calculator.js is imported.
export {};

declare global {
  interface HTMLElementTagNameMap {
    'dp-calculator': HTMLElement;
  }
}
