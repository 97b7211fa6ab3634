// Cold loads of the page in headless Chromium: the time from navigation to the first result on the
// page, and the bytes transferred (compressed, headers included) by the whole load, over fresh browser
// contexts (empty cache, no service worker), and where that time goes: the median moment of each
// phase of the load (when the page's files arrived, and the performance marks "dpcalc:…" the page
// sets), so that a slower or busier machine shows which phase moved. The same loads can be made over
// a throttled network (Chromium's own "Fast 3G" profile, set through the DevTools protocol), and of a
// link to another section than the default one (a route such as '#/convert', as papers link to).
// Run alone with `node tests/bench/cold_load.mjs [runs] [folder …]` on built folders (default dist/),
// `node tests/bench/cold_load.mjs --network fast-3g [runs] [folder …]` or with `--route '#/convert'`
// (before the runs, with or without --network); `npm run bench` prints the tables for dist/.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { startServer } from '../../scripts/serve.mjs';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Network profiles for Network.emulateNetworkConditions, as Chromium's DevTools define them
 * (front_end/core/sdk/NetworkManager.ts, "Fast 3G", named "3G" in newer versions): 1.6 Mbit/s down
 * and 750 kbit/s up, each × 0.9, and 150 ms of latency × 3.75. Throughputs in bytes per second.
 */
export const networkProfiles = Object.freeze({
  'fast-3g': { latency: 562.5, downloadThroughput: (1.6e6 / 8) * 0.9, uploadThroughput: (750e3 / 8) * 0.9 },
});

// Records, in the page, the moment (ms after navigation start) the first result row is in the DOM,
// and the moment it is painted: the Element Timing API's renderTime for the first result, marked
// with an `elementtiming` attribute before the frame that draws it (what the page does between the
// two delays the number too). It then tells the bench through a binding (window.__dpcalcDrawn):
// polling the page from the bench (waitForFunction) would run Playwright's own script there in the
// middle of the load (about 100 ms of the page's thread on this machine) wherever the page yields.
function watchFirstResult() {
  const selector = '[data-results] .bound, [data-results] [data-ok="true"]';
  new PerformanceObserver((entries) => {
    const [entry] = entries.getEntries().filter(({ identifier }) => identifier === 'dpcalc-first-result');
    if (!entry || window.__dpcalcFirstResultDrawn !== undefined) return;
    window.__dpcalcFirstResultDrawn = entry.renderTime;
    window.__dpcalcDrawn();
  }).observe({ type: 'element', buffered: true });
  const observer = new MutationObserver(() => {
    const first = document.querySelector(selector);
    if (!first) return;
    window.__dpcalcFirstResult = performance.now();
    // Text is timed on the element that holds it: every element of the result is marked.
    for (const element of [first, ...first.querySelectorAll('*')])
      element.setAttribute('elementtiming', 'dpcalc-first-result');
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true, attributes: true });
}

// The moments (ms after navigation start) of the load's phases, read in the page.
function readPhases() {
  const [navigation] = performance.getEntriesByType('navigation');
  const phases = { 'HTML received': navigation.responseEnd, 'DOM parsed': navigation.domInteractive };
  for (const entry of performance.getEntriesByType('resource')) {
    const file = new URL(entry.name).pathname.slice(1);
    if (/^(boot|client|dpcalc|dpcalc-module|app\/main|vendor\/formulas)\.js$|^dpcalc(-first|-rest)?\.wasm$/.test(file))
      phases[`${file} received`] = entry.responseEnd;
  }
  for (const mark of performance.getEntriesByType('mark')) {
    if (mark.name.startsWith('dpcalc:') && !(mark.name in phases)) phases[mark.name] = mark.startTime;
  }
  phases['first result'] = window.__dpcalcFirstResult;
  phases['first result drawn'] = window.__dpcalcFirstResultDrawn;
  return phases;
}

async function coldLoad(browser, url, network) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  const responses = [];
  context.on('response', (response) => responses.push(response));
  const page = await context.newPage();
  if (network) {
    const devtools = await context.newCDPSession(page);
    await devtools.send('Network.enable');
    await devtools.send('Network.emulateNetworkConditions', { offline: false, ...networkProfiles[network] });
  }
  let drawn;
  const firstResultDrawn = new Promise((resolve, reject) => {
    drawn = resolve;
    setTimeout(() => reject(new Error('no result drawn within 60 s')), 60_000);
  });
  await page.exposeFunction('__dpcalcDrawn', () => drawn());
  await page.addInitScript(watchFirstResult);
  await page.goto(url);
  await firstResultDrawn;
  const milliseconds = await page.evaluate(() => window.__dpcalcFirstResult);
  // The bytes of the whole load (fonts, the second worker, Plot), not only of the first result: until
  // the section shown has answered (the others compute when they are opened), its fonts are in, and a
  // second passes without a response.
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('section.calculator:not([hidden]) [data-results]')].every(
        (region) => region.dataset.ready === 'true' && !region.hasAttribute('aria-busy'),
      ),
    null,
    { timeout: 120_000 },
  );
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  for (let seen = -1; seen !== responses.length;) {
    seen = responses.length;
    await page.waitForTimeout(1000);
  }
  const sizes = await Promise.all(
    responses.map((response) =>
      response
        .request()
        .sizes()
        .catch(() => null),
    ),
  );
  const bytes = sizes.reduce((sum, size) => sum + (size ? size.responseBodySize + size.responseHeadersSize : 0), 0);
  const phases = await page.evaluate(readPhases);
  await context.close();
  return { milliseconds, bytes, requests: responses.length, phases };
}

const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1];

/**
 * Loads the page of each build in `roots` `runs` times, each load in a fresh context, alternating
 * between the builds so that they share the machine's load alike, over the unthrottled local network
 * or over `network` (a name in networkProfiles); resolves to one summary per build (medians and the
 * raw samples).
 */
export async function measureColdLoads({
  roots = [path.join(repoRoot, 'dist')],
  runs = 7,
  network = null,
  route = '',
} = {}) {
  if (network && !(network in networkProfiles)) throw new Error(`unknown network profile ${network}`);
  const servers = await Promise.all(roots.map((root) => startServer({ root, port: 0 })));
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: chromiumArgs,
  });
  try {
    await coldLoad(browser, servers[0].url); // warms the OS file cache and Chromium itself, not the page's cache
    const samples = roots.map(() => []);
    for (let run = 0; run < runs; run++) {
      for (const [i, server] of servers.entries())
        samples[i].push(await coldLoad(browser, `${server.url}${route}`, network));
    }
    return samples.map((list, i) => ({
      root: roots[i],
      network,
      route,
      milliseconds: median(list.map((sample) => sample.milliseconds)),
      drawnMilliseconds: median(list.map((sample) => sample.phases['first result drawn'])),
      bytes: median(list.map((sample) => sample.bytes)),
      requests: median(list.map((sample) => sample.requests)),
      samples: list,
    }));
  } finally {
    await browser.close();
    await Promise.all(servers.map((server) => server.close()));
  }
}

/** The median moment of each phase seen in every sample, in time order. */
function phaseMedians(samples) {
  const names = Object.keys(samples[0].phases).filter((name) => samples.every((sample) => name in sample.phases));
  return names.map((name) => [name, median(samples.map((sample) => sample.phases[name]))]).sort((a, b) => a[1] - b[1]);
}

/** The Markdown table `npm run bench` prints (the 500 ms target is for the local network). */
export function coldLoadTable(summaries) {
  const runs = summaries[0].samples.length;
  const network =
    (summaries[0].network ? `, ${summaries[0].network} network` : '') +
    (summaries[0].route ? `, link ${summaries[0].route}` : '');
  const target = summaries[0].network ? 'none (reported)' : '500 ms';
  return [
    `| page, cold load (median of ${runs}${network}) | first result after navigation | first result drawn | transferred | requests | target |`,
    '|---|---:|---:|---:|---:|---:|',
    ...summaries.map(
      ({ root, milliseconds, drawnMilliseconds, bytes, requests }) =>
        `| ${path.relative(process.cwd(), root) || root} | ${milliseconds.toFixed(0)} ms | ${drawnMilliseconds.toFixed(0)} ms | ${(bytes / 1024).toFixed(1)} KB | ${requests} | ${target} |`,
    ),
    '',
    ...summaries.map(
      ({ root, samples }) =>
        `samples (ms), ${path.relative(process.cwd(), root) || root}: ` +
        samples.map((sample) => sample.milliseconds.toFixed(0)).join(', '),
    ),
    '',
    ...summaries.map(
      ({ root, samples }) =>
        `phases (median ms after navigation), ${path.relative(process.cwd(), root) || root}: ` +
        phaseMedians(samples)
          .map(([name, moment]) => `${name} ${moment.toFixed(0)}`)
          .join(' · '),
    ),
  ].join('\n');
}

// node tests/bench/cold_load.mjs [--network fast-3g] [--route '#/convert'] [runs] [build folder …]:
// several folders are compared, load by load.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values, positionals } = parseArgs({
    options: { network: { type: 'string' }, route: { type: 'string', default: '' } },
    allowPositionals: true,
  });
  const [runs = '7', ...folders] = positionals;
  const roots = folders.map((root) => path.resolve(root));
  const options = { runs: Number(runs), network: values.network ?? null, route: values.route };
  console.log(coldLoadTable(await measureColdLoads({ ...options, ...(roots.length ? { roots } : {}) })));
}
