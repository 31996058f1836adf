/**
 * A trailing throttle for live state: at most `perSecond` calls of `emit`, always ending on
 * the latest value, so a burst of writer state changes never floods the transports. Owns one
 * timer; `dispose` drops a pending emission.
 */
export interface Throttled<T> {
  push(value: T): void;
  /** Emits the pending value now (used right before a final state). */
  flush(): void;
  dispose(): void;
}

export function throttle<T>(emit: (value: T) => void, perSecond: number): Throttled<T> {
  const intervalMs = 1000 / perSecond;
  let lastEmitAt = -Infinity;
  let pending: { value: T } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const fire = (): void => {
    timer = null;
    if (pending === null) return;
    const { value } = pending;
    pending = null;
    lastEmitAt = performance.now();
    emit(value);
  };
  return {
    push(value) {
      pending = { value };
      if (timer !== null) return;
      const wait = lastEmitAt + intervalMs - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    flush() {
      if (timer !== null) clearTimeout(timer);
      fire();
    },
    dispose() {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
