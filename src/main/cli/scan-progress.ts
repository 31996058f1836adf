/**
 * A long scan's progress on the CLI's stderr, only when stderr is a terminal (a pipe or a file
 * gets nothing): "indexed 12,345 of 100,000 objects", rewritten in place at most every 100 ms
 * and cleared when the scan ends, so stdout (the report, JSON) stays clean.
 */
import type { ListedObject, ScanWatch } from '../engine/wal/recovery';

const EVERY_MS = 100;

export class ScanProgressLine<T> implements ScanWatch<T> {
  private listedCount = 0;
  private listingEnded = false;
  private readCount = 0;
  private recalled = 0;
  private shownAt = 0;
  private shown = false;

  constructor(private readonly out: NodeJS.WriteStream = process.stderr) {}

  /** A watcher when `out` is a terminal, else none. */
  static forTerminal<T>(out: NodeJS.WriteStream = process.stderr): ScanProgressLine<T> | undefined {
    return out.isTTY === true ? new ScanProgressLine<T>(out) : undefined;
  }

  listed(objects: readonly ListedObject[]): void {
    this.listedCount += objects.length;
    this.show();
  }

  listingDone(): void {
    this.listingEnded = true;
    this.show();
  }

  read(_object: ListedObject, _outcome: T, recalled: boolean): void {
    this.readCount += 1;
    if (recalled) this.recalled += 1;
    this.show();
  }

  /** Clears the line (the scan ended, or failed). */
  end(): void {
    if (this.shown) this.out.write('\r\x1b[K');
    this.shown = false;
  }

  private show(): void {
    const now = Date.now();
    if (now - this.shownAt < EVERY_MS) return;
    this.shownAt = now;
    this.shown = true;
    const total = this.listingEnded
      ? `of ${this.listedCount.toLocaleString('en-US')}`
      : `of ${this.listedCount.toLocaleString('en-US')}+ (listing)`;
    const recalled =
      this.recalled > 0 ? `, ${this.recalled.toLocaleString('en-US')} from the local index` : '';
    this.out.write(
      `\r\x1b[Kcairn: indexed ${this.readCount.toLocaleString('en-US')} ${total} objects${recalled}`,
    );
  }
}
