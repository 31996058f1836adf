/**
 * `FaultyObjectIo` wraps any backend and injects the failures the protocols above must survive:
 * refusals, delays, responses lost after the write applied, 5xx after apply, corrupted reads.
 * Rules match by operation and key pattern and are consumed by count. A batch delete meets
 * 'deleteMany' rules as a whole (tested against its first key) and 'delete' rules key by key:
 * a refused key is reported failed and never reaches the store, a lost answer's key is deleted
 * and reported failed. For tests and demos only.
 *
 * With `ignoreCreateIfAbsent` it also emulates a store that does not enforce create-if-absent
 * (creates silently overwrite), which the probe must refuse for writers.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { batchResult, checkedDeleteBatch, deleteKeys } from './batch-delete';
import {
  BackendError,
  OutcomeUnknownError,
  UnavailableError,
  isStorageError,
  type StorageError,
} from './errors';
import type { LinkShape } from './link/backend-link';
import {
  pagesOf,
  type BatchDeleteResult,
  type ByteRange,
  type GetResult,
  type ListOptions,
  type ListPage,
  type ObjectIo,
  type ObjectMeta,
} from './object-io';

export type FaultKind =
  'unavailable' | 'backend' | 'delay' | 'apply-then-lose' | 'apply-then-5xx' | 'corrupt';
export type FaultOp = 'putIfAbsent' | 'get' | 'head' | 'listPage' | 'delete' | 'deleteMany';

export interface FaultRule {
  op: FaultOp | 'any';
  /** Tested against the key (the prefix for listPage); every key when absent. */
  key?: RegExp;
  kind: FaultKind;
  /** How many calls the rule fires on; unlimited when absent. */
  count?: number;
  /** For 'delay'. */
  delayMs?: number;
}

export interface FaultyObjectIoOptions {
  /** Emulate a store that ignores `If-None-Match: *`: putIfAbsent overwrites, never AlreadyExists. */
  readonly ignoreCreateIfAbsent?: boolean;
}

interface ActiveRule {
  readonly rule: FaultRule;
  remaining: number;
}

/** 'corrupt' only has bytes to damage on a get; elsewhere a corrupt rule does not match. */
function appliesTo(kind: FaultKind, op: FaultOp): boolean {
  return kind !== 'corrupt' || op === 'get';
}

export class FaultyObjectIo implements ObjectIo {
  readonly endpoint: string;
  readonly link?: LinkShape;
  private rules: ActiveRule[] = [];
  private firedCount = 0;

  constructor(
    private readonly inner: ObjectIo,
    private readonly options: FaultyObjectIoOptions = {},
  ) {
    this.endpoint = inner.endpoint;
    this.link = inner.link;
  }

  inject(rule: FaultRule): void {
    this.rules.push({ rule, remaining: rule.count ?? Infinity });
  }

  clear(): void {
    this.rules = [];
  }

  /** Faults fired so far. */
  get fired(): number {
    return this.firedCount;
  }

  putIfAbsent(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    return this.run('putIfAbsent', key, () => this.create(key, bytes));
  }

  get(key: string, range?: ByteRange): Promise<GetResult> {
    return this.run('get', key, () => this.inner.get(key, range), corruptResult);
  }

  head(key: string): Promise<ObjectMeta> {
    return this.run('head', key, () => this.inner.head(key));
  }

  listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    return this.run('listPage', prefix, () => this.inner.listPage(prefix, options));
  }

  destroy(): void {
    this.inner.destroy?.();
  }

  list(prefix: string, options?: Omit<ListOptions, 'continuation'>): AsyncIterable<ListPage> {
    return pagesOf(this, prefix, options);
  }

  delete(key: string): Promise<void> {
    return this.run('delete', key, () => this.inner.delete(key));
  }

  deleteMany(keys: readonly string[]): Promise<BatchDeleteResult> {
    const ascending = checkedDeleteBatch(this.endpoint, keys);
    return this.run('deleteMany', ascending[0] ?? '', () => this.deleteEach(ascending));
  }

  /** The batch with each key's 'delete' rule applied; the keys that reach the store go in one batch. */
  private async deleteEach(ascending: readonly string[]): Promise<BatchDeleteResult> {
    const failures = new Map<string, StorageError>();
    const lost: string[] = [];
    const reaching: string[] = [];
    let delayMs = 0;
    for (const key of ascending) {
      const rule = this.take('delete', key);
      if (rule?.kind === 'unavailable' || rule?.kind === 'backend') {
        const Failure = rule.kind === 'unavailable' ? UnavailableError : BackendError;
        failures.set(key, new Failure(key, this.endpoint, 'injected fault on delete'));
        continue;
      }
      if (rule?.kind === 'delay') delayMs = Math.max(delayMs, rule.delayMs ?? 0);
      if (rule?.kind === 'apply-then-lose' || rule?.kind === 'apply-then-5xx') lost.push(key);
      reaching.push(key);
    }
    if (delayMs > 0) await sleep(delayMs);
    const done = reaching.length === 0 ? null : await deleteKeys(this.inner, reaching);
    for (const { key, error } of done?.failed ?? []) failures.set(key, error);
    for (const key of lost)
      if (!failures.has(key))
        failures.set(
          key,
          new UnavailableError(key, this.endpoint, 'injected: delete applied, response lost'),
        );
    return batchResult(ascending, failures);
  }

  private async create(key: string, bytes: Uint8Array): Promise<{ etag: string }> {
    if (!this.options.ignoreCreateIfAbsent) return this.inner.putIfAbsent(key, bytes);
    await this.inner.delete(key);
    return this.inner.putIfAbsent(key, bytes);
  }

  private async run<T>(
    op: FaultOp,
    key: string,
    call: () => Promise<T>,
    corrupt?: (value: T) => T,
  ): Promise<T> {
    const rule = this.take(op, key);
    if (rule === undefined) return call();
    switch (rule.kind) {
      case 'unavailable':
        throw new UnavailableError(key, this.endpoint, `injected fault on ${op}`);
      case 'backend':
        throw new BackendError(key, this.endpoint, `injected fault on ${op}`);
      case 'delay':
        await sleep(rule.delayMs ?? 0);
        return call();
      case 'apply-then-lose':
      case 'apply-then-5xx':
        return this.applyThenFail(op, key, rule.kind, call);
      case 'corrupt':
        return (corrupt ?? ((value: T) => value))(await call());
    }
  }

  /** The call reaches the store; its answer, success or failure, never reaches the caller. */
  private async applyThenFail<T>(
    op: FaultOp,
    key: string,
    kind: 'apply-then-lose' | 'apply-then-5xx',
    call: () => Promise<T>,
  ): Promise<never> {
    const reason =
      kind === 'apply-then-lose'
        ? `injected: ${op} applied, response lost`
        : `injected: ${op} applied, then HTTP 500`;
    try {
      await call();
    } catch (error) {
      // A terminal refusal (bad key, access denied) is not something a lost response can hide.
      if (isStorageError(error, 'Backend')) throw error;
    }
    if (op === 'putIfAbsent') throw new OutcomeUnknownError(key, this.endpoint, reason);
    throw new UnavailableError(key, this.endpoint, reason);
  }

  /** The first live rule matching the call, consumed by one; undefined when none matches. */
  private take(op: FaultOp, key: string): FaultRule | undefined {
    const active = this.rules.find(
      ({ rule, remaining }) =>
        remaining > 0 &&
        (rule.op === 'any' || rule.op === op) &&
        appliesTo(rule.kind, op) &&
        keyMatches(rule.key, key),
    );
    if (active === undefined) return undefined;
    active.remaining -= 1;
    this.firedCount += 1;
    return active.rule;
  }
}

function keyMatches(pattern: RegExp | undefined, key: string): boolean {
  if (pattern === undefined) return true;
  pattern.lastIndex = 0; // A /g or /y pattern keeps state between test() calls.
  return pattern.test(key);
}

/** Flips every bit of the middle byte: any checksum over the bytes must notice. */
function corruptResult(result: GetResult): GetResult {
  if (result.bytes.length === 0) return result;
  const bytes = Uint8Array.from(result.bytes);
  const at = Math.floor(bytes.length / 2);
  bytes[at] = (bytes[at] ?? 0) ^ 0xff;
  return { ...result, bytes };
}
