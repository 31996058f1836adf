/// <reference lib="dom" />
/**
 * What one scroll step of a virtualized list costs the page's main thread, without the frame
 * pacing: in one task, 240 times, the list scrolls 400 px, its scroll event is dispatched at
 * once (the virtualizer renders the rows it brings into view) and its layout is forced, each
 * step timed on its own. The median step leaves out the steps another process preempted, which
 * frame times and CPU totals on a loaded box do not; paint and compositing are not in it.
 * Run after a paced scroll of the same range, so the rows' pages are in the page's cache.
 */
import type { Page } from '@playwright/test';
import { percentile } from '../harness';

export interface ScrollWork {
  /** Median and lower quartile of one step (scroll, render, style and layout), ms. */
  readonly stepP50Ms: number;
  readonly stepP25Ms: number;
}

export async function measureScrollWork(page: Page, selector: string): Promise<ScrollWork> {
  const steps = await page.evaluate(async (target) => {
    const list = document.querySelector(target)!;
    list.scrollTop = 0;
    for (let frame = 0; frame < 10; frame += 1) await new Promise(requestAnimationFrame);
    const times: number[] = [];
    for (let step = 0; step < 240; step += 1) {
      const started = performance.now();
      list.scrollTop += 400;
      list.dispatchEvent(new Event('scroll'));
      void list.scrollHeight;
      times.push(performance.now() - started);
    }
    return times;
  }, selector);
  const round = (ms: number): number => Math.round(ms * 1000) / 1000;
  return { stepP50Ms: round(percentile(steps, 50)), stepP25Ms: round(percentile(steps, 25)) };
}
