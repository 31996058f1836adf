/**
 * Test double for racing the cell against other processes at exact points: wraps any
 * ObjectIo, records every call in order, and runs a scripted step once at a chosen point
 * (after a listing page, before or instead of a create). Never used outside tests.
 */
import { OutcomeUnknownError } from '../../src/main/engine/objectio/errors';
import {
  pagesOf,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type ObjectMeta,
} from '../../src/main/engine/objectio/object-io';

export type Step = () => Promise<void>;

export class ScriptedObjectIo implements ObjectIo {
  readonly calls: string[] = [];
  private afterListStep: Step | null = null;
  private lostCreate: { key: string; step: Step } | null = null;
  private beforeCreateStep: Step | null = null;
  private deletesInFlight = 0;
  maxDeletesInFlight = 0;

  constructor(private readonly inner: ObjectIo) {}

  get endpoint(): string {
    return this.inner.endpoint;
  }

  /** Run `step` once, right after the next listing page was taken. */
  afterNextList(step: Step): void {
    this.afterListStep = step;
  }

  /** Forget every scripted step not yet taken. */
  disarm(): void {
    this.afterListStep = null;
    this.beforeCreateStep = null;
    this.lostCreate = null;
  }

  /** Run `step` once, right before the next create reaches storage. */
  beforeNextCreate(step: Step): void {
    this.beforeCreateStep = step;
  }

  /** The next create of `key` does not apply: `step` runs instead, then the response is lost. */
  loseCreateOf(key: string, step: Step = async () => undefined): void {
    this.lostCreate = { key, step };
  }

  async putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    this.calls.push(`putIfAbsent ${key}`);
    const before = this.beforeCreateStep;
    this.beforeCreateStep = null;
    if (before !== null) await before();
    const lost = this.lostCreate;
    if (lost !== null && lost.key === key) {
      this.lostCreate = null;
      await lost.step();
      throw new OutcomeUnknownError(key, this.endpoint, 'scripted lost response');
    }
    return this.inner.putIfAbsent(key, bytes);
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    this.calls.push(`get ${key}`);
    return this.inner.get(key, range);
  }

  async head(key: string): Promise<ObjectMeta> {
    this.calls.push(`head ${key}`);
    return this.inner.head(key);
  }

  async listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    this.calls.push(`listPage ${prefix}`);
    const page = await this.inner.listPage(prefix, options);
    const step = this.afterListStep;
    this.afterListStep = null;
    if (step !== null) await step();
    return page;
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  async delete(key: string): Promise<void> {
    this.calls.push(`delete ${key}`);
    this.deletesInFlight += 1;
    this.maxDeletesInFlight = Math.max(this.maxDeletesInFlight, this.deletesInFlight);
    try {
      await this.inner.delete(key);
    } finally {
      this.deletesInFlight -= 1;
    }
  }
}
