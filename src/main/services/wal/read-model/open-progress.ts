/**
 * The first open of a big prefix as it goes (issue #40): what its scan has listed and read so
 * far, newest first, how far it came (objects indexed of those listed, how many the local
 * index held), and a provisional snapshot made of it on demand - the tip, the newest objects
 * and the chain's shape within the first few reads, the tables and counts filling in as more
 * arrive. It only records what the scan tells it; the judgement is the engine's provisional
 * one (links to objects not read yet taken on trust). Never reads storage.
 */
import type { OpenProgress } from '../../../../shared/contract/wal-pages';
import { gtScanOf, type GtScanOutcome } from '../../../engine/greptimedb/scan';
import { compareSeq, type ListedObject, type ScanWatch } from '../../../engine/wal/recovery';
import type { ScannedObject, TailOutcome } from '../../../engine/wal/recovery';
import type { Seq } from '../../../engine/wal/ids';

/** Objects read (the newest) before a view is shown the provisional snapshot. */
export const FIRST_VIEW_OBJECTS = 64;
/**
 * An open shorter than this shows no provisional snapshot at all: a view waits for the whole
 * (a small prefix, or one the local index holds), and sees a provisional one only when the
 * open takes longer.
 */
export const FIRST_VIEW_AFTER_MS = 250;
/** Nor does a prefix of one listing page or less: provisional views are for big prefixes. */
export const FIRST_VIEW_LISTED = 1_000;
/** A provisional snapshot is made again at most this often while views poll. */
const REBUILD_MS = 250;

export class OpenInProgress<T extends TailOutcome | GtScanOutcome> implements ScanWatch<T> {
  private readonly listedObjects: ListedObject[] = [];
  /** By sequence as a number (below 2^44: exact, and hashed faster than a bigint). */
  private readonly outcomes = new Map<number, T>();
  /** Listed and not read yet: links to these are taken on trust. */
  private readonly unread = new Set<number>();
  private listingEnded = false;
  private recalled = 0;
  private readonly firstView: Promise<void>;
  private showFirstView: () => void = () => undefined;
  private built: { at: number; read: number; value: Promise<unknown> } | null = null;

  private waited = false;

  constructor() {
    this.firstView = new Promise<void>((resolve) => (this.showFirstView = resolve));
    setTimeout(() => {
      this.waited = true;
      this.checkFirstView();
    }, FIRST_VIEW_AFTER_MS).unref();
  }

  /** A big prefix, its newest objects read, and the open has run long enough to show them. */
  private checkFirstView(): void {
    if (
      this.waited &&
      this.outcomes.size >= FIRST_VIEW_OBJECTS &&
      this.listedObjects.length > FIRST_VIEW_LISTED
    )
      this.showFirstView();
  }

  listed(objects: readonly ListedObject[]): void {
    for (const object of objects) {
      this.listedObjects.push(object);
      const seq = Number(object.seq);
      if (!this.outcomes.has(seq)) this.unread.add(seq);
    }
    this.checkFirstView();
  }

  listingDone(): void {
    this.listingEnded = true;
  }

  read(object: ListedObject, outcome: T, recalled: boolean): void {
    const seq = Number(object.seq);
    this.outcomes.set(seq, outcome);
    this.unread.delete(seq);
    if (recalled) this.recalled += 1;
    if (this.outcomes.size === FIRST_VIEW_OBJECTS) this.checkFirstView();
  }

  /** Resolves once the newest objects are read and the open has run `FIRST_VIEW_AFTER_MS`. */
  firstViewReady(): Promise<void> {
    return this.firstView;
  }

  progress(done: boolean): OpenProgress {
    return {
      indexed: this.outcomes.size,
      total: this.listingEnded ? this.listedObjects.length : null,
      fromIndex: this.recalled,
      done,
    };
  }

  /** A sequence whose object may yet be read: listed and unread, or not listed yet. */
  readonly pending = (seq: Seq): boolean => !this.listingEnded || this.unread.has(Number(seq));

  /** Every object listed so far, ascending by sequence, with its outcome when read. */
  soFar(): { listed: ListedObject[]; outcomes: (T | undefined)[] } {
    const listed = [...this.listedObjects].sort(compareSeq);
    return { listed, outcomes: listed.map((object) => this.outcomes.get(Number(object.seq))) };
  }

  /** Objects read whole so far, ascending by sequence (Cairn's format). */
  cairnObjects(): ScannedObject[] {
    const { outcomes } = this.soFar();
    const objects: ScannedObject[] = [];
    for (const outcome of outcomes) if (outcome?.kind === 'read') objects.push(outcome.object);
    return objects;
  }

  /** The GreptimeDB scan of what was read so far. */
  gtScan(): ReturnType<typeof gtScanOf> {
    const { listed, outcomes } = this.soFar();
    return gtScanOf(listed, outcomes as (GtScanOutcome | undefined)[]);
  }

  /**
   * `build()`'s result, made again only when more objects were read and the last was made
   * `REBUILD_MS` ago: views polling a 100,000-object open every half second share a build.
   */
  provisional<S>(build: () => Promise<S>, now = Date.now()): Promise<S> {
    const built = this.built;
    if (built !== null && (built.read === this.outcomes.size || now - built.at < REBUILD_MS))
      return built.value as Promise<S>;
    const value = build();
    this.built = { at: now, read: this.outcomes.size, value };
    return value;
  }
}
