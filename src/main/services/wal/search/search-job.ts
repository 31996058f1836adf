/**
 * One search running for one caller (a sibling of a replay job): its steps (search-run.ts) go
 * out as chunks of at most MAX_SEARCH_CHUNK hits, the first hit at once and then at most every
 * CHUNK_EVERY_MS, and a progress-only chunk that often while nothing matches, so the page
 * sees the scan move. The job waits for its reader's room before reading on (the sink's
 * promise: replay-delivery's pacing per socket), and holds no more than one object's hits
 * beyond what the scan's window holds. Pause stops the reads at the next object; cancel ends
 * them with a reason the progress carries. A damaged segment leaves as a hole after the hits
 * read before it. Never writes to storage.
 */
import {
  MAX_NAMED_DAMAGED_PAYLOADS,
  MAX_SEARCH_CHUNK,
  type DamagedPayloadView,
  type SearchProgress,
} from '../../../../shared/contract/wal-search';
import type { ReplayHoleView } from '../../../../shared/contract/wal-damage';
import type { SearchHit } from '../../../../shared/search/search-hits';
import { JobControl } from '../job-control';
import { holeViewOf } from '../replay-holes';
import type { SearchCounts, SearchStep } from './search-run';

export interface SearchSink {
  /** Hands a chunk on; a promise makes the job wait for it before reading on. */
  chunk(
    hits: readonly SearchHit[],
    progress: SearchProgress,
    holes: readonly ReplayHoleView[],
    damaged: readonly DamagedPayloadView[],
  ): void | Promise<void>;
  done(progress: SearchProgress): void;
}

/** A chunk leaves at least this often while hits wait or the scan moves. */
export const CHUNK_EVERY_MS = 100;

export class SearchJob {
  private readonly control = new JobControl();
  private readonly started = performance.now();
  private ended: number | null = null;
  private delivered = 0;
  readonly finished: Promise<void>;

  constructor(
    readonly id: string,
    private readonly steps: AsyncIterable<SearchStep>,
    private readonly counts: SearchCounts,
    private readonly shape: { readonly kind: 'row' | 'entry'; readonly limit: number | null },
    private readonly sink: SearchSink,
  ) {
    this.finished = this.run();
  }

  get active(): boolean {
    return this.control.active;
  }

  progress(): SearchProgress {
    const { counts } = this;
    return {
      jobId: this.id,
      state: this.control.state,
      kind: this.shape.kind,
      objectsRead: counts.objectsRead,
      objectsPlanned: counts.plannedObjects,
      objectsSkipped: counts.objectsSkipped,
      bytesRead: counts.bytesRead,
      bytesPlanned: counts.plannedBytes,
      entries: counts.entries,
      rows: counts.rows,
      hits: this.delivered,
      holes: counts.holes,
      bulk: counts.bulk,
      bulkSkipped: counts.bulkSkipped,
      damagedPayloads: counts.damagedPayloads,
      regions: [...counts.hitsByRegion]
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([region, hits]) => ({ region, hits })),
      elapsedMs: (this.ended ?? performance.now()) - this.started,
      limited: this.shape.limit !== null && counts.hits >= this.shape.limit,
      error: this.control.error,
      cancelReason: this.control.cancelReason,
    };
  }

  pause(): SearchProgress {
    this.control.pause();
    return this.progress();
  }

  resume(): SearchProgress {
    this.control.resume();
    return this.progress();
  }

  cancel(reason: string): SearchProgress {
    this.control.cancel(reason);
    return this.progress();
  }

  private async run(): Promise<void> {
    let hits: SearchHit[] = [];
    let holes: ReplayHoleView[] = [];
    let damaged: DamagedPayloadView[] = [];
    let named = 0;
    let sentAt = performance.now();
    try {
      for await (const step of this.steps) {
        if (!this.control.active) break;
        hits.push(...step.hits);
        holes.push(...step.holes.map(holeViewOf));
        const naming = step.damaged.slice(0, MAX_NAMED_DAMAGED_PAYLOADS - named);
        named += naming.length;
        damaged.push(...naming);
        const first = this.delivered === 0 && hits.length > 0;
        const due = performance.now() - sentAt >= CHUNK_EVERY_MS;
        if (first || due || holes.length > 0 || hits.length >= MAX_SEARCH_CHUNK) {
          await this.deliver(hits, holes, damaged);
          hits = [];
          holes = [];
          damaged = [];
          sentAt = performance.now();
        }
        await this.control.whilePaused();
        if (!this.control.active) break;
      }
      if (this.control.active) await this.deliver(hits, holes, damaged);
      this.control.finish();
    } catch (error) {
      this.control.fail(error);
    }
    this.ended = performance.now();
    this.sink.done(this.progress());
  }

  /** Hands the hits on in chunks of MAX_SEARCH_CHUNK, each waiting for the reader's room. */
  private async deliver(
    hits: readonly SearchHit[],
    holes: readonly ReplayHoleView[],
    damaged: readonly DamagedPayloadView[],
  ): Promise<void> {
    let at = 0;
    do {
      const chunk = hits.slice(at, at + MAX_SEARCH_CHUNK);
      at += chunk.length;
      this.delivered += chunk.length;
      const last = at >= hits.length;
      const taken = this.sink.chunk(chunk, this.progress(), last ? holes : [], last ? damaged : []);
      if (taken !== undefined) await this.control.untilAborted(taken);
    } while (at < hits.length && this.control.active);
  }
}
