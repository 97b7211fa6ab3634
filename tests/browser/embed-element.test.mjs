// Embedding from another origin: a host page on a second 127.0.0.1 port, under a strict
// Content-Security-Policy of its own, uses the <dp-calculator> element with one script tag (every
// section of the page has its element form), and frames the page, also in
// <iframe sandbox="allow-scripts"> (an opaque origin).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { sessionForFile } from './helpers.mjs';

const session = sessionForFile();
let host;
before(async () => {
  host = await startHost();
});
after(async () => {
  await host?.close();
});

const kTimeout = { timeout: 120_000 };

// Serves the HTML the test puts in `pages` (path → { html, csp }) on another port.
function startHost() {
  const pages = new Map();
  const server = createServer((request, response) => {
    const page = pages.get(request.url);
    if (request.url === '/favicon.ico') {
      response.writeHead(204).end();
      return;
    }
    if (!page) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': page.csp });
    response.end(page.html);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        pages,
        url: `http://127.0.0.1:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            server.closeAllConnections();
            server.close(done);
          }),
      }),
    ),
  );
}

async function hostPage(context, pathname, { html, csp }) {
  host.pages.set(pathname, {
    html: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>host</title></head><body>${html}</body></html>`,
    csp,
  });
  const page = await context.newPage();
  const problems = [];
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Content Security Policy|Failed to construct 'Worker'/.test(message.text()))
      problems.push(message.text());
  });
  await page.goto(host.url + pathname);
  return { page, problems };
}

const dpcalcOrigin = () => session.origin;

// The host allows dpcalc's origin for scripts and the wasm fetch; with `blobWorkers` it also lets the
// element start its worker from a blob: URL, without it the element runs the calculator in the page.
const strictPolicy = ({ blobWorkers }) =>
  [
    `default-src 'self'`,
    `script-src 'self' ${dpcalcOrigin()} 'wasm-unsafe-eval'`,
    `connect-src 'self' ${dpcalcOrigin()}`,
    `worker-src 'self'${blobWorkers ? ' blob:' : ''}`,
  ].join('; ');

for (const blobWorkers of [true, false]) {
  test(
    `<dp-calculator> on another origin under a strict CSP (${blobWorkers ? 'blob: workers allowed' : 'no workers'})`,
    kTimeout,
    async () => {
      const context = await session.browser.newContext();
      try {
        const { page, problems } = await hostPage(context, `/element-${blobWorkers}`, {
          csp: strictPolicy({ blobWorkers }),
          html: `<script type="module" src="${session.url}dp-calculator.js"></script>
          <dp-calculator id="approx" section="group" k="8" epsilon="1" delta="1e-6"></dp-calculator>
          <dp-calculator id="pure" section="group" k="3" epsilon="0.5"></dp-calculator>
          <dp-calculator id="split" section="split" epsilon="1" delta="1e-5" count="100"></dp-calculator>`,
        });
        const answer = (id) => page.locator(`#${id} .answer`).first();
        // Vadhan 2017, Lemma 2.2: (kε, δ(e^{kε}−1)/(e^ε−1)) = (8, 0.00173426613…), δ rounded up to 5 digits.
        await page.waitForFunction(() => document.querySelector('#approx')?.dataset.ready === 'true');
        assert.equal(await answer('approx').textContent(), 'ε ≤ 8, δ ≤ 0.0017343');
        // Dwork & Roth 2014, Thm 2.2: kε = 1.5.
        await page.waitForFunction(() => document.querySelector('#pure')?.dataset.ready === 'true');
        assert.equal(await answer('pure').textContent(), 'ε ≤ 1.5');
        // Basic composition inverted (Dwork & Roth 2014, Thm 3.16): ε/k, δ/k per step, rounded down.
        await page.waitForFunction(() => document.querySelector('#split')?.dataset.ready === 'true');
        assert.equal(await answer('split').textContent(), 'ε = 0.01, δ = 1 × 10⁻⁷ per step');
        // Editing a field writes the attribute and recomputes: k = 5 gives 2.5.
        await page.locator('#pure input[name="k"]').fill('5');
        await page.waitForFunction(
          () => document.querySelector('#pure').shadowRoot.querySelector('.answer')?.textContent === 'ε ≤ 2.5',
        );
        assert.equal(await page.locator('#pure').getAttribute('k'), '5');
        assert.match(await page.locator('#pure [role="status"]').textContent(), /ε ≤ 2\.5/);
        // An invalid attribute is explained in the row, not thrown, and its field is marked.
        await page.locator('#pure input[name="epsilon"]').fill('-1');
        await page.waitForFunction(() => document.querySelector('#pure').shadowRoot.querySelector('.error'));
        assert.equal(await page.locator('#pure input[name="epsilon"]').getAttribute('aria-invalid'), 'true');
        assert.equal(await page.locator('#pure input[name="k"]').getAttribute('aria-invalid'), null);
        assert.match(await page.locator('#pure .error').first().textContent(), /^ε /);
        assert.deepEqual(problems, []);
      } finally {
        await context.close();
      }
    },
  );
}

test('<dp-calculator> answers every section of the page', kTimeout, async () => {
  const context = await session.browser.newContext();
  try {
    const { page, problems } = await hostPage(context, '/all-sections', {
      csp: strictPolicy({ blobWorkers: true }),
      html: `<script type="module" src="${session.url}dp-calculator.js"></script>
      <dp-calculator id="group" section="group" k="8" epsilon="1" delta="1e-6"></dp-calculator>
      <dp-calculator id="composition" section="composition" count="100" epsilon="0.1" item-delta="0" delta="1e-5"></dp-calculator>
      <dp-calculator id="split" section="split"></dp-calculator>
      <dp-calculator id="calibrate" section="calibrate"></dp-calculator>
      <dp-calculator id="convert" section="convert"></dp-calculator>
      <dp-calculator id="kmeans" section="kmeans"></dp-calculator>
      <dp-calculator id="dpsgd" section="dpsgd" steps="100"></dp-calculator>
      <dp-calculator id="databases" section="databases"></dp-calculator>
      <dp-calculator id="groupwise" section="groupwise"></dp-calculator>
      <dp-calculator id="no-groups" section="dpsgd" sampling="truncated_poisson" group-size="4" steps="100"></dp-calculator>
      <dp-calculator id="typo" request='{"op":"group","k":2,"mechanism":{"type":"laplace","scale":1,"sensitivty":2}}'></dp-calculator>`,
    });
    const answers = async (id) => {
      await page.waitForFunction((name) => document.getElementById(name)?.dataset.ready === 'true', id, {
        timeout: 100_000,
      });
      assert.equal(await page.locator(`#${id} .error`).count(), 0, `${id}: no error`);
      return page.locator(`#${id} .answer`).allTextContents();
    };
    // Vadhan 2017, Lemma 2.2, as on the page.
    assert.deepEqual(await answers('group'), ['ε ≤ 8, δ ≤ 0.0017343']);
    // Basic composition: 100 × 0.1 (Dwork & Roth 2014, Thm 3.16).
    assert.equal((await answers('composition'))[0], 'ε ≤ 10');
    assert.equal((await answers('split'))[0], 'ε = 0.01, δ = 1 × 10⁻⁷ per step');
    // √10 × 3.7306316348159418 = 11.79735… (Balle & Wang 2018, Thm 8, mpmath), rounded up.
    assert.equal((await answers('calibrate'))[0], 'σ = 11.798');
    assert.match((await answers('convert'))[0], /^ε ≤ [\d.]+ at δ = 1 × 10⁻⁶$/);
    // 10 releases at ε/(2T) = 0.1: basic composition spends ε = 1.
    assert.equal((await answers('kmeans'))[0], 'ε ≤ 1');
    assert.match((await answers('dpsgd'))[0], /^ε ≤ [\d.]+ at δ = 1 × 10⁻⁵$/);
    // The hospitals of Hartmann, Bindschaedler, West 2022: optimal composition of 365 and 730
    // releases (Kairouz, Oh, Viswanath 2015, Thm 3.3, mpmath: 4.13846, 6.23198), rounded up.
    assert.deepEqual(await answers('databases'), ['ε ≤ 4.1385 at δ = 1 × 10⁻⁵', 'ε ≤ 6.232 at δ = 1 × 10⁻⁵']);
    assert.match(
      (await answers('groupwise'))[0],
      /^proven ρ = 0\.005; estimated ρ ≈ \S.* \(numerical estimate, not a proof\)$/,
    );
    // A loop without an analysis of groups: the page's words, and the group size marked.
    await page.waitForFunction(() => document.getElementById('no-groups')?.dataset.ready === 'true', null, {
      timeout: 100_000,
    });
    const noGroups = await page.locator('#no-groups .error').first().textContent();
    assert.match(noGroups, /“truncated Poisson sampling”; “Poisson sampling”, .* \(or use k = 1\)/);
    assert.doesNotMatch(noGroups, /group_size|'[a-z ]+'/);
    assert.equal(await page.locator('#no-groups input[name="group-size"]').getAttribute('aria-invalid'), 'true');
    // A misspelt field in a request attribute is refused on its path, never answered without it
    // (ignoring it would give ε = 2 instead of the intended 4).
    await page.waitForFunction(() => document.getElementById('typo')?.dataset.ready === 'true');
    assert.equal(await page.locator('#typo .answer').count(), 0);
    assert.match(
      await page.locator('#typo .error').textContent(),
      /^mechanism\.sensitivty is not a field of a 'laplace' mechanism: did you mean 'sensitivity'\?/,
    );
    assert.deepEqual(problems, []);
  } finally {
    await context.close();
  }
});

for (const sandbox of ['', ' sandbox="allow-scripts"']) {
  test(
    `the page in an iframe on another origin${sandbox ? ' (sandboxed, opaque origin)' : ''} computes`,
    kTimeout,
    async () => {
      const context = await session.browser.newContext();
      try {
        const { page } = await hostPage(context, `/frame-${sandbox ? 'sandboxed' : 'plain'}`, {
          csp: `default-src 'self'; frame-src ${dpcalcOrigin()}`,
          html: `<iframe${sandbox} title="dpcalc" src="${session.url}?embed=1" width="900" height="700"></iframe>`,
        });
        const frame = page.frameLocator('iframe');
        // Defaults: k = 4, ε = 0.5: kε = 2 (Dwork & Roth 2014, Thm 2.2); the pure row is an example
        // nobody set, computed under the closed "Compare with".
        await frame
          .locator('[data-results="group"] tr[data-row="pure"] .bound')
          .filter({ hasText: 'ε ≤ 2' })
          .waitFor({ state: 'attached', timeout: 60_000 });
        assert.equal(await frame.locator('.load-error').count(), 0);
        // The first answers come from the page while the worker starts (web/client.js). A sandboxed
        // frame may not start workers: once that is known it keeps computing in the page and says so;
        // elsewhere the worker starts and there is nothing to say.
        const calculatorFrame = page.frames().find((candidate) => candidate.url().startsWith(session.url));
        await calculatorFrame.waitForFunction(
          () =>
            document.querySelector('.runtime-note') || performance.getEntriesByName('dpcalc:worker-ready').length > 0,
        );
        assert.equal(await frame.locator('.runtime-note').count(), sandbox ? 1 : 0);
      } finally {
        await context.close();
      }
    },
  );
}
