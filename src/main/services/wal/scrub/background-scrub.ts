/**
 * The background scrub: keeps every prefix the console reads within the verify age. A prefix is
 * handed in (`note`) each time a view or the Overview's pass reads it; one that is not verified
 * within the age joins its connection's queue (a prefix a view opened goes first), and one
 * background job per connection verifies the queue at the scrub's share of the link, resuming
 * a pass a restart stopped (the coverage book). A prefix whose verify failed waits
 * `RETRY_AFTER_MS` before it is queued again. It decides what to scrub and when; the scrub
 * job reads, the ledger and the book remember.
 */
import type { CoverageView } from '../../../../shared/contract/wal-coverage';

/** A prefix whose background verify failed is not queued again before this. */
export const RETRY_AFTER_MS = 60_000;

/** One connection's queue, drained by its background job. */
export class PrefixQueue {
  private readonly waiting: string[] = [];
  private readonly queued = new Set<string>();
  private wake: (() => void) | null = null;
  private closed = false;

  /** Queues the prefix (at the front when `first`); false when it is queued already. */
  add(prefix: string, first: boolean): boolean {
    if (this.queued.has(prefix) || this.closed) return false;
    this.queued.add(prefix);
    if (first) this.waiting.unshift(prefix);
    else this.waiting.push(prefix);
    this.wake?.();
    return true;
  }

  /** Hands each queued prefix to `found`, one at a time; resolves once the queue is empty. */
  async drain(found: (prefix: string) => void, taken: () => Promise<void>): Promise<void> {
    for (;;) {
      const prefix = this.waiting.shift();
      if (prefix === undefined) return;
      found(prefix);
      // The next is handed out only once this one is verified: a prefix queued meanwhile at
      // the front (a view opened it) goes next.
      await taken();
      this.queued.delete(prefix);
    }
  }

  get size(): number {
    return this.waiting.length;
  }

  close(): void {
    this.closed = true;
    this.waiting.length = 0;
    this.queued.clear();
  }
}

export interface BackgroundDeps {
  /** Starts (or returns) the connection's background job over `queue`. */
  start(connectionId: string, queue: PrefixQueue): { finished: Promise<void> } | null;
  readonly now?: () => number;
}

export class BackgroundScrub {
  private readonly queues = new Map<string, PrefixQueue>();
  private readonly running = new Map<string, Promise<void>>();
  private readonly failedAt = new Map<string, number>();

  constructor(private readonly deps: BackgroundDeps) {}

  /**
   * A view (`opened`) or the Overview's pass read the prefix with this coverage: one not
   * verified within the age is queued, and the connection's job started if none runs.
   */
  note(connectionId: string, prefix: string, coverage: CoverageView, opened: boolean): void {
    if (coverage.state === 'verified') return;
    const key = `${connectionId}\n${prefix}`;
    const failed = this.failedAt.get(key);
    const now = (this.deps.now ?? Date.now)();
    if (failed !== undefined && now - failed < RETRY_AFTER_MS) return;
    let queue = this.queues.get(connectionId);
    if (queue === undefined) {
      queue = new PrefixQueue();
      this.queues.set(connectionId, queue);
    }
    queue.add(prefix, opened);
    this.ensureRunning(connectionId, queue);
  }

  /** A prefix's background verify failed (unreachable...): it waits before the next try. */
  failed(connectionId: string, prefix: string): void {
    this.failedAt.set(`${connectionId}\n${prefix}`, (this.deps.now ?? Date.now)());
  }

  /** Stops queuing for a removed connection (its job is cancelled with its scrubs). */
  release(connectionId: string): void {
    this.queues.get(connectionId)?.close();
    this.queues.delete(connectionId);
  }

  /** Stops queuing anything (shutdown; the jobs are cancelled with the scrubs). */
  closeAll(): void {
    for (const connectionId of [...this.queues.keys()]) this.release(connectionId);
  }

  private ensureRunning(connectionId: string, queue: PrefixQueue): void {
    if (this.running.has(connectionId)) return;
    const job = this.deps.start(connectionId, queue);
    if (job === null) return;
    const done = job.finished.finally(() => {
      this.running.delete(connectionId);
      // Prefixes queued as the job ended get a job of their own.
      if (queue.size > 0 && this.queues.get(connectionId) === queue)
        this.ensureRunning(connectionId, queue);
    });
    this.running.set(connectionId, done);
  }
}
