/**
 * The writers opened in the app, at most one per prefix (its slot: connection and prefix), and
 * the opens in progress: two calls never open two writers on one prefix, and a connection's
 * removal sees an open that has not finished yet (`holderOf`).
 */
import { AppWriter } from './app-writer';
import { WriterAlreadyOpenError, WriterNotOpenError } from './errors';
import { slotParts, type Located } from './wal-locate';

export class WriterRegistry {
  private readonly writers = new Map<string, AppWriter>();
  private readonly opening = new Set<string>();

  get(slot: string): AppWriter | undefined {
    return this.writers.get(slot);
  }

  has(slot: string): boolean {
    return this.writers.has(slot);
  }

  /** The writer `action` needs on the prefix; WriterNotOpenError when the app holds none there. */
  require(at: Located, action: string): AppWriter {
    const writer = this.writers.get(at.slot);
    if (writer === undefined) throw new WriterNotOpenError(at.prefix, action);
    return writer;
  }

  /**
   * Runs `open` with the slot marked as opening and keeps the writer it returns. The check and
   * the mark are one turn, so a second open of the slot fails with WriterAlreadyOpenError.
   */
  async open(at: Located, open: () => Promise<AppWriter>): Promise<AppWriter> {
    if (this.writers.has(at.slot) || this.opening.has(at.slot))
      throw new WriterAlreadyOpenError(at.prefix);
    this.opening.add(at.slot);
    try {
      const writer = await open();
      this.writers.set(at.slot, writer);
      return writer;
    } finally {
      this.opening.delete(at.slot);
    }
  }

  /** Forgets the slot's writer (closed by the caller). */
  remove(slot: string): void {
    this.writers.delete(slot);
  }

  /** A prefix of the connection where a writer is open or opening: it holds an epoch there. */
  holderOf(connectionId: string): string | null {
    for (const slot of [...this.writers.keys(), ...this.opening]) {
      const { connectionId: holder, prefix } = slotParts(slot);
      if (holder === connectionId) return prefix;
    }
    return null;
  }

  /** Closes every writer (app shutdown, tests). */
  async closeAll(): Promise<void> {
    const writers = [...this.writers.values()];
    this.writers.clear();
    await Promise.all(writers.map((writer) => writer.close()));
  }
}
