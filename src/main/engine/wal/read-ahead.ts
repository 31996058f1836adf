/**
 * A region read's read-ahead: fetches started in catalog order and handed out in that order,
 * with `inFlight` fetches running whenever there is more to read and at most `held` started but
 * not yet handed out. A fetch that finishes starts the next one at once, so a slow head does
 * not leave the slots behind it idle (a queue refilled only when its head is taken would),
 * while `held` bounds the memory the reader keeps. Owns no I/O of its own: `fetch` does it and
 * must never reject (it reports failures in its result).
 */
export class ReadAhead<Location, Fetched> {
  private readonly queue: Promise<Fetched>[] = [];
  private running = 0;
  private closed = false;

  constructor(
    private readonly limits: { readonly inFlight: number; readonly held: number },
    /** The next location to fetch, or undefined when the read has nothing more. */
    private readonly nextLocation: () => Location | undefined,
    private readonly fetch: (location: Location) => Promise<Fetched>,
  ) {}

  /** The next fetch in order (started if it was not), or undefined once the read is done. */
  take(): Promise<Fetched> | undefined {
    this.fill();
    const next = this.queue.shift();
    this.fill();
    return next;
  }

  /** Starts nothing more (the read ended or was abandoned); running fetches settle unseen. */
  close(): void {
    this.closed = true;
  }

  private fill(): void {
    while (
      !this.closed &&
      this.running < this.limits.inFlight &&
      this.queue.length < this.limits.held
    ) {
      const location = this.nextLocation();
      if (location === undefined) return;
      this.running += 1;
      this.queue.push(
        this.fetch(location).finally(() => {
          this.running -= 1;
          this.fill();
        }),
      );
    }
  }
}
