/**
 * A/B of the big-console scroll between renderer builds, on one box at one load: one data
 * directory and one set of services (the 100,000-object prefix opened once), a web server per
 * build, the builds' scrolls alternated round by round (A B, B A, ...). What a change to a
 * long table costs a frame, measured where the figure measures it; the frames depend on the
 * box's load, the renderer's CPU per frame much less.
 *
 *   node bin/run-ts.mjs bench/scroll-ab.ts DIR_A,DIR_B[,...] [rounds] [regions,batches] [objects]
 *
 * DIR_A, DIR_B: `out/renderer` of each build, copied aside; a build is named by its folder.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Browser } from '@playwright/test';
import { chromiumLaunchOptions } from '../tests/support/chromium';
import { startWebServer } from '../src/main/web/web-server';
import { createRouter } from '../src/main/api/create-router';
import { startBenchServer } from './figures/bench-server';
import { BIG_PREFIX, writeBigPrefixFiles } from './figures/big-prefix-data';
import { measureScroll, scrollDetail } from './figures/scroll-frames';
import { measureScrollWork } from './figures/scroll-work';
import { percentile } from './harness';
import { mainThreadSelfTime, profileSelfTime } from './trace-self-time';

const FORMAT = 'greptimedb-v1';
const OPEN_TIMEOUT_MS = 600_000;

/**
 * In the page: counts the DOM changes under the element `selector` names on
 * `window.mutations`. A string: the bench's TypeScript loader would name inner functions with
 * a helper the page does not have.
 */
function countMutations(selector: string): string {
  return `(() => {
    const counts = { rowsAdded: 0, rowsRemoved: 0, elementsAdded: 0, textsChanged: 0 };
    window.mutations = counts;
    new MutationObserver((records) => {
      for (const record of records) {
        if (record.type === 'characterData') counts.textsChanged += 1;
        for (const node of record.addedNodes) {
          if (node.nodeName === 'TR') counts.rowsAdded += 1;
          if (node instanceof Element)
            counts.elementsAdded += 1 + node.getElementsByTagName('*').length;
        }
        for (const node of record.removedNodes) if (node.nodeName === 'TR') counts.rowsRemoved += 1;
      }
    }).observe(document.querySelector(${JSON.stringify(selector)}), {
      subtree: true,
      childList: true,
      characterData: true,
    });
  })()`;
}

type View = 'regions' | 'batches';

async function scrollOnce(
  browser: Browser,
  url: string,
  view: View,
): Promise<Record<string, number>> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  try {
    const prefix = BIG_PREFIX[FORMAT];
    const label = view === 'regions' ? `Regions of ${prefix}` : `Objects of ${prefix}`;
    await page.goto(`${url}#/${view}?prefix=${encodeURIComponent(prefix)}`);
    const grid = page.getByRole('table', { name: label });
    await grid
      .locator('tbody tr:not(.paged-spacer):not(.paged-row-pending)')
      .first()
      .waitFor({ timeout: OPEN_TIMEOUT_MS });
    await page
      .getByRole('status', { name: 'Open progress' })
      .waitFor({ state: 'detached', timeout: OPEN_TIMEOUT_MS });
    const selector = `div.paged-table-scroller:has(table[aria-label="${label}"])`;
    // SCROLL_AB_TRACE=1: a trace of the scroll, the main thread's self time by event (ms a
    // frame) beside the figures (the tracing itself costs frames: compare traced with traced).
    const traced = process.env.SCROLL_AB_TRACE === '1';
    if (traced)
      await browser.startTracing(page, {
        categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'],
      });
    // SCROLL_AB_PROFILE=1: a CPU profile of the scroll, the functions' self time printed.
    const profiled = process.env.SCROLL_AB_PROFILE === '1';
    const cdp = profiled ? await page.context().newCDPSession(page) : null;
    await cdp?.send('Profiler.enable');
    await cdp?.send('Profiler.start');
    // SCROLL_AB_MUTATIONS=1: the table's DOM changes over the scroll, counted (rows and
    // elements added and removed, texts changed), a count the box's load does not move.
    const counted = process.env.SCROLL_AB_MUTATIONS === '1';
    if (counted) await page.evaluate(countMutations(selector));
    const scroll = await measureScroll(page, selector);
    const mutations: Record<string, number> = counted
      ? await page.evaluate(
          () => (window as unknown as { mutations: Record<string, number> }).mutations,
        )
      : {};
    if (cdp !== null) {
      const { profile } = await cdp.send('Profiler.stop');
      if (process.env.SCROLL_AB_PROFILE_OUT !== undefined)
        writeFileSync(process.env.SCROLL_AB_PROFILE_OUT, JSON.stringify(profile));
      for (const [name, ms] of profileSelfTime(profile).slice(0, 40))
        console.log(`  ${(ms / scroll.frames.length).toFixed(3)} ms/frame  ${name}`);
      await cdp.detach();
    }
    const where: Record<string, number> = {};
    const trace = traced ? await browser.stopTracing() : null;
    if (trace !== null && process.env.SCROLL_AB_TRACE_OUT !== undefined)
      writeFileSync(process.env.SCROLL_AB_TRACE_OUT, trace);
    if (trace !== null)
      for (const [name, ms] of mainThreadSelfTime(trace).slice(0, 12))
        where[`self:${name}`] = Math.round((ms / scroll.frames.length) * 100) / 100;
    const work = await measureScrollWork(page, selector);
    return {
      p95: percentile(scroll.frames, 95),
      ...work,
      ...scrollDetail(scroll),
      ...mutations,
      ...where,
    };
  } finally {
    await page.close();
  }
}

async function main(): Promise<void> {
  const [dirList = '', roundsText = '4', viewText = 'regions', objectsText = '100000'] =
    process.argv.slice(2);
  const dirs = dirList.split(',').filter((dir) => dir !== '');
  if (dirs.length < 2)
    throw new Error(
      'usage: scroll-ab.ts DIR_A,DIR_B[,...] [rounds] [regions|batches|regions,batches] [objects]',
    );
  const views = viewText
    .split(',')
    .map((view): View => (view === 'batches' ? 'batches' : 'regions'));
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-scroll-ab-'));
  writeBigPrefixFiles(join(dataDir, 'cairn-data'), FORMAT, Number(objectsText), 'own');
  const { server, services } = await startBenchServer(dataDir, dirs[0]!);
  const others = await Promise.all(
    dirs.slice(1).map((rendererDir) =>
      startWebServer({
        router: createRouter(services),
        events: services.events,
        rendererDir,
        port: 0,
      }),
    ),
  );
  const builds = dirs.map((dir, at) => ({
    name: basename(dir),
    url: at === 0 ? server.url : others[at - 1]!.url,
  }));
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    // A first look opens the prefix (minutes), so no round measures the open.
    await scrollOnce(browser, builds[0]!.url, views[0]!);
    for (let round = 0; round < Number(roundsText); round++) {
      // Each round starts one build later (A B C, B C A, ...): no build always goes first.
      const order = builds.map((_, at) => builds[(at + round) % builds.length]!);
      for (const view of views)
        for (const build of order) {
          const detail = await scrollOnce(browser, build.url, view);
          const load = loadavg()[0]!.toFixed(1);
          console.log(JSON.stringify({ round, build: build.name, view, load, ...detail }));
        }
    }
  } finally {
    await browser.close();
    for (const other of others) await other.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
