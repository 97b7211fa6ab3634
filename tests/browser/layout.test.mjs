// Layout on phones and wide screens: no section makes the page scroll sideways at any width (every
// formula and table fits or scrolls inside its own box, reachable by keyboard), no dropdown cuts its
// options, no label repeats its symbol, charts are drawn at their width with fixed, accessible
// colours; and a screenshot of every section at 390 and 1280 px, light and dark, in test-results/.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { goToSection, openPage, resultsDir, sessionForFile, waitForAllSections } from './helpers.mjs';

// One page per width, shared by the tests below: a page load costs seconds, and a section reached by
// its link is laid out at the page's width as on a fresh load. Closed before the browser is.
const pages = new Map();
after(() => Promise.all([...pages.values()].map(({ context }) => context.close())));
const session = sessionForFile();

/** The shared page at `width` (light colours), opened on first use. */
async function pageAt(width) {
  if (!pages.has(width)) pages.set(width, await openPage(session, { viewport: { width, height: 900 } }));
  return pages.get(width);
}

const kTimeout = { timeout: 600_000 };
const kSections = [
  'group',
  'composition',
  'split',
  'calibrate',
  'convert',
  'kmeans',
  'dpsgd',
  'databases',
  'groupwise',
  'audit',
];
// Short numeric work where a section has some: the layout is what is tested here.
const kLinks = {
  dpsgd: '#/dpsgd?v=0.2.0&duration=steps&steps=100&kmax=2',
  groupwise: '#/groupwise?v=0.2.0&samples=10000',
};

/** Waits until the section shown has finished its numeric work too. */
const settled = (page) =>
  page.waitForFunction(
    () => !document.querySelector('section:not([hidden]) [data-numeric-status][data-state="running"]'),
    null,
    { timeout: 200_000 },
  );

/** Follows section `name`'s link (kLinks, or its plain route) and waits for its answer and numeric work. */
async function showSection(page, name) {
  await page.goto(`${session.url}${kLinks[name] ?? `#/${name}`}`);
  await page.waitForSelector(`section#${name}:not([hidden])`);
  await waitForAllSections(page);
  await settled(page);
}

/**
 * What sticks out of the section shown: elements wider than it that no box of theirs scrolls, and
 * boxes that scroll sideways but cannot take the keyboard focus.
 */
const overflowOf = (page) =>
  page.evaluate(() => {
    const section = document.querySelector('section.calculator:not([hidden])');
    const right = section.getBoundingClientRect().right;
    const scroller = (element) => {
      for (let box = element.parentElement; box && box !== section; box = box.parentElement) {
        if (['auto', 'scroll', 'hidden'].includes(getComputedStyle(box).overflowX)) return box;
      }
      return null;
    };
    const sticking = [...section.querySelectorAll('.katex, table, figure, pre, .summary, select, input')]
      .filter((element) => element.getBoundingClientRect().right > right + 1 && !scroller(element))
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    const unreachable = [...section.querySelectorAll('*')]
      .filter((element) => {
        const style = getComputedStyle(element);
        return (
          ['auto', 'scroll'].includes(style.overflowX) &&
          element.scrollWidth > element.clientWidth + 1 &&
          element.tabIndex < 0 &&
          !element.closest('details:not([open])')
        );
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}`);
    return { pageWidth: document.documentElement.scrollWidth, sticking, unreachable };
  });

test('no section scrolls the page sideways: formulas and tables fit or scroll in their own box', kTimeout, async () => {
  for (const width of [390, 650, 1280]) {
    const { page, problems } = await pageAt(width);
    for (const name of kSections) {
      await showSection(page, name);
      // Every box open for the check, and closed again after it (the screenshots show them closed).
      await page.$$eval('section:not([hidden]) details:not([open])', (closed) =>
        closed.forEach((details) => {
          details.open = true;
          details.dataset.openedForLayout = '';
        }),
      );
      await page.waitForFunction(() => !document.querySelector('[data-results][aria-busy]'));
      const { pageWidth, sticking, unreachable } = await overflowOf(page);
      assert.ok(pageWidth <= width, `${name} at ${width} px: the page is ${pageWidth} px wide`);
      assert.deepEqual(sticking, [], `${name} at ${width} px: inside the section`);
      assert.deepEqual(unreachable, [], `${name} at ${width} px: what scrolls sideways takes the keyboard focus`);
      assert.deepEqual(problems, [], `${name} at ${width} px`);
      await page.$$eval('[data-opened-for-layout]', (opened) =>
        opened.forEach((details) => {
          details.open = false;
          delete details.dataset.openedForLayout;
        }),
      );
    }
  }
});

test('no dropdown cuts an option, and no label repeats its symbol', kTimeout, async () => {
  for (const width of [1280, 390]) {
    const { page } = await pageAt(width);
    for (const name of kSections) {
      await goToSection(page, name);
      const cut = await page.evaluate(() => {
        const measure = document.createElement('canvas').getContext('2d');
        const found = [];
        for (const select of document.querySelectorAll('section.calculator:not([hidden]) select')) {
          // A select that is not shown (a choice of a fieldset only old links fill) cuts nothing.
          if (select.getClientRects().length === 0) continue;
          const style = getComputedStyle(select);
          measure.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
          // The room left for the text: the box less its padding and the arrow (about 20 px).
          const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
          for (const option of select.options)
            if (measure.measureText(option.text).width > room) found.push(`${select.id}: ${option.text}`);
        }
        return found;
      });
      assert.deepEqual(cut, [], `${name} at ${width} px`);
      const repeated = await page.$$eval(`#${name} form label`, (labels) =>
        labels
          .filter((label) => {
            const symbol = label.querySelector('var')?.textContent;
            const words = [...label.childNodes]
              .filter((node) => node.nodeType === Node.TEXT_NODE)
              .map((node) => node.textContent);
            // The symbol as a word of the label's text ("Target ε ε"), not a letter of a word ("Clip norm C").
            return symbol && new RegExp(`(^|[^\\p{L}])${symbol[0]}([^\\p{L}]|$)`, 'u').test(words.join(''));
          })
          .map((label) => label.textContent),
      );
      assert.deepEqual(repeated, [], `${name}: labels name their symbol once`);
    }
  }
});

test('screenshots of every section at 390 and 1280 px, light and dark', kTimeout, async () => {
  mkdirSync(resultsDir, { recursive: true });
  for (const width of [390, 1280]) {
    const { page, problems } = await pageAt(width);
    // The page's colours follow prefers-color-scheme in CSS alone: switching it restyles the page
    // as a page opened in that scheme is styled.
    for (const colorScheme of ['light', 'dark']) {
      await page.emulateMedia({ colorScheme });
      for (const name of kSections) {
        await showSection(page, name);
        const section = page.locator(`section#${name}`);
        await section.screenshot({ path: path.join(resultsDir, `${name}-${width}-${colorScheme}.png`) });
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    assert.deepEqual(
      problems.filter((problem) => !/net::ERR_ABORTED$/.test(problem)),
      [],
      `${width} px`,
    );
  }
});

/** Relative luminance and contrast (WCAG 2.1). */
function contrast(a, b) {
  const luminance = (hex) => {
    const [r, g, bl] = [1, 3, 5]
      .map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
      .map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4));
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (high + 0.05) / (low + 0.05);
}

/** Per chart: its drawn width and its container's, the smallest text size, and each series' look. */
const chartFacts = (page, section) =>
  page.$$eval(`[data-plots="${section}"] figure.chart`, (figures) =>
    figures.map((figure) => {
      const svg = figure.querySelector('svg.dp-plot');
      const texts = [...svg.querySelectorAll('text')];
      const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('width'));
      return {
        drawn: Number(svg.getAttribute('width')),
        container: Math.floor(figure.querySelector('.chart-body').clientWidth),
        smallestText: Math.min(...texts.map((text) => parseFloat(getComputedStyle(text).fontSize) * scale)),
        series: [...figure.querySelectorAll('.legend li')].map((item) => {
          const line = item.querySelector('line');
          return {
            name: item.textContent,
            color: line.getAttribute('stroke'),
            dash: line.getAttribute('stroke-dasharray'),
            marker: item.querySelector('svg > :not(line)')?.outerHTML.replace(/fill="[^"]*"/, '') ?? null,
          };
        }),
      };
    }),
  );

// At 390 px the result tables once overflowed (numbers cut), formulas needed unreachable sideways
// scrolling, chart text was 4-6 px; at 1280 px charts were drawn 960 px wide and shrunk; series
// colours changed between states, several below 3:1, and lines differed only by colour.
test(
  'phones and wide screens: nothing cut, charts drawn at their width, fixed accessible colours',
  { timeout: 120_000 },
  async () => {
    const { page, context, problems } = await openPage(session, { viewport: { width: 390, height: 800 } });
    try {
      for (const section of ['group', 'composition', 'split', 'convert', 'kmeans']) {
        if (section !== 'group') await goToSection(page, section);
        assert.equal(
          await page.evaluate(() => document.documentElement.scrollWidth),
          390,
          `${section}: no sideways scrolling`,
        );
        const cut = await page.$$eval(
          `[data-results="${section}"] .bound .part, [data-results="${section}"] td`,
          (elements) =>
            elements
              .filter(
                (element) =>
                  element.getBoundingClientRect().right > 390 || element.scrollWidth > element.clientWidth + 1,
              )
              .map((element) => element.textContent.slice(0, 40)),
        );
        assert.deepEqual(cut, [], `${section}: every number inside its box`);
        const unreachable = await page.$$eval(`#${section} *`, (elements) =>
          elements
            .filter((element) => {
              const style = getComputedStyle(element);
              return (
                ['auto', 'scroll'].includes(style.overflowX) &&
                element.scrollWidth > element.clientWidth + 1 &&
                element.tabIndex < 0 &&
                !element.closest('details:not([open])')
              );
            })
            .map((element) => element.className),
        );
        assert.deepEqual(unreachable, [], `${section}: whatever scrolls sideways takes the keyboard focus`);
      }
      await goToSection(page, 'group');
      for (const chart of await chartFacts(page, 'group')) {
        assert.ok(Math.abs(chart.drawn - chart.container) <= 1, `drawn ${chart.drawn} px in ${chart.container} px`);
        assert.ok(chart.smallestText >= 11, `chart text ${chart.smallestText} px`);
      }

      await page.setViewportSize({ width: 1280, height: 900 });
      await goToSection(page, 'composition');
      await page.waitForSelector('[data-numeric-status="composition-pld"][data-state="done"]');
      const guaranteeCharts = await chartFacts(page, 'composition');
      for (const chart of guaranteeCharts) {
        assert.ok(Math.abs(chart.drawn - chart.container) <= 1, `drawn ${chart.drawn} px in ${chart.container} px`);
        assert.ok(chart.smallestText >= 11, `chart text ${chart.smallestText} px`);
        const looks = chart.series.map((series) => `${series.dash}|${series.marker}`);
        assert.equal(new Set(looks).size, looks.length, `every series has its own dash or marker: ${looks}`);
        for (const series of chart.series) {
          for (const background of ['#ffffff', '#1b1f24']) {
            assert.ok(contrast(series.color, background) >= 3, `${series.name} ${series.color} on ${background}`);
          }
        }
      }
      // Another state (Laplace items): each method keeps its colour.
      await page.selectOption('#composition-release-1-type', 'laplace');
      await page.waitForSelector('[data-numeric-status="composition-pld"][data-state="done"]');
      await waitForAllSections(page);
      const colourOf = (charts) => Object.fromEntries(charts[0].series.map((series) => [series.name, series.color]));
      const before = colourOf(guaranteeCharts);
      const afterChange = colourOf(await chartFacts(page, 'composition'));
      for (const [name, color] of Object.entries(afterChange))
        if (before[name]) assert.equal(color, before[name], name);
      assert.ok(
        Object.keys(afterChange).filter((name) => before[name]).length >= 4,
        'the methods of both states are compared',
      );
      assert.deepEqual(problems, []);
    } finally {
      await context.close();
    }
  },
);
