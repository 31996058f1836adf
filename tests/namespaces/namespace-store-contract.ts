/**
 * The NamespaceStore contract (spec namespaces.md), run against every ObjectIo backend: each
 * operation's rules, the durable layout, the bad-input table (typed error, nothing written),
 * and the races: concurrent mints, concurrent placements, a shard taken by another node.
 */
import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { CasCell } from '../../src/main/engine/cas/cas-cell';
import {
  ObjectNamespaceStore,
  type ObjectNamespaceStoreOptions,
} from '../../src/main/engine/namespaces/object-namespace-store';
import type { NamespaceRecord } from '../../src/main/engine/namespaces/record';
import { shardLabel, shardOfName } from '../../src/main/engine/namespaces/shard-hash';
import { objectsUnder, type ObjectIo } from '../../src/main/engine/objectio/object-io';
import { BAD_CONFIGS, BAD_NAMES, BAD_PLACEMENTS } from './bad-input';

export interface ContractBackend {
  /** One ObjectIo for the whole suite; every test works under its own root. */
  makeIo(): Promise<ObjectIo>;
}

/** A clock that ticks once per reading, so every decision gets its own instant. */
export function tickingClock(start = 1_000): () => number {
  let now = start;
  return () => now++;
}

async function keysUnder(io: ObjectIo, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const object of objectsUnder(io, prefix)) keys.push(object.key);
  return keys.sort();
}

/** Fails unless every action rejects matching `error` and the root's objects stay exactly as they were. */
async function expectRefusedWithoutWrite(
  io: ObjectIo,
  root: string,
  actions: ReadonlyArray<() => Promise<unknown>>,
  error: Record<string, unknown>,
): Promise<void> {
  const before = await keysUnder(io, `${root}/`);
  for (const action of actions) await expect(action()).rejects.toMatchObject(error);
  expect(await keysUnder(io, `${root}/`)).toEqual(before);
}

export function namespaceStoreContract(label: string, backend: ContractBackend | null): void {
  describe.skipIf(backend === null)(`NamespaceStore contract on ${label}`, () => {
    let io: ObjectIo;
    beforeAll(async () => {
      io = await backend!.makeIo();
    });

    /** A fresh registry root and a store factory bound to it. */
    function fixture(defaults: Partial<ObjectNamespaceStoreOptions> = {}) {
      const root = `t-${randomBytes(6).toString('hex')}`;
      const clock = defaults.clock ?? tickingClock();
      const open = (options: Partial<ObjectNamespaceStoreOptions> = {}): ObjectNamespaceStore =>
        new ObjectNamespaceStore({ io, root, clock, ...defaults, ...options });
      const shardCell = (shard: number): CasCell =>
        new CasCell(io, `${root}/namespaces/shards/${shardLabel(shard)}`);
      return { root, open, shardCell, keys: () => keysUnder(io, `${root}/`) };
    }

    describe('registerNamespace', () => {
      it('creates once, then touches: lastSeen refreshed, origin and createdAt untouched', async () => {
        const created: NamespaceRecord[] = [];
        const { open } = fixture();
        const store = open({ onCreated: (record) => created.push(record) });
        expect(await store.registerNamespace('team.a', 'minted')).toBe('created');
        const first = await store.getNamespace('team.a');
        expect(first).toEqual({
          name: 'team.a',
          origin: 'minted',
          createdAt: first!.createdAt,
          lastSeen: first!.createdAt,
          config: {},
          state: 'active',
          placement: null,
        });
        expect(created).toEqual([first]);

        expect(await store.registerNamespace('team.a', 'explicit')).toBe('touched');
        const second = await store.getNamespace('team.a');
        expect(second).toEqual({ ...first, lastSeen: second!.lastSeen });
        expect(second!.lastSeen).toBeGreaterThan(first!.lastSeen);
        expect(created).toHaveLength(1);
      });

      it('touches a deprecated record without reviving it', async () => {
        const store = fixture().open();
        await store.registerNamespace('old', 'minted');
        await store.deprecateNamespace('old');
        expect(await store.registerNamespace('old', 'minted')).toBe('touched');
        expect((await store.getNamespace('old'))!.state).toBe('deprecated');
      });
    });

    describe('putNamespace', () => {
      const given: NamespaceRecord = {
        name: 'orders/eu',
        origin: 'explicit',
        createdAt: 500,
        lastSeen: 500,
        config: { retention: '7d', replicas: 3 },
        state: 'active',
        placement: { region: 'eu', pinned: true },
      };

      it('creates the record exactly as given', async () => {
        const created: NamespaceRecord[] = [];
        const store = fixture().open({ onCreated: (record) => created.push(record) });
        expect(await store.putNamespace(given)).toBe('created');
        expect(await store.getNamespace(given.name)).toEqual(given);
        expect(created).toEqual([given]);
      });

      it('on a present record refreshes only lastSeen and overwrites nothing else', async () => {
        const store = fixture().open();
        await store.registerNamespace(given.name, 'minted');
        const minted = await store.getNamespace(given.name);
        expect(await store.putNamespace(given)).toBe('touched');
        const after = await store.getNamespace(given.name);
        expect(after).toEqual({ ...minted, lastSeen: after!.lastSeen });
        expect(after!.lastSeen).toBeGreaterThan(minted!.lastSeen);
      });
    });

    describe('listNamespaces and getNamespace', () => {
      it('lists ascending by createdAt, ties by name, across shards', async () => {
        const store = fixture().open();
        const at = (name: string, createdAt: number): NamespaceRecord => ({
          name,
          origin: 'explicit',
          createdAt,
          lastSeen: createdAt,
          config: {},
          state: 'active',
          placement: null,
        });
        for (const record of [
          at('zeta', 30),
          at('beta', 10),
          at('alpha', 30),
          at('gamma', 20),
          at('delta', 10),
        ]) {
          await store.putNamespace(record);
        }
        expect((await store.listNamespaces()).map((record) => record.name)).toEqual([
          'beta',
          'delta',
          'gamma',
          'alpha',
          'zeta',
        ]);
      });

      it('lists deprecated records too: filtering is above the store', async () => {
        const store = fixture().open();
        await store.registerNamespace('a', 'minted');
        await store.registerNamespace('b', 'explicit');
        await store.deprecateNamespace('a');
        expect((await store.listNamespaces()).map((record) => [record.name, record.state])).toEqual(
          [
            ['a', 'deprecated'],
            ['b', 'active'],
          ],
        );
      });

      it('answers an empty registry without writing anything', async () => {
        const { open, keys } = fixture();
        const store = open();
        expect(await store.listNamespaces()).toEqual([]);
        expect(await store.getNamespace('nobody')).toBeNull();
        expect(await store.describeShards()).toEqual([]);
        expect(await keys()).toEqual([]);
      });

      it('answers null for an absent name in a populated registry', async () => {
        const store = fixture().open();
        await store.registerNamespace('present', 'minted');
        expect(await store.getNamespace('absent')).toBeNull();
      });

      it('is read by another store instance (durable, not cached)', async () => {
        const { open } = fixture();
        await open().registerNamespace('shared', 'explicit');
        expect((await open({ nodeId: 9 }).getNamespace('shared'))!.origin).toBe('explicit');
      });
    });

    describe('setNamespacePlacement', () => {
      it('answers null for an absent name and mints nothing', async () => {
        const { open, keys } = fixture();
        const store = open();
        expect(await store.setNamespacePlacement('ghost', { node: 'n1' })).toBeNull();
        expect(await keys()).toEqual([]);
        await store.registerNamespace('real', 'minted');
        const before = await keys();
        expect(await store.setNamespacePlacement('ghost', { node: 'n1' })).toBeNull();
        expect(await store.getNamespace('ghost')).toBeNull();
        expect(await keys()).toEqual(before);
      });

      it('changes only placement and lastSeen', async () => {
        const store = fixture().open();
        await store.putNamespace({
          name: 'p',
          origin: 'explicit',
          createdAt: 1,
          lastSeen: 1,
          config: { a: 1 },
          state: 'active',
          placement: null,
        });
        const updated = await store.setNamespacePlacement('p', { node: 'n2', tier: 'hot' });
        expect(updated).toEqual({
          name: 'p',
          origin: 'explicit',
          createdAt: 1,
          lastSeen: updated!.lastSeen,
          config: { a: 1 },
          state: 'active',
          placement: { node: 'n2', tier: 'hot' },
        });
        expect(updated!.lastSeen).toBeGreaterThan(1);
        expect(await store.getNamespace('p')).toEqual(updated);
      });

      it('writes nothing at all when the record already holds that placement', async () => {
        const { open, shardCell, keys } = fixture();
        const store = open();
        await store.registerNamespace('p', 'minted');
        const placed = await store.setNamespacePlacement('p', { region: 'us', pinned: false });
        const version = (await shardCell((await store.shardOf('p'))!).read())!.version;
        const before = await keys();
        expect(await store.setNamespacePlacement('p', { pinned: false, region: 'us' })).toEqual(
          placed,
        );
        expect((await shardCell((await store.shardOf('p'))!).read())!.version).toBe(version);
        expect(await keys()).toEqual(before);
      });
    });

    describe('deprecateNamespace', () => {
      it('moves active to deprecated, changing nothing else, and is idempotent', async () => {
        const { open, keys } = fixture();
        const store = open();
        await store.registerNamespace('d', 'minted');
        const before = await store.getNamespace('d');
        expect(await store.deprecateNamespace('d')).toEqual({ ...before, state: 'deprecated' });
        const written = await keys();
        expect(await store.deprecateNamespace('d')).toEqual({ ...before, state: 'deprecated' });
        expect(await keys()).toEqual(written);
      });

      it('is a no-op for an absent name', async () => {
        const { open, keys } = fixture();
        const store = open();
        expect(await store.deprecateNamespace('absent')).toBeNull();
        expect(await keys()).toEqual([]);
      });
    });

    describe('durable layout', () => {
      it('keeps meta and shard cells under <root>/namespaces, the shard being FNV-1a 64 mod count', async () => {
        const { root, open, keys } = fixture();
        const store = open();
        await store.registerNamespace('team.a', 'minted');
        const shard = shardOfName('team.a', 16);
        expect(await store.shardOf('team.a')).toBe(shard);
        expect(await keys()).toEqual([
          `${root}/namespaces/meta/00000000000000000001.json`,
          `${root}/namespaces/shards/${shardLabel(shard)}/00000000000000000001.json`,
        ]);
        const meta = await new CasCell(io, `${root}/namespaces/meta`).read();
        expect(meta!.fields).toEqual({ hash: 'fnv1a64', shardCount: '16' });
      });

      it('reads the shard count from meta, never assumes it', async () => {
        const { open } = fixture();
        await open({ shardCount: 5 }).registerNamespace('x', 'minted');
        const other = open({ shardCount: 16 });
        expect(await other.shardOf('team.a')).toBe(shardOfName('team.a', 5));
        expect(await other.registerNamespace('x', 'minted')).toBe('touched');
        expect((await other.describeShards()).map((info) => info.shard)).toEqual([0, 1, 2, 3, 4]);
      });

      it('agrees on one meta when stores race to create it', async () => {
        const { open } = fixture();
        const stores = [3, 4, 5, 6, 7, 8].map((shardCount) => open({ shardCount }));
        await Promise.all(
          stores.map((store, index) => store.registerNamespace(`n${index}`, 'minted')),
        );
        const counts = await Promise.all(
          stores.map(async (store) => (await store.describeShards()).length),
        );
        expect(new Set(counts).size).toBe(1);
        expect((await open().listNamespaces()).map((record) => record.name).sort()).toEqual([
          'n0',
          'n1',
          'n2',
          'n3',
          'n4',
          'n5',
        ]);
      });
    });

    describe('bad input: a typed error and nothing written', () => {
      // Refused input never reaches storage, so one registry serves the whole table.
      let root: string;
      let store: ObjectNamespaceStore;
      beforeAll(async () => {
        const shared = fixture();
        root = shared.root;
        store = shared.open();
        await store.registerNamespace('existing', 'minted');
      });

      /** A record as an untyped caller could send it, with one field replaced. */
      const sent = (fields: Record<string, unknown>): NamespaceRecord =>
        ({
          name: 'fresh',
          origin: 'explicit',
          createdAt: 1,
          lastSeen: 1,
          config: {},
          state: 'active',
          placement: null,
          ...fields,
        }) as unknown as NamespaceRecord;

      it.each(BAD_NAMES)('every operation refuses $label ($rule)', async ({ name, rule }) => {
        await expectRefusedWithoutWrite(
          io,
          root,
          [
            () => store.registerNamespace(name, 'minted'),
            () => store.putNamespace(sent({ name })),
            () => store.getNamespace(name),
            () => store.setNamespacePlacement(name, null),
            () => store.deprecateNamespace(name),
          ],
          { code: 'InvalidName', rule },
        );
      });

      it.each(BAD_CONFIGS)('put refuses $label ($reason)', async ({ config, reason }) => {
        await expectRefusedWithoutWrite(io, root, [() => store.putNamespace(sent({ config }))], {
          code: 'InvalidConfig',
          reason,
          details: { namespace: 'fresh' },
        });
      });

      it.each(BAD_PLACEMENTS)('placement and put refuse $label', async ({ placement }) => {
        await expectRefusedWithoutWrite(
          io,
          root,
          [
            () => store.putNamespace(sent({ placement })),
            () =>
              store.setNamespacePlacement('existing', placement as NamespaceRecord['placement']),
          ],
          { code: 'InvalidPlacement' },
        );
      });

      it('register refuses an unknown origin', async () => {
        await expectRefusedWithoutWrite(
          io,
          root,
          [() => store.registerNamespace('fresh', 'adopted' as 'minted')],
          {
            code: 'InvalidRecord',
            field: 'origin',
          },
        );
      });
    });

    describe('races', () => {
      it('16 concurrent registers of one name through separate stores: one created, all succeed', async () => {
        const { open } = fixture();
        const created: NamespaceRecord[] = [];
        const stores = Array.from({ length: 16 }, () =>
          open({ onCreated: (record) => created.push(record) }),
        );
        const outcomes = await Promise.all(
          stores.map((store) => store.registerNamespace('hot', 'minted')),
        );
        expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === 'touched')).toHaveLength(15);
        expect(created).toHaveLength(1);
        const listed = await open().listNamespaces();
        expect(listed).toHaveLength(1);
        expect(listed[0]).toMatchObject({
          name: 'hot',
          createdAt: created[0]!.createdAt,
          origin: 'minted',
        });
      });

      it('concurrent placements: the last swap wins and nothing else in the record changes', async () => {
        const { open } = fixture();
        await open().putNamespace({
          name: 'p',
          origin: 'explicit',
          createdAt: 7,
          lastSeen: 7,
          config: { k: 'v' },
          state: 'active',
          placement: null,
        });
        const placements = Array.from({ length: 8 }, (_, index) => ({ node: `node-${index}` }));
        const answers = await Promise.all(
          placements.map((placement) => open().setNamespacePlacement('p', placement)),
        );
        const final = await open().getNamespace('p');
        expect(final).toMatchObject({
          name: 'p',
          origin: 'explicit',
          createdAt: 7,
          config: { k: 'v' },
          state: 'active',
        });
        // Every decision read its own instant, so the last swap is the answer whose lastSeen survived.
        const last = answers.filter((answer) => answer!.lastSeen === final!.lastSeen);
        expect(last).toHaveLength(1);
        expect(final).toEqual(last[0]);
        expect(placements).toContainEqual(final!.placement);
      });

      it('a node whose shard was taken gets NotOwner and writes nothing', async () => {
        const { root, open } = fixture();
        const first = open({ nodeId: 0 });
        const second = open({ nodeId: 1 });
        await first.registerNamespace('owned', 'minted');
        const shard = (await first.shardOf('owned'))!;
        expect((await first.describeShards()).find((info) => info.shard === shard)!.owner).toEqual({
          nodeId: 0,
          ownerEpoch: 1,
        });

        expect(await second.takeOwnership(shard)).toEqual({ nodeId: 1, ownerEpoch: 2 });
        await expectRefusedWithoutWrite(
          io,
          root,
          [
            () => first.registerNamespace('owned', 'minted'),
            () => first.setNamespacePlacement('owned', { node: 'x' }),
            () => first.deprecateNamespace('owned'),
            () =>
              first.putNamespace({
                name: 'owned',
                origin: 'explicit',
                createdAt: 1,
                lastSeen: 1,
                config: {},
                state: 'active',
                placement: null,
              }),
          ],
          {
            code: 'NotOwner',
            details: { namespace: 'owned', shard, nodeId: 0, ownerNodeId: 1, ownerEpoch: 2 },
          },
        );
        // Reads are not fenced, and the new owner writes.
        expect((await first.getNamespace('owned'))!.state).toBe('active');
        expect(await second.deprecateNamespace('owned')).toMatchObject({ state: 'deprecated' });
        // Taking it back raises the epoch again.
        expect(await first.takeOwnership(shard)).toEqual({ nodeId: 0, ownerEpoch: 3 });
        expect(await first.registerNamespace('owned', 'minted')).toBe('touched');
      });

      it('a shard created on first use belongs to its creator', async () => {
        const { open } = fixture();
        const creator = open({ nodeId: 4 });
        await creator.registerNamespace('mine', 'minted');
        const shard = (await creator.shardOf('mine'))!;
        await expect(open({ nodeId: 5 }).registerNamespace('mine', 'minted')).rejects.toMatchObject(
          { code: 'NotOwner' },
        );
        expect((await creator.describeShards()).find((info) => info.shard === shard)).toMatchObject(
          {
            owner: { nodeId: 4, ownerEpoch: 1 },
            records: 1,
          },
        );
      });

      it('refuses to take a shard the registry does not have', async () => {
        const store = fixture().open({ shardCount: 4 });
        await expect(store.takeOwnership(4)).rejects.toMatchObject({ code: 'InvalidShard' });
        await expect(store.takeOwnership(-1)).rejects.toMatchObject({ code: 'InvalidShard' });
      });
    });
  });
}
