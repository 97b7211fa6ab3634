// The answering code of a section other than the default one lives in web/app/<name>-update.js,
// gathered by later-sections.js into a chunk the page loads after its first answer (or when such a
// section runs first; scripts/bundle.mjs): the first answer does not wait for that code.

/**
 * A section's `update` whose code is in a module loaded on demand: `load` imports it (a literal
 * import() the bundler can follow) and `name` is its update function. `update.load()` starts that
 * import early (main.js: once the first section has answered); a failed import is tried again.
 */
export function lazyUpdate(load, name) {
  let loading = null;
  const update = async (context) => (await update.load())[name](context);
  update.load = () =>
    (loading ??= load().catch((error) => {
      loading = null;
      throw error;
    }));
  return update;
}
