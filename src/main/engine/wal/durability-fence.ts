/**
 * The durability fence (control.md, protocol point 3): one round is an `isCurrent` read of
 * the writer's own latest register version, retried on failure until the round's deadline.
 * The caller starts a round only after every object it covers is durable, and runs rounds
 * one at a time; this module only performs the read and says what it found. It never
 * acknowledges anything and never touches objects.
 */
import { FencedError } from './errors';
import type { WalRegister } from './session';

export interface FenceOptions {
  /** A round whose reads keep failing gives up this long after it started. */
  readonly deadlineMs: number;
  /** Pause between two failed reads of one round. */
  readonly retryDelayMs: number;
}

export type FenceResult =
  | { readonly kind: 'current'; readonly reads: number }
  | { readonly kind: 'fenced'; readonly error: FencedError }
  | { readonly kind: 'deadline'; readonly error: unknown; readonly reads: number };

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * A register that says "not current" names no epoch; a no-op CAS from our own version does:
 * it fails with `Fenced` naming the writer that moved it. Should it pass, our version was
 * current when it started, which is as strong as a passed read.
 */
async function fencedErrorOf(register: WalRegister): Promise<FenceResult> {
  try {
    await register.update((control) => control);
    return { kind: 'current', reads: 1 };
  } catch (error) {
    if (error instanceof FencedError) return { kind: 'fenced', error };
    throw error;
  }
}

/** One fence round. `observe` receives the duration of each read, in seconds. */
export async function runFenceRound(
  register: WalRegister,
  options: FenceOptions,
  observe: (seconds: number) => void = () => {},
): Promise<FenceResult> {
  const deadline = Date.now() + options.deadlineMs;
  let reads = 0;
  for (;;) {
    const started = performance.now();
    reads += 1;
    try {
      const current = await register.isCurrent();
      observe((performance.now() - started) / 1000);
      return current ? { kind: 'current', reads } : await fencedErrorOf(register);
    } catch (error) {
      observe((performance.now() - started) / 1000);
      if (error instanceof FencedError) return { kind: 'fenced', error };
      if (Date.now() + options.retryDelayMs >= deadline) return { kind: 'deadline', error, reads };
      await sleep(options.retryDelayMs);
    }
  }
}
