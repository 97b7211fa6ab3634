// The x values of a plot, from the page's own "plot up to" input (not a calculator request, so the
// page checks it itself): integers from 1 to the typed maximum, at most `points` of them, evenly
// or logarithmically spaced.

/** The values for "plot up to" text `text`, or null when it is not a whole number from 2 to `max`. */
export function rangeOf(text, { max, points, log }) {
  const trimmed = String(text).trim();
  const upTo = Number(trimmed);
  if (!/^\d+$/.test(trimmed) || upTo < 2 || upTo > max) return null;
  const values = new Set([1, upTo]);
  for (let i = 1; i < points - 1; i += 1) {
    const fraction = i / (points - 1);
    values.add(Math.round(log ? upTo ** fraction : 1 + fraction * (upTo - 1)));
  }
  return [...values].sort((a, b) => a - b);
}

/** rangeOf the text of `input`; when it is not one, [] and the input marked in `errors`. */
export function plotRange(input, errors, options) {
  const values = rangeOf(input.value, options);
  if (values === null) errors.set(input, `Enter a whole number from 2 to ${options.max}.`);
  return values ?? [];
}
