/// <reference lib="dom" />
/**
 * Console figure: a prefix of 100,000 objects in the bucket browser (browser mode, Chromium):
 * time to the first rows, and the p95 frame time while scrolling the virtualized list.
 */
import { chromium } from '@playwright/test';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBenchServer } from './bench-server';
import { chromiumLaunchOptions } from '../../tests/support/chromium';
import { judged, percentile, type FigureResult } from '../harness';

const OBJECTS = 100_000;

export async function consoleListing(): Promise<FigureResult[]> {
  const rendererDir = resolve(__dirname, '..', '..', 'out', 'renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('run `npm run build` before the console figure');
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-console-'));
  const folder = join(dataDir, 'cairn-data', 'big');
  mkdirSync(folder, { recursive: true });
  // Setup only: plain writes, not the fsync'd create path being measured elsewhere.
  for (let index = 0; index < OBJECTS; index += 1)
    writeFileSync(join(folder, `${String(index).padStart(8, '0')}.wal`), 'x');
  const { server } = await startBenchServer(dataDir, rendererDir);
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
    const frames = await page.evaluate(async () => {
      const list = document.querySelector('[aria-label="Objects"]')!;
      const deltas: number[] = [];
      let last = performance.now();
      for (let frame = 0; frame < 240; frame += 1) {
        list.scrollTop += 400;
        await new Promise(requestAnimationFrame);
        const now = performance.now();
        deltas.push(now - last);
        last = now;
      }
      return deltas;
    });
    const p95 = percentile(frames, 95);
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
        detail: { frames: frames.length, p50: percentile(frames, 50) },
      },
    ];
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
