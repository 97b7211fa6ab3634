// The page's first script: a classic one (it runs where the page's modules cannot), deferred (it
// runs after parsing, before the modules). It explains a page that cannot start (module scripts
// refused: opened from file:// in Chromium or Firefox, or framed in a sandbox by a server that does
// not allow it) instead of leaving forms without results, registers the service worker that keeps a
// visited page working offline, and starts compiling dpcalc-first.wasm (the part of the wasm module
// that the first answers run), with dpcalc-rest.wasm for a link to another section, before the page's
// modules run (web/assets.js startedWasm hands the compilations to the client).
(function () {
  'use strict';

  if (
    typeof WebAssembly === 'object' &&
    typeof WebAssembly.compileStreaming === 'function' &&
    typeof Symbol === 'function' &&
    typeof fetch === 'function' &&
    /^https?:$/.test(location.protocol)
  ) {
    // Null when it fails (e.g. a server that does not send application/wasm): the client compiles it itself.
    var compile = function (part) {
      var url = new URL('dpcalc-' + part + '.wasm', document.baseURI).href;
      var module = WebAssembly.compileStreaming(fetch(url)).then(
        function (compiled) {
          performance.mark('dpcalc:wasm-' + part + '-compiled'); // the names web/client.js gives them too
          return compiled;
        },
        function () {
          return null;
        },
      );
      return { url: url, module: module };
    };
    var started = { first: compile('first') };
    // The first part holds what the default section (Group) answers first (scripts/first-answers.mjs).
    // A link to another section (#/convert?…, #convert, a permalink #v=1&…) answers from the rest too:
    // it is then fetched now, beside the first part, rather than once the first part has missed.
    var name = location.hash.replace(/^#\/?/, '').split(/[?&=]/)[0];
    if (name !== '' && name !== 'group' && !document.getElementById(name)) started.rest = compile('rest');
    window[Symbol.for('dpcalc.wasm')] = started;
  }
})();

(function () {
  'use strict';

  function reason() {
    if (location.protocol === 'file:') {
      return (
        'This page cannot run from a file: browsers refuse its modules and workers on file://. ' +
        'Open dpcalc-offline.html from the same folder instead (a single file that works offline), ' +
        'or serve this folder over HTTP, e.g. run "npx sirv-cli ." or "python3 -m http.server" in it ' +
        'and open http://localhost:8080/ (or :8000/).'
      );
    }
    return (
      'The calculator could not load its scripts here. If this page is in a sandboxed frame, give the ' +
      'frame allow-scripts and serve dpcalc with "Access-Control-Allow-Origin: *" (or add allow-same-origin); ' +
      'otherwise reload the page.'
    );
  }

  function explain() {
    var note = document.createElement('p');
    note.className = 'notice load-error';
    note.setAttribute('role', 'alert');
    note.textContent = reason();
    note.style.border = '2px solid #b00020';
    note.style.padding = '0.75rem 1rem';
    note.style.margin = '1rem';
    document.body.insertBefore(note, document.body.firstChild);
  }

  // The page's module marks <html data-started> as it runs, and every script of the page has run
  // before "load". (The module script's "error" event cannot be relied on: Firefox fires it on
  // file:// as soon as the fetch is refused, before this deferred script has run.)
  window.addEventListener('load', function () {
    if (!('started' in document.documentElement.dataset)) explain();
  });

  var canRegister =
    'serviceWorker' in navigator &&
    window.isSecureContext &&
    window.origin !== 'null' &&
    /^https?:$/.test(location.protocol);
  if (canRegister) {
    var register = function () {
      navigator.serviceWorker.register('sw.js').catch(function () {
        /* offline use is a bonus */
      });
    };
    // Its install downloads every file of the page: after the page has settled, not during its start.
    window.addEventListener('load', function () {
      if ('requestIdleCallback' in window) window.requestIdleCallback(register, { timeout: 5000 });
      else setTimeout(register, 1000);
    });
  }
})();
