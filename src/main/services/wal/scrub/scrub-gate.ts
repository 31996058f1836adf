/**
 * The pause and cancel switch of a background job: a worker asks `ready()` before each step,
 * which waits while the job is paused and throws `ScrubCancelled` once it is cancelled, so a
 * job holds no more than the steps already in flight. Owns no work of its own.
 */

/** Thrown by `ready()` after `cancel()`: the job ends as cancelled, not failed. */
export class ScrubCancelled extends Error {
  constructor() {
    super('the scrub was cancelled');
    this.name = 'ScrubCancelled';
  }
}

export class ScrubGate {
  private paused: { promise: Promise<void>; resolve: () => void } | null = null;
  private cancelledFlag = false;

  get isPaused(): boolean {
    return this.paused !== null;
  }

  get cancelled(): boolean {
    return this.cancelledFlag;
  }

  pause(): void {
    if (this.paused !== null || this.cancelledFlag) return;
    let resolve = (): void => undefined;
    const promise = new Promise<void>((done) => (resolve = done));
    this.paused = { promise, resolve };
  }

  resume(): void {
    this.paused?.resolve();
    this.paused = null;
  }

  cancel(): void {
    this.cancelledFlag = true;
    this.resume();
  }

  /** Resolves when the next step may start; throws `ScrubCancelled` once cancelled. */
  async ready(): Promise<void> {
    while (this.paused !== null && !this.cancelledFlag) await this.paused.promise;
    if (this.cancelledFlag) throw new ScrubCancelled();
  }
}
