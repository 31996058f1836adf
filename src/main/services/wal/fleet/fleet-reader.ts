/**
 * The fleet overview of one connection: passes that walk every prefix under its root and read
 * each one's read model, as many at a time as the connection's link is wide (each read makes
 * its requests one after another, so about one request each), starting on the first prefixes
 * while the walk goes on, so rows fill in progressively. The walk's listings and the reads'
 * requests share the link's slots first come, first served; the walk lists as many folders at
 * once as the link has room beside the reads running, and never fewer than a quarter of its
 * width: at the start it finds prefixes at full width, then the reads take the link over. A pass starts when the Overview polls
 * and the last one ended at least `refreshMs` ago; it stops starting reads when the Overview
 * says it left (`stop`) or stops polling (`ABANDONED_AFTER_MS`). Rows carry a version so a poll
 * gets only what changed since its last one. A prefix that fails to read keeps its last
 * columns with the error; the walk's own failure is the pass's error.
 */
import type { FleetRow, FleetView } from '../../../../shared/contract/wal';
import { fanOutWhilePaging, type IoSlots } from '../../../engine/objectio/link';
import { errorSummaryOf, failedFleetRow, pendingFleetRow } from './fleet-row';
import { FoundChannel } from './found-channel';

/** A pass with no poll for this long was left behind (a closed window): it stops reading. */
export const ABANDONED_AFTER_MS = 15_000;

export interface FleetSource {
  /**
   * Walks the prefixes, handing each to `onFound` as it is found, `width` folders at a time
   * (the link's whole width when absent).
   */
  walk(
    onFound: (prefix: string) => void,
    width?: Pick<IoSlots, 'width'>,
  ): Promise<{ truncated: boolean }>;
  /** The prefix's row from its read model, at most `maxAgeMs` old. */
  read(prefix: string, maxAgeMs: number): Promise<FleetRow>;
  /** Whether a writer of this app holds the prefix. */
  held(prefix: string): boolean;
}

interface Versioned {
  readonly row: FleetRow;
  readonly version: number;
}

export class FleetReader {
  private readonly rows = new Map<string, Versioned>();
  private version = 0;
  private pass: Promise<void> | null = null;
  private passEndedAtMs: number | null = null;
  private lastPollMs = 0;
  private stopped = false;
  private truncated = false;
  private walkError: { code: string; message: string } | null = null;
  /** Prefix reads of the pass running now. */
  private reading = 0;

  constructor(
    private readonly source: FleetSource,
    /** The connection's link: how many prefixes are read at once. */
    private readonly slots: Pick<IoSlots, 'width'>,
  ) {}

  /** What changed since `since`; starts a pass when none runs and the last is `refreshMs` old. */
  poll(since: number, refreshMs: number, now = Date.now()): FleetView {
    this.lastPollMs = now;
    const due = this.passEndedAtMs === null || now - this.passEndedAtMs >= refreshMs;
    if (this.pass === null && (due || this.stopped)) {
      this.stopped = false;
      this.pass = this.runPass(refreshMs).finally(() => {
        this.pass = null;
        this.passEndedAtMs = Date.now();
      });
    }
    return this.view(since);
  }

  /** Stops starting reads (reads in flight finish); the next poll starts a new pass. */
  stop(): boolean {
    const running = this.pass !== null;
    this.stopped = true;
    return running;
  }

  /**
   * Reads one prefix's row again now, outside any pass (a scrub just judged it); a prefix the
   * fleet does not list is left alone.
   */
  async reread(prefix: string): Promise<void> {
    if (this.rows.has(prefix)) await this.readRow(prefix, Number.POSITIVE_INFINITY);
  }

  /** Resolves when the pass running now (if any) has ended. */
  async settled(): Promise<void> {
    await this.pass;
  }

  private view(since: number): FleetView {
    const changed: FleetRow[] = [];
    for (const { row, version } of this.rows.values()) if (version > since) changed.push(row);
    return {
      version: this.version,
      rows: changed,
      prefixes: [...this.rows.keys()],
      truncated: this.truncated,
      reading: this.pass !== null,
      passEndedAtMs: this.passEndedAtMs,
      error: this.walkError,
    };
  }

  private set(row: FleetRow): void {
    this.version += 1;
    this.rows.set(row.prefix, { row, version: this.version });
  }

  private shouldRead(): boolean {
    return !this.stopped && Date.now() - this.lastPollMs < ABANDONED_AFTER_MS;
  }

  private async runPass(refreshMs: number): Promise<void> {
    const found = new FoundChannel<string>();
    const seen = new Set<string>();
    // Settled into a value at once: a walk that fails early is never an unhandled rejection.
    const { slots } = this;
    const reading = (): number => this.reading;
    const walkWidth = {
      get width(): number {
        return Math.max(Math.ceil(slots.width / 4), slots.width - reading());
      },
    };
    const walked = this.source
      .walk((prefix) => {
        seen.add(prefix);
        if (!this.rows.has(prefix)) this.set(pendingFleetRow(prefix, this.source.held(prefix)));
        found.push(prefix);
      }, walkWidth)
      .then(
        ({ truncated }) => ({ truncated, error: null }),
        (error: unknown) => ({ truncated: this.truncated, error: errorSummaryOf(error) }),
      )
      .finally(() => found.close());
    // A row read by a view a moment ago is fresh enough for the overview.
    const maxAgeMs = Math.floor(refreshMs / 2);
    await fanOutWhilePaging(found, this.slots, async (prefix) => {
      if (!this.shouldRead()) return;
      this.reading += 1;
      try {
        await this.readRow(prefix, maxAgeMs);
      } finally {
        this.reading -= 1;
      }
    });
    const { truncated, error } = await walked;
    this.truncated = truncated;
    this.walkError = error;
    if (error === null) this.forgetAllBut(seen);
  }

  private async readRow(prefix: string, maxAgeMs: number): Promise<void> {
    try {
      this.set(await this.source.read(prefix, maxAgeMs));
    } catch (error) {
      const last = this.rows.get(prefix)?.row ?? pendingFleetRow(prefix, false);
      this.set(failedFleetRow(last, error));
    }
  }

  /** After a complete walk: prefixes that are gone leave the overview. */
  private forgetAllBut(seen: ReadonlySet<string>): void {
    let removed = false;
    for (const prefix of this.rows.keys())
      if (!seen.has(prefix)) removed = this.rows.delete(prefix) || removed;
    if (removed) this.version += 1;
  }
}
