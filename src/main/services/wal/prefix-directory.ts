/**
 * The prefixes of one connection as the views' prefix selector lists them, without walking the
 * bucket on every view refresh: one walk serves every caller for `PREFIX_LIST_MAX_AGE_MS`
 * (callers meanwhile share it, or the walk in flight), and a prefix's format is detected once
 * it holds objects (objects are never rewritten in another format; an empty prefix is asked
 * again). The fleet overview walks on its own, at its own pace.
 */
import type { ObjectIo } from '../../engine/objectio/object-io';
import { discoverPrefixes, type Discovery } from '../../engine/wal-read/discover';
import { detectFormat, type WalFormat } from '../../engine/wal-read/format';

/**
 * How stale the selector's list may be: the views of one refresh tick share a walk, and a
 * prefix created a moment ago by a test or a shell shows up at the next tick.
 */
export const PREFIX_LIST_MAX_AGE_MS = 2_000;

export class PrefixDirectory {
  private last: { readonly atMs: number; readonly discovery: Discovery } | null = null;
  private walking: Promise<Discovery> | null = null;
  private readonly formats = new Map<string, WalFormat>();

  constructor(
    readonly io: ObjectIo,
    private readonly root: string,
  ) {}

  async list(now = Date.now()): Promise<Discovery> {
    if (this.last !== null && now - this.last.atMs < PREFIX_LIST_MAX_AGE_MS)
      return this.last.discovery;
    this.walking ??= this.walk().finally(() => {
      this.walking = null;
    });
    return this.walking;
  }

  /** The next `list` walks again (a writer opened or closed a prefix here). */
  expire(): void {
    this.last = null;
  }

  private async walk(): Promise<Discovery> {
    const atMs = Date.now();
    const discovery = await discoverPrefixes(this.io, this.root, undefined, (io, prefix) =>
      this.formatOf(io, prefix),
    );
    this.last = { atMs, discovery };
    return discovery;
  }

  private async formatOf(io: ObjectIo, prefix: string): Promise<WalFormat | null> {
    const known = this.formats.get(prefix);
    if (known !== undefined) return known;
    const format = await detectFormat(io, prefix);
    if (format !== null) this.formats.set(prefix, format);
    return format;
  }
}
