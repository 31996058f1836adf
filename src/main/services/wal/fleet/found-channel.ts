/**
 * Items pushed by a callback (a walk that finds prefixes) read as pages by an async consumer
 * (`mapBoundedWhilePaging`): each push is a page; iteration ends once `close` is called and
 * every page pushed before it has been taken.
 */
export class FoundChannel<T> implements AsyncIterable<T[]> {
  private readonly pages: T[][] = [];
  private closed = false;
  private wake: (() => void) | null = null;

  push(item: T): void {
    this.pages.push([item]);
    this.notify();
  }

  close(): void {
    this.closed = true;
    this.notify();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T[]> {
    for (;;) {
      const page = this.pages.shift();
      if (page !== undefined) yield page;
      else if (this.closed) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
