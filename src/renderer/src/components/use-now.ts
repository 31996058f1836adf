/**
 * The current time, re-read every `everyMs` so relative times ("4 s ago") stay true. One clock
 * per interval for the whole page: a virtualized list mounts and drops rows with a relative
 * time on every scroll frame, and a timer per row would wake React once per row each second.
 */
import { useCallback, useSyncExternalStore } from 'react';

interface Clock {
  now: number;
  readonly listeners: Set<() => void>;
  timer: number | null;
}

const clocks = new Map<number, Clock>();

function clockOf(everyMs: number): Clock {
  let clock = clocks.get(everyMs);
  if (clock === undefined) {
    clock = { now: Date.now(), listeners: new Set(), timer: null };
    clocks.set(everyMs, clock);
  }
  return clock;
}

function subscribe(everyMs: number, listener: () => void): () => void {
  const clock = clockOf(everyMs);
  clock.listeners.add(listener);
  if (clock.timer === null) {
    clock.now = Date.now();
    clock.timer = window.setInterval(() => {
      clock.now = Date.now();
      for (const notify of clock.listeners) notify();
    }, everyMs);
  }
  return () => {
    clock.listeners.delete(listener);
    if (clock.listeners.size === 0 && clock.timer !== null) {
      window.clearInterval(clock.timer);
      clock.timer = null;
    }
  };
}

/** The clock's time; while no timer runs, refreshed once it is an interval old. */
function snapshot(everyMs: number): number {
  const clock = clockOf(everyMs);
  if (clock.timer === null && Date.now() - clock.now >= everyMs) clock.now = Date.now();
  return clock.now;
}

/** `paused`: the clock's ticks do not render the caller (it reads the time when it renders). */
export function useNow(everyMs = 1_000, paused = false): number {
  const subscribeToClock = useCallback(
    (listener: () => void) => (paused ? () => undefined : subscribe(everyMs, listener)),
    [everyMs, paused],
  );
  return useSyncExternalStore(subscribeToClock, () => snapshot(everyMs));
}
