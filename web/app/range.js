// The x values of a plot, from the page's own "plot up to" input (not a calculator request, so the
// page checks it itself): integers from 1 to the typed maximum, at most `points` of them, evenly
// or logarithmically spaced.
export function plotRange(input, errors, { max, points, log }) {
  const text = input.value.trim();
  const upTo = Number(text);
  if (!/^\d+$/.test(text) || upTo < 2 || upTo > max) {
    errors.set(input, `Enter a whole number from 2 to ${max}.`);
    return [];
  }
  const values = new Set([1, upTo]);
  for (let i = 1; i < points - 1; i += 1) {
    const fraction = i / (points - 1);
    values.add(Math.round(log ? upTo ** fraction : 1 + fraction * (upTo - 1)));
  }
  return [...values].sort((a, b) => a - b);
}
