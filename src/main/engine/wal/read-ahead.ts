/**
 * A region read's read-ahead: fetches started in catalog order and handed out in that order,
 * with as many fetches running as the link's width whenever there is more to read, and at most
 * `held` fetches (and `heldBytes` bytes, but always one) started but not yet handed out. A
 * fetch that finishes starts the next one at once, so a slow head does not leave the slots
 * behind it idle (a queue refilled only when its head is taken would), while the held bounds
 * keep the reader's memory. The limits are read each time a fetch could start, so the
 * read-ahead follows the link's controller as it learns. Owns no I/O of its own: `fetch` does
 * it and must never reject (it reports failures in its result).
 */

export interface ReadAheadLimits<Location> {
  /** Fetches to keep running: the link's width now. */
  inFlight(): number;
  /** Fetches started but not handed out, at most. */
  held(): number;
  /** Bytes of fetches started but not handed out, at most (one fetch always may start). */
  readonly heldBytes: number;
  /** Bytes a fetch of `location` holds. */
  bytesOf(location: Location): number;
}

export class ReadAhead<Location, Fetched> {
  private readonly queue: { readonly fetched: Promise<Fetched>; readonly bytes: number }[] = [];
  private running = 0;
  private queuedBytes = 0;
  private next: Location | undefined = undefined;
  private closed = false;

  constructor(
    private readonly limits: ReadAheadLimits<Location>,
    /** The next location to fetch, or undefined when the read has nothing more. */
    private readonly nextLocation: () => Location | undefined,
    private readonly fetch: (location: Location) => Promise<Fetched>,
  ) {}

  /** The next fetch in order (started if it was not), or undefined once the read is done. */
  take(): Promise<Fetched> | undefined {
    this.fill();
    const next = this.queue.shift();
    if (next !== undefined) this.queuedBytes -= next.bytes;
    this.fill();
    return next?.fetched;
  }

  /** Starts nothing more (the read ended or was abandoned); running fetches settle unseen. */
  close(): void {
    this.closed = true;
  }

  private fill(): void {
    const { limits } = this;
    while (
      !this.closed &&
      this.running < Math.max(1, limits.inFlight()) &&
      this.queue.length < Math.max(1, limits.held())
    ) {
      this.next ??= this.nextLocation();
      const location = this.next;
      if (location === undefined) return;
      const bytes = limits.bytesOf(location);
      if (this.queue.length > 0 && this.queuedBytes + bytes > limits.heldBytes) return;
      this.next = undefined;
      this.running += 1;
      this.queuedBytes += bytes;
      this.queue.push({
        bytes,
        fetched: this.fetch(location).finally(() => {
          this.running -= 1;
          this.fill();
        }),
      });
    }
  }
}
