// Embed mode (index.html?embed=1#/section?…, inside an <iframe>): the page shows the one section
// without its header, nav and footer, and tells the parent frame its height whenever it changes, as
// { type: 'dpcalc:height', height } (CSS pixels), so that the parent can size the iframe to fit.
// The height is not secret, so it is posted to any parent origin.

/** Starts embed mode; `currentSection()` is the section element shown. */
export function startEmbedMode(currentSection) {
  document.documentElement.classList.add('embed');
  if (window.parent === window) return;
  let lastHeight = -1;
  const post = () => {
    const height = Math.ceil(document.documentElement.getBoundingClientRect().height);
    if (height === lastHeight) return;
    lastHeight = height;
    window.parent.postMessage(
      { type: 'dpcalc:height', height, section: currentSection()?.dataset.section ?? null },
      '*',
    );
  };
  new ResizeObserver(post).observe(document.documentElement);
  post();
}
