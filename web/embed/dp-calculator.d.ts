// <dp-calculator section="group|composition|split|convert" …inputs as attributes> or
// <dp-calculator request='{"op": …}'>: defined when dp-calculator.js is imported.
export {};

declare global {
  interface HTMLElementTagNameMap {
    'dp-calculator': HTMLElement;
  }
}
