// Cold loads of the page in headless Chromium: the time from navigation to the first result on the
// page, and the bytes transferred (compressed, headers included) by the whole load, over fresh browser
// contexts (empty cache, no service worker). Run alone with `node tests/bench/cold_load.mjs [runs]`
// on a built dist/; `npm run bench` prints the same table.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const chromiumArgs = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Records, in the page, the moment (ms after navigation start) the first result row is in the DOM.
function watchFirstResult() {
  const selector = '[data-results] .bound, [data-results] [data-ok="true"]';
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    window.__dpcalcFirstResult = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

async function coldLoad(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const responses = [];
  context.on('response', (response) => responses.push(response));
  const page = await context.newPage();
  await page.addInitScript(watchFirstResult);
  await page.goto(url);
  const milliseconds = await page.waitForFunction(() => window.__dpcalcFirstResult, null, { timeout: 60_000 })
    .then((handle) => handle.jsonValue());
  // The bytes of the whole load (fonts, the second worker), not only of the first result: until every
  // section has answered, its fonts are in, and a second passes without a response.
  await page.waitForFunction(() => [...document.querySelectorAll('[data-results]')]
    .every((region) => region.dataset.ready === 'true' && !region.hasAttribute('aria-busy')), null, { timeout: 120_000 });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  for (let seen = -1; seen !== responses.length;) {
    seen = responses.length;
    await page.waitForTimeout(1000);
  }
  const sizes = await Promise.all(responses.map((response) => response.request().sizes().catch(() => null)));
  const bytes = sizes.reduce((sum, size) => sum + (size ? size.responseBodySize + size.responseHeadersSize : 0), 0);
  await context.close();
  return { milliseconds, bytes, requests: responses.length };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/** Loads the page `runs` times, each in a fresh context; resolves to medians and the raw samples. */
export async function measureColdLoads({ root = path.join(repoRoot, 'dist'), runs = 7 } = {}) {
  const server = await startServer({ root, port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: chromiumArgs });
  try {
    await coldLoad(browser, server.url); // warms the OS file cache and Chromium itself, not the page's cache
    const samples = [];
    for (let run = 0; run < runs; run++) samples.push(await coldLoad(browser, server.url));
    return {
      milliseconds: median(samples.map((sample) => sample.milliseconds)),
      bytes: median(samples.map((sample) => sample.bytes)),
      requests: median(samples.map((sample) => sample.requests)),
      samples,
    };
  } finally {
    await browser.close();
    await server.close();
  }
}

/** The Markdown table `npm run bench` prints. */
export function coldLoadTable({ milliseconds, bytes, requests, samples }) {
  return ['| page, cold load (median of ' + samples.length + ') | first result after navigation | transferred | requests | target |',
    '|---|---:|---:|---:|---:|',
    `| headless Chromium, 127.0.0.1 | ${milliseconds.toFixed(0)} ms | ${(bytes / 1024).toFixed(1)} KB | ${requests} | 500 ms |`,
    `\nsamples (ms): ${samples.map((sample) => sample.milliseconds.toFixed(0)).join(', ')}`].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[3] ? path.resolve(process.argv[3]) : undefined;
  console.log(coldLoadTable(await measureColdLoads({ runs: Number(process.argv[2] ?? 7), root })));
}
