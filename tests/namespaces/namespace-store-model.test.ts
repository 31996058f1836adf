/**
 * Model-based test of the durable registry under injected faults: random operation
 * sequences run against ObjectNamespaceStore over FaultyObjectIo and against a plain map
 * (the reference model). A mutation that fails (an unknown outcome) is retried until it
 * succeeds, and must then be reconciled: applied once, never duplicated, never lost.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ObjectNamespaceStore } from '../../src/main/engine/namespaces/object-namespace-store';
import type {
  JsonObject,
  MintOutcome,
  NamespaceOrigin,
  NamespacePlacement,
  NamespaceRecord,
  NamespaceState,
} from '../../src/main/engine/namespaces/record';
import { FaultyObjectIo, type FaultRule } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { tickingClock } from './namespace-store-contract';

/** What the model knows of a record: everything but the timestamps, which the clock decides. */
interface Expected {
  readonly origin: NamespaceOrigin;
  readonly config: JsonObject;
  readonly state: NamespaceState;
  readonly placement: NamespacePlacement;
}

type Operation =
  | {
      readonly kind: 'register';
      readonly store: number;
      readonly name: string;
      readonly origin: NamespaceOrigin;
    }
  | {
      readonly kind: 'put';
      readonly store: number;
      readonly name: string;
      readonly config: JsonObject;
    }
  | {
      readonly kind: 'place';
      readonly store: number;
      readonly name: string;
      readonly placement: NamespacePlacement;
    }
  | { readonly kind: 'deprecate'; readonly store: number; readonly name: string }
  | { readonly kind: 'get'; readonly store: number; readonly name: string }
  | { readonly kind: 'list'; readonly store: number }
  | { readonly kind: 'fault'; readonly rules: readonly FaultRule[] }
  /** Two names minted by one store, each left with its outcome unknown and NOT retried at
   * once; then both retried, in reverse order (per-name memory of unsettled mints). */
  | { readonly kind: 'abandon'; readonly store: number; readonly names: readonly [string, string] };

const NAMES = ['a', 'b', 'team/x', 'd.e', 'f:g'];
const name = fc.constantFrom(...NAMES);
const store = fc.integer({ min: 0, max: 1 });
const placement: fc.Arbitrary<NamespacePlacement> = fc.oneof(
  fc.constant(null),
  fc.record(
    { node: fc.constantFrom('n1', 'n2'), pinned: fc.boolean() },
    { requiredKeys: ['node'] },
  ),
  fc.record({ region: fc.constantFrom('eu', 'us') }),
);
const faults: ReadonlyArray<readonly FaultRule[]> = [
  [{ op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 }],
  [{ op: 'putIfAbsent', kind: 'apply-then-5xx', count: 1 }],
  [{ op: 'putIfAbsent', kind: 'unavailable', count: 1 }],
  [{ op: 'get', kind: 'unavailable', count: 1 }],
  [{ op: 'head', kind: 'unavailable', count: 1 }],
  [{ op: 'listPage', kind: 'unavailable', count: 1 }],
  [{ op: 'any', kind: 'unavailable', count: 2 }],
  [{ op: 'get', kind: 'corrupt', count: 1 }],
  // A create applies, its response is lost, and so is the read-back that would settle it:
  // the mutation fails with its outcome unknown, and the retry must reconcile it.
  [
    { op: 'putIfAbsent', kind: 'apply-then-lose', count: 1 },
    { op: 'get', key: /shards/, kind: 'unavailable', count: 1 },
  ],
  [
    { op: 'putIfAbsent', kind: 'apply-then-5xx', count: 1 },
    { op: 'get', key: /shards/, kind: 'unavailable', count: 2 },
    { op: 'head', kind: 'unavailable', count: 1 },
  ],
];

/** A shard create applies, its answer and the read-back that would settle it are lost. */
const UNKNOWN_MINT: readonly FaultRule[] = [
  { op: 'putIfAbsent', key: /shards/, kind: 'apply-then-lose', count: 1 },
  { op: 'get', key: /shards/, kind: 'unavailable', count: 1 },
];

const operation: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant('register' as const),
      store,
      name,
      origin: fc.constantFrom<NamespaceOrigin>('minted', 'explicit'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      store,
      name,
      config: fc.dictionary(fc.constantFrom('k', 'retention', 'x'), fc.integer({ min: 0, max: 9 })),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('place' as const), store, name, placement }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('deprecate' as const), store, name }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('get' as const), store, name }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('list' as const), store }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('abandon' as const),
      store,
      names: fc
        .uniqueArray(name, { minLength: 2, maxLength: 2 })
        .map((pair) => [pair[0]!, pair[1]!] as const),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      rules: fc.constantFrom(...faults),
    }),
  },
);

/** Errors an injected fault may surface as: storage failed, or a corrupted read. */
const FAULT_CODES = ['Backend', 'Serialization'];
const MAX_TRIES = 6;

/** Across all runs: proof that faults fired and that failed mutations were retried. */
const exercised = { faultsFired: 0, failedCalls: 0, retriedMints: 0, abandonedMints: 0 };

class Harness {
  readonly io = new FaultyObjectIo(new MemoryObjectIo());
  readonly model = new Map<string, Expected>();
  readonly createdEvents: string[] = [];
  private readonly clock = tickingClock();
  private readonly stores: ObjectNamespaceStore[];
  /** Timestamps once seen: createdAt never changes, lastSeen never goes back. */
  private readonly seen = new Map<string, { createdAt: number; lastSeen: number }>();

  constructor() {
    this.stores = [0, 1].map(
      () =>
        new ObjectNamespaceStore({
          io: this.io,
          root: 'model',
          shardCount: 2,
          clock: this.clock,
          onCreated: (record) => this.createdEvents.push(record.name),
        }),
    );
  }

  storeAt(index: number): ObjectNamespaceStore {
    return this.stores[index]!;
  }

  /** Run `call` until it succeeds; faults stop after a few tries. Reports whether a try failed. */
  async untilDone<T>(call: () => Promise<T>): Promise<{ result: T; failedBefore: boolean }> {
    for (let attempt = 1; ; attempt++) {
      try {
        return { result: await call(), failedBefore: attempt > 1 };
      } catch (error) {
        expect(FAULT_CODES).toContain((error as { code?: string }).code);
        exercised.failedCalls++;
        expect(attempt).toBeLessThan(MAX_TRIES);
        if (attempt >= 3) this.io.clear();
      }
    }
  }

  observe(record: NamespaceRecord): void {
    const expected = this.model.get(record.name);
    expect(expected, `record ${record.name} exists only in the store`).toBeDefined();
    expect({
      origin: record.origin,
      config: record.config,
      state: record.state,
      placement: record.placement,
    }).toEqual(expected);
    expect(record.lastSeen).toBeGreaterThanOrEqual(record.createdAt);
    const before = this.seen.get(record.name);
    if (before !== undefined) {
      expect(record.createdAt).toBe(before.createdAt);
      expect(record.lastSeen).toBeGreaterThanOrEqual(before.lastSeen);
    }
    this.seen.set(record.name, { createdAt: record.createdAt, lastSeen: record.lastSeen });
  }

  /** A mint answers `created` exactly when the record was absent, even if a try failed first. */
  checkMint(outcome: MintOutcome, existed: boolean, failedBefore: boolean): void {
    expect(outcome).toBe(existed ? 'touched' : 'created');
    if (failedBefore && !existed) exercised.retriedMints++;
  }

  async run(op: Operation): Promise<void> {
    switch (op.kind) {
      case 'fault':
        for (const rule of op.rules) this.io.inject(rule);
        return;
      case 'register': {
        const existed = this.model.has(op.name);
        const { result, failedBefore } = await this.untilDone(() =>
          this.storeAt(op.store).registerNamespace(op.name, op.origin),
        );
        this.checkMint(result, existed, failedBefore);
        if (!existed)
          this.model.set(op.name, {
            origin: op.origin,
            config: {},
            state: 'active',
            placement: null,
          });
        return;
      }
      case 'put': {
        const existed = this.model.has(op.name);
        const record: NamespaceRecord = {
          name: op.name,
          origin: 'explicit',
          createdAt: 1,
          lastSeen: 1,
          config: op.config,
          state: 'active',
          placement: null,
        };
        const { result, failedBefore } = await this.untilDone(() =>
          this.storeAt(op.store).putNamespace(record),
        );
        this.checkMint(result, existed, failedBefore);
        if (!existed)
          this.model.set(op.name, {
            origin: 'explicit',
            config: op.config,
            state: 'active',
            placement: null,
          });
        return;
      }
      case 'place': {
        const current = this.model.get(op.name);
        const { result } = await this.untilDone(() =>
          this.storeAt(op.store).setNamespacePlacement(op.name, op.placement),
        );
        if (current === undefined) return void expect(result).toBeNull();
        this.model.set(op.name, { ...current, placement: op.placement });
        this.observe(result!);
        return;
      }
      case 'deprecate': {
        const current = this.model.get(op.name);
        const { result } = await this.untilDone(() =>
          this.storeAt(op.store).deprecateNamespace(op.name),
        );
        if (current === undefined) return void expect(result).toBeNull();
        this.model.set(op.name, { ...current, state: 'deprecated' });
        this.observe(result!);
        return;
      }
      case 'get': {
        const { result } = await this.untilDone(() => this.storeAt(op.store).getNamespace(op.name));
        if (!this.model.has(op.name)) return void expect(result).toBeNull();
        this.observe(result!);
        return;
      }
      case 'list':
        await this.checkList(this.storeAt(op.store));
        return;
      case 'abandon':
        await this.abandonThenRetry(op.store, op.names);
    }
  }

  /** Each name's mint answers `created` exactly once across its failed call and its retry. */
  async abandonThenRetry(index: number, names: readonly [string, string]): Promise<void> {
    const store = this.storeAt(index);
    const existed = names.map((n) => this.model.has(n));
    const first: Array<MintOutcome | null> = [];
    for (const n of names) {
      for (const rule of UNKNOWN_MINT) this.io.inject(rule);
      try {
        first.push(await store.registerNamespace(n, 'minted'));
      } catch (error) {
        expect(FAULT_CODES).toContain((error as { code?: string }).code);
        exercised.abandonedMints++;
        first.push(null);
      }
      this.io.clear();
    }
    for (const i of [1, 0]) {
      const n = names[i]!;
      const { result } = await this.untilDone(() => store.registerNamespace(n, 'minted'));
      const answers = [first[i], result].filter(
        (a): a is MintOutcome => a !== null && a !== undefined,
      );
      expect(answers.filter((a) => a === 'created')).toHaveLength(existed[i] ? 0 : 1);
      if (answers.length === 2) expect(answers[1]).toBe('touched');
      if (!existed[i])
        this.model.set(n, { origin: 'minted', config: {}, state: 'active', placement: null });
    }
  }

  async checkList(reader: ObjectNamespaceStore): Promise<void> {
    const { result } = await this.untilDone(() => reader.listNamespaces());
    expect(result.map((record) => record.name).sort()).toEqual([...this.model.keys()].sort());
    for (const record of result) this.observe(record);
    const order = result.map((record) => [record.createdAt, record.name] as const);
    expect(order).toEqual(
      [...order].sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0)),
    );
  }
}

describe('ObjectNamespaceStore against a reference model, with injected faults', () => {
  it('never duplicates or loses a record, and reconciles failed mutations on retry', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 1, maxLength: 40 }), async (operations) => {
        const harness = new Harness();
        for (const op of operations) await harness.run(op);
        exercised.faultsFired += harness.io.fired;
        harness.io.clear();
        // A store that never saw any of it reads the same durable truth.
        await harness.checkList(
          new ObjectNamespaceStore({ io: harness.io, root: 'model', nodeId: 7 }),
        );
        // Exactly one created event per record, lost responses or not.
        expect([...harness.createdEvents].sort()).toEqual([...harness.model.keys()].sort());
      }),
      { numRuns: 150 },
    );
    expect(exercised.faultsFired).toBeGreaterThan(0);
    expect(exercised.failedCalls).toBeGreaterThan(0);
    expect(exercised.abandonedMints).toBeGreaterThan(0);
  });
});
