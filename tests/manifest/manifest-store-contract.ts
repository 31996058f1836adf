/**
 * The ManifestStore contract (seed 003, control.md "ManifestStore"): one suite every backend
 * runs. A lane opens a fresh, empty register and hands out clients of it, each its own store
 * instance as separate processes would have; lanes that can inject faults lose the responses
 * of some creates after they applied.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { isStorageError } from '../../src/main/engine/objectio/errors';
import {
  CellExistsError,
  ConflictError,
  DEFAULT_MAX_DIRECTORY_BYTES,
  KEPT_STATES,
  type ManifestStore,
  type ManifestVersion,
} from '../../src/main/engine/manifest/manifest-store';

export interface RegisterClient {
  readonly store: ManifestStore;
  /** Make the next create of this client apply but lose its response; absent: no faults. */
  loseNextCreate?(alsoFailReadBack: boolean): void;
  /** Faults fired on this client so far. */
  faultsFired?(): number;
}

export interface OpenRegister {
  /** Another client of the same register. */
  client(): RegisterClient;
  close?(): Promise<void>;
}

export interface ManifestStoreLane {
  readonly name: string;
  /** False when the lane is not available here (the suite is then skipped). */
  readonly available: boolean;
  open(): Promise<OpenRegister>;
  /** Successful increments per client in the linearizability runs (clean, faulty). */
  readonly increments: { clean: number; faulty: number };
}

const CLIENTS = 8;
/** Hundreds of contended requests on a real S3 sharing two cores: a ceiling, not a measure. */
const LINEARIZABILITY_TIMEOUT_MS = 180_000;

export function manifestStoreContract(lane: ManifestStoreLane): void {
  describe.skipIf(!lane.available)(`ManifestStore contract: ${lane.name}`, () => {
    const withRegister = (test: (register: OpenRegister) => Promise<void>) => async () => {
      const register = await lane.open();
      try {
        await test(register);
      } finally {
        await register.close?.();
      }
    };

    it(
      'reads null from a register never created',
      withRegister(async (register) => {
        expect(await register.client().store.read()).toBeNull();
      }),
    );

    it(
      'creates exactly once',
      withRegister(async (register) => {
        const a = register.client().store;
        const b = register.client().store;
        const created = await a.create({ 'cairn.writer_epoch': '1' });
        expect(created.fields).toEqual({ 'cairn.writer_epoch': '1' });
        const second = await b.create({ 'cairn.writer_epoch': '9' }).catch((e: unknown) => e);
        expect(second).toBeInstanceOf(CellExistsError);
        expect(second).toMatchObject({ code: 'AlreadyExists' });
        expect(await b.read()).toEqual(created);
      }),
    );

    it(
      'updates from the current version and refuses a stale one',
      withRegister(async (register) => {
        const a = register.client().store;
        const b = register.client().store;
        const first = await a.create({ k: '1' });
        const second = await b.update(first.version, { k: '2', extra: '{"json":true}' });
        expect(second.version).toBeGreaterThan(first.version);
        expect(await a.read()).toEqual(second);
        const stale = await a.update(first.version, { k: 'stale' }).catch((e: unknown) => e);
        expect(stale).toBeInstanceOf(ConflictError);
        expect(stale).toMatchObject({ code: 'Conflict' });
        expect(await b.read()).toEqual(second);
      }),
    );

    it(
      'refuses an update of a register never created',
      withRegister(async (register) => {
        const store = register.client().store;
        await expect(store.update(1 as ManifestVersion, { k: '1' })).rejects.toMatchObject({
          code: 'Conflict',
        });
        expect(await store.read()).toBeNull();
      }),
    );

    it(
      'orders updates with strictly increasing versions, and knows which is current',
      withRegister(async (register) => {
        const store = register.client().store;
        const observer = register.client().store;
        let state = await store.create({ n: '0' });
        const versions = [state.version];
        for (let n = 1; n <= 5; n++) {
          state = await store.update(state.version, { n: String(n) });
          versions.push(state.version);
        }
        expect(isStrictlyIncreasing(versions)).toBe(true);
        expect(await observer.isCurrent(state.version)).toBe(true);
        expect(await observer.isCurrent(versions[0] as ManifestVersion)).toBe(false);
        const history = await observer.history(3);
        expect(history.map((entry) => entry.fields.n)).toEqual(['5', '4', '3']);
        expect(history[0]?.version).toBe(state.version);
      }),
    );

    it(
      'prunes old states but never the newest 16',
      withRegister(async (register) => {
        const store = register.client().store;
        let state = await store.create({ n: '0' });
        for (let n = 1; n < KEPT_STATES + 4; n++)
          state = await store.update(state.version, { n: String(n) });
        expect(await store.prune(1)).toBe(4);
        const history = await store.history(100);
        expect(history).toHaveLength(KEPT_STATES);
        expect(history[0]).toMatchObject({ version: state.version, fields: state.fields });
        expect(await store.read()).toEqual(state);
      }),
    );

    it(
      'reports the default directory budget',
      withRegister(async (register) => {
        expect(register.client().store.maxDirectoryBytes()).toBe(DEFAULT_MAX_DIRECTORY_BYTES);
      }),
    );

    it(
      `is linearizable: ${CLIENTS} clients incrementing a counter lose and double nothing`,
      withRegister(async (register) => {
        await checkCounter(register, lane.increments.clean, { faults: false });
      }),
      LINEARIZABILITY_TIMEOUT_MS,
    );

    it(
      'is linearizable with lost create responses and a concurrent pruner',
      withRegister(async (register) => {
        await checkCounter(register, lane.increments.faulty, { faults: true });
      }),
      LINEARIZABILITY_TIMEOUT_MS,
    );
  });
}

interface Increment {
  readonly version: ManifestVersion;
  readonly counter: number;
}

async function checkCounter(
  register: OpenRegister,
  perClient: number,
  options: { faults: boolean },
): Promise<void> {
  const clients = Array.from({ length: CLIENTS }, () => register.client());
  const pruning = { done: false };
  const pruner = options.faults ? runPruner(register.client().store, pruning) : Promise.resolve();
  let results: Increment[][];
  try {
    results = await Promise.all(
      clients.map((client, index) =>
        incrementTimes(client, perClient, options.faults ? index : null),
      ),
    );
  } finally {
    pruning.done = true;
    await pruner;
  }
  const all = results.flat().sort((a, b) => a.version - b.version);
  const total = CLIENTS * perClient;
  expect(all).toHaveLength(total);
  expect(new Set(all.map((i) => i.version)).size).toBe(total);
  // In version order the writes are exactly 1..total: every increment read its predecessor.
  expect(all.map((i) => i.counter)).toEqual(Array.from({ length: total }, (_, i) => i + 1));
  for (const own of results) expect(isStrictlyIncreasing(own.map((i) => i.version))).toBe(true);
  const final = await register.client().store.read();
  expect(final?.fields.counter).toBe(String(total));
  if (options.faults && clients[0]?.faultsFired !== undefined) {
    expect(clients.reduce((sum, c) => sum + (c.faultsFired?.() ?? 0), 0)).toBeGreaterThan(0);
  }
}

/** Read-modify-write `counter` until `times` updates succeeded; re-decide on Conflict. */
async function incrementTimes(
  client: RegisterClient,
  times: number,
  faultSeed: number | null,
): Promise<Increment[]> {
  const done: Increment[] = [];
  for (let attempt = 0; done.length < times; attempt++) {
    const state = await transient(() => client.store.read());
    if (state === null) {
      await transient(() => client.store.create({ counter: '0' })).catch(ignoreLost);
      continue;
    }
    const counter = Number(state.fields.counter) + 1;
    if (faultSeed !== null && (attempt + faultSeed) % 3 === 0)
      client.loseNextCreate?.((attempt + faultSeed) % 2 === 0);
    // Unavailable: retried as-is, which the seed allows and which must never apply twice.
    const next = await transient(() =>
      client.store.update(state.version, { counter: String(counter) }),
    ).catch(ignoreLost);
    if (next !== null) done.push({ version: next.version, counter: Number(next.fields.counter) });
  }
  return done;
}

async function transient<T>(call: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await call();
    } catch (error) {
      if (!isStorageError(error, 'Unavailable')) throw error;
    }
  }
}

function ignoreLost(error: unknown): null {
  if (error instanceof ConflictError || error instanceof CellExistsError) return null;
  throw error;
}

async function runPruner(store: ManifestStore, pruning: { done: boolean }): Promise<void> {
  while (!pruning.done) {
    await transient(() => store.prune());
    await sleep(5);
  }
}

function isStrictlyIncreasing(versions: readonly number[]): boolean {
  return versions.every((v, i) => i === 0 || v > (versions[i - 1] as number));
}
