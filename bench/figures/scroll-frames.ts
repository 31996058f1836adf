/// <reference lib="dom" />
/**
 * How the console figures measure a scroll (browser mode, Chromium): 240 frames scrolling a
 * list 400 px a frame, each frame's time taken between the timestamps requestAnimationFrame
 * passes its callbacks, in whole refresh intervals (the display's, measured from idle frames
 * first). Shared by the bucket browser's figure and the big-prefix tables'. Beside the frames,
 * the renderer's CPU per frame (Chromium's own counters, read over CDP before and after): on a
 * loaded box frames miss for want of a core, while CPU time says what a frame costs.
 */
import type { CDPSession, Page } from '@playwright/test';
import { percentile } from '../harness';

/** requestAnimationFrame's timestamps are coarsened to 0.1 ms: two of them, at most this apart. */
const CLOCK_JITTER_MS = 0.2;

export interface ScrollFrames {
  readonly frames: number[];
  /** When each frame's callback's continuation ran: the main thread's scheduling jitter too. */
  readonly dispatch: number[];
  readonly refreshMs: number;
  readonly scrolledPx: number;
  /** CPU time of the page's main thread, and of its whole renderer process, per frame (ms). */
  readonly mainThreadCpuMs: number;
  readonly rendererCpuMs: number;
}

/** Chromium's CPU counters of the page's renderer, in seconds. */
async function cpuSeconds(
  cdp: CDPSession,
): Promise<{ readonly thread: number; readonly process: number }> {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const value = (name: string): number =>
    metrics.find((metric) => metric.name === name)?.value ?? 0;
  return { thread: value('ThreadTime'), process: value('ProcessTime') };
}

/** Scrolls the element `selector` names and returns its frame times. */
export async function measureScroll(page: Page, selector: string): Promise<ScrollFrames> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const cpuBefore = await cpuSeconds(cdp);
  const { stamps, dispatch, refreshMs, scrolledPx } = await page.evaluate(async (target) => {
    const list = document.querySelector(target)!;
    // The display's refresh interval: the mean of idle frames before the scroll, leaving out
    // any that took more than one interval (the median's).
    const idle: number[] = [];
    for (
      let frame = 0, last = await new Promise<number>(requestAnimationFrame);
      frame < 30;
      frame += 1
    ) {
      const stamp = await new Promise<number>(requestAnimationFrame);
      idle.push(stamp - last);
      last = stamp;
    }
    const median = [...idle].sort((a, b) => a - b)[idle.length >> 1]!;
    const onTime = idle.filter((interval) => Math.abs(interval - median) < median / 4);
    const stamps: number[] = [await new Promise<number>(requestAnimationFrame)];
    const dispatch: number[] = [];
    let last = performance.now();
    for (let frame = 0; frame < 240; frame += 1) {
      list.scrollTop += 400;
      stamps.push(await new Promise<number>(requestAnimationFrame));
      const now = performance.now();
      dispatch.push(now - last);
      last = now;
    }
    const refreshMs = onTime.reduce((sum, interval) => sum + interval, 0) / onTime.length;
    return { stamps, dispatch, refreshMs, scrolledPx: list.scrollTop };
  }, selector);
  const cpuAfter = await cpuSeconds(cdp);
  await cdp.detach();
  // Rounded up, not to the nearest: only the two stamps' coarsening (0.1 ms each) is forgiven,
  // so a frame any longer than that counts as missed.
  const frames = stamps
    .slice(1)
    .map(
      (stamp, at) =>
        Math.max(1, Math.ceil((stamp - stamps[at]! - CLOCK_JITTER_MS) / refreshMs)) * refreshMs,
    );
  const perFrameMs = (seconds: number): number => (seconds * 1000) / frames.length;
  return {
    frames,
    dispatch,
    refreshMs,
    scrolledPx,
    mainThreadCpuMs: perFrameMs(cpuAfter.thread - cpuBefore.thread),
    rendererCpuMs: perFrameMs(cpuAfter.process - cpuBefore.process),
  };
}

/** The figure's detail of a scroll. */
export function scrollDetail(scroll: ScrollFrames): Record<string, number> {
  return {
    frames: scroll.frames.length,
    p50: percentile(scroll.frames, 50),
    longFrames: scroll.frames.filter((frame) => frame > scroll.refreshMs).length,
    refreshMs: scroll.refreshMs,
    scrolledPx: scroll.scrolledPx,
    dispatchP50: percentile(scroll.dispatch, 50),
    dispatchP95: percentile(scroll.dispatch, 95),
    mainThreadCpuMs: Math.round(scroll.mainThreadCpuMs * 100) / 100,
    rendererCpuMs: Math.round(scroll.rendererCpuMs * 100) / 100,
  };
}
