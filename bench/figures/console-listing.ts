/**
 * Console figure: a prefix of 100,000 objects in the bucket browser (browser mode, Chromium):
 * time to the first rows, and the p95 frame time while scrolling the virtualized list. The
 * detail also gives what the local store's listing of that folder costs: its first page (the
 * folder read and sorted), a continuation page and a one-key listing, in wall and main-thread
 * time.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// Aliased: the page's own `performance` is used inside `page.evaluate`.
import { performance as nodePerformance } from 'node:perf_hooks';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { startBenchServer } from './bench-server';
import { projectRoot } from '../../src/main/project-root';
import { chromiumLaunchOptions } from '../../tests/support/chromium';
import { judged, percentile, type FigureResult } from '../harness';
import { measureScroll, scrollDetail } from './scroll-frames';

const OBJECTS = 100_000;

export async function consoleListing(): Promise<FigureResult[]> {
  const rendererDir = join(projectRoot(), 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('run `npm run build` before the console figure');
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-console-'));
  const folder = join(dataDir, 'cairn-data', 'big');
  mkdirSync(folder, { recursive: true });
  // Setup only: plain writes, not the fsync'd create path being measured elsewhere.
  for (let index = 0; index < OBJECTS; index += 1)
    writeFileSync(join(folder, `${String(index).padStart(8, '0')}.wal`), 'x');
  const { server } = await startBenchServer(dataDir, rendererDir);
  // Loaded here, not at the top: Playwright adds ~40 MB to the heap, and every other figure
  // runs in this process, where each full collection would mark it too.
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch(chromiumLaunchOptions);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(server.url);
    await page
      .getByRole('navigation', { name: 'Views' })
      .getByRole('button', { name: 'Bucket browser' })
      .click();
    await page.getByRole('textbox', { name: 'Prefix' }).fill('big/');
    const started = Date.now();
    await page.getByRole('button', { name: 'Go' }).click();
    await page.getByRole('button', { name: '00000000.wal' }).waitFor();
    const firstRowsSeconds = (Date.now() - started) / 1000;
    const scroll = await measureScroll(page, '[aria-label="Objects"]');
    const frames = scroll.frames;
    const p95 = percentile(frames, 95);
    const listing = await listingCosts(join(dataDir, 'cairn-data'));
    return [
      {
        figure: 'console: 100,000-object prefix, first rows',
        backend: 'local',
        value: firstRowsSeconds,
        unit: 's',
        ...judged(firstRowsSeconds, '<', 1),
        detail: { objects: OBJECTS },
      },
      {
        figure: 'console: scroll frame time p95',
        backend: 'local',
        value: p95,
        unit: 'ms',
        ...judged(p95, '<=', 16.7),
        // scrolledPx: 96,000 unless the scroll found the end of the rows loaded (a page not there yet).
        detail: { ...scrollDetail(scroll), ...listing },
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const PAGES = 6;

/**
 * A fresh local store over the figure's folder: its first page, then the median continuation
 * page and one-key listing (ms of wall, and of this process's main thread for the pages).
 */
async function listingCosts(root: string): Promise<Record<string, number>> {
  const io = new LocalObjectIo(root);
  const timed = async <T>(list: () => Promise<T>): Promise<[T, number, number]> => {
    const busy = nodePerformance.eventLoopUtilization();
    const started = nodePerformance.now();
    const result = await list();
    const wall = nodePerformance.now() - started;
    return [result, wall, nodePerformance.eventLoopUtilization(busy).active];
  };
  const [first, firstPageMs] = await timed(() => io.listPage('big/', { delimiter: '/' }));
  const wall: number[] = [];
  const mainThread: number[] = [];
  for (let page = 0, continuation = first.continuation; page < PAGES; page += 1) {
    const [next, ms, busyMs] = await timed(() => io.listPage('big/', { continuation }));
    continuation = next.continuation;
    wall.push(ms);
    mainThread.push(busyMs);
  }
  const oneKey: number[] = [];
  for (let probe = 0; probe < PAGES; probe += 1) {
    const startAfter = `big/${String(probe * 10_000).padStart(8, '0')}.wal`;
    oneKey.push((await timed(() => io.listPage('big/', { startAfter, pageSize: 1 })))[1]);
  }
  return {
    listingFirstPageMs: Math.round(firstPageMs),
    listingPageMs: Math.round(percentile(wall, 50)),
    listingPageMainThreadMs: Math.round(percentile(mainThread, 50)),
    listingOneKeyMs: Number(percentile(oneKey, 50).toFixed(2)),
  };
}
