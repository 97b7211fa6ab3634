// The inputs a person set in every section, kept for the visit (sessionStorage: this tab, until it
// closes), so that a reload or a trip through other sections never loses work. The address holds
// the section shown; this holds the others. Where storage is refused (a sandboxed frame, a browser
// setting), the page works as before and only the address remembers.
const kKey = 'dpcalc:inputs';

function storage() {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

/** Section name → { input: text } of every section saved in this visit. */
export function savedInputs() {
  try {
    const saved = JSON.parse(storage()?.getItem(kKey) ?? '{}');
    return saved && typeof saved === 'object' ? saved : {};
  } catch {
    return {};
  }
}

/** Remembers the inputs (`inputs`: input → text) that the person set in section `name`. */
export function saveInputs(name, inputs) {
  try {
    storage()?.setItem(kKey, JSON.stringify({ ...savedInputs(), [name]: inputs }));
  } catch {
    // Storage full or refused: the address still holds the section shown.
  }
}
