/**
 * The namespace procedures through the real router and services over a temp local store:
 * read-only refusal, the operations of the spec, the created event exactly once, bad input
 * refused (by the contract or, for the engine's finer rules, by the engine, typed), and
 * NotOwner surfaced with its fields.
 */
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ObjectNamespaceStore } from '../../src/main/engine/namespaces';
import { explainNotOwner } from '../../src/shared/contract/namespaces';
import { shardPhrase } from '../../src/shared/contract/confirmations';
import {
  CONNECTION,
  failureOf,
  makeNamespaceApi,
  steppedClock,
  type NamespaceApi,
} from './support';

// The router validates against the merged contract. Until `namespaceProcedures` is wired into
// `src/shared/contract/index.ts` this adds them; once wired, it changes nothing.
vi.mock('../../src/shared/contract', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../src/shared/contract')>();
  const { namespaceProcedures } = await import('../../src/shared/contract/namespaces');
  const contract = { ...actual.contract, ...namespaceProcedures };
  return {
    ...actual,
    contract,
    isProcedureName: (name: unknown) => typeof name === 'string' && Object.hasOwn(contract, name),
  };
});

const MUTATIONS: ReadonlyArray<[string, Record<string, unknown>]> = [
  ['namespaces.register', { name: 'orders' }],
  ['namespaces.put', { name: 'orders', config: { retention: 7 } }],
  ['namespaces.setPlacement', { name: 'orders', placement: { region: 'eu' } }],
  ['namespaces.deprecate', { name: 'orders' }],
  ['namespaces.takeOwnership', { shard: 0 }],
];

let clock: ReturnType<typeof steppedClock>;
let api: NamespaceApi;
beforeEach(async () => {
  clock = steppedClock();
  api = await makeNamespaceApi(clock.now);
});
afterEach(() => api.dispose());

describe('a read-only connection', () => {
  it.each(MUTATIONS)('refuses %s in the main process and writes nothing', async (name, input) => {
    const failure = await failureOf(api.call(name, input));
    expect(failure).toMatchObject({
      code: 'ReadOnly',
      details: { connectionId: CONNECTION, action: name },
    });
    expect(await api.call('namespaces.list', {})).toEqual([]);
    expect(await api.call('namespaces.shards', {})).toEqual([]);
    expect(api.created).toEqual([]);
  });

  it('still answers the read procedures', async () => {
    await api.operator(true);
    await api.call('namespaces.register', { name: 'orders' });
    await api.operator(false);
    expect(await api.call('namespaces.get', { name: 'orders' })).toMatchObject({
      name: 'orders',
      origin: 'minted',
    });
    expect(await api.call('namespaces.list', {})).toHaveLength(1);
    expect(await api.call('namespaces.shards', {})).toHaveLength(16);
  });
});

describe('an operator connection', () => {
  beforeEach(() => api.operator(true));

  it('registers: created, then touched (lastSeen refreshed, origin kept)', async () => {
    expect(await api.call('namespaces.register', { name: 'orders' })).toBe('created');
    clock.advance(5);
    expect(await api.call('namespaces.register', { name: 'orders', origin: 'explicit' })).toBe(
      'touched',
    );
    const record = await api.call('namespaces.get', { name: 'orders' });
    expect(record).toMatchObject({
      name: 'orders',
      origin: 'minted',
      state: 'active',
      createdAt: clock.now() - 5,
      lastSeen: clock.now(),
      config: {},
      placement: null,
    });
    expect((record as { shard: number }).shard).toBe(
      await api.namespaces.get(CONNECTION, 'orders').then((found) => found?.shard),
    );
  });

  it('emits namespaces.created exactly once per minted record, even under racing registers', async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, () => api.call('namespaces.register', { name: 'raced' })),
    );
    expect(outcomes.filter((outcome) => outcome === 'created')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'touched')).toHaveLength(5);
    await api.call('namespaces.put', { name: 'raced', config: { a: 1 } });
    await api.call('namespaces.put', { name: 'explicit-one', config: { a: 1 } });
    await api.call('namespaces.put', { name: 'explicit-one', config: { a: 2 } });
    expect(
      api.created.map((event) => [
        event.type,
        event.connectionId,
        event.record.name,
        event.record.origin,
      ]),
    ).toEqual([
      ['namespaces.created', CONNECTION, 'raced', 'minted'],
      ['namespaces.created', CONNECTION, 'explicit-one', 'explicit'],
    ]);
  });

  it('puts an explicit record with its config and placement; a second put only touches', async () => {
    const config = { retention: { days: 7 }, tags: ['a', 'b'], compacted: true };
    expect(
      await api.call('namespaces.put', {
        name: 'team/billing:v1',
        config,
        placement: { tier: 'hot' },
      }),
    ).toBe('created');
    clock.advance();
    expect(
      await api.call('namespaces.put', { name: 'team/billing:v1', config: { other: 1 } }),
    ).toBe('touched');
    expect(await api.call('namespaces.get', { name: 'team/billing:v1' })).toMatchObject({
      origin: 'explicit',
      config,
      placement: { tier: 'hot' },
      lastSeen: clock.now(),
    });
    expect(api.created[0]?.record).toMatchObject({
      name: 'team/billing:v1',
      config,
      placement: { tier: 'hot' },
    });
  });

  it('lists by createdAt, ties by name, each with its shard', async () => {
    await api.call('namespaces.register', { name: 'zeta' });
    await api.call('namespaces.register', { name: 'alpha' });
    clock.advance();
    await api.call('namespaces.register', { name: 'beta' });
    const listed = (await api.call('namespaces.list', {})) as Array<{
      name: string;
      shard: number;
    }>;
    expect(listed.map((record) => record.name)).toEqual(['alpha', 'zeta', 'beta']);
    for (const record of listed)
      expect(record.shard).toBe(
        await new ObjectNamespaceStore(await api.services.connections.io(CONNECTION)).shardOf(
          record.name,
        ),
      );
  });

  it('sets placement (null when absent, nothing minted) and deprecates', async () => {
    expect(
      await api.call('namespaces.setPlacement', { name: 'missing', placement: { region: 'eu' } }),
    ).toBeNull();
    expect(
      await api.call('namespaces.deprecate', { name: 'missing', confirm: 'missing' }),
    ).toBeNull();
    expect(await api.call('namespaces.list', {})).toEqual([]);
    await api.call('namespaces.register', { name: 'orders' });
    const placed = await api.call('namespaces.setPlacement', {
      name: 'orders',
      placement: { node: 'n1', region: 'eu', tier: 'cold', pinned: true },
    });
    expect(placed).toMatchObject({
      placement: { node: 'n1', region: 'eu', tier: 'cold', pinned: true },
    });
    expect(
      await api.call('namespaces.setPlacement', { name: 'orders', placement: null }),
    ).toMatchObject({ placement: null });
    expect(
      await api.call('namespaces.deprecate', { name: 'orders', confirm: 'orders' }),
    ).toMatchObject({
      state: 'deprecated',
    });
    expect(
      await api.call('namespaces.deprecate', { name: 'orders', confirm: 'orders' }),
    ).toMatchObject({
      state: 'deprecated',
    });
    expect(api.created).toHaveLength(1);
  });

  it('describes shards: owner, version and record count', async () => {
    await api.call('namespaces.register', { name: 'orders' });
    const shard = (await api.namespaces.get(CONNECTION, 'orders'))!.shard;
    const shards = (await api.call('namespaces.shards', {})) as Array<{
      shard: number;
      owner: unknown;
      version: number | null;
      records: number;
    }>;
    expect(shards.map((info) => info.shard)).toEqual(
      Array.from({ length: 16 }, (_, index) => index),
    );
    expect(shards[shard]).toEqual({
      shard,
      owner: { nodeId: 0, ownerEpoch: 1 },
      version: 1,
      records: 1,
      damage: null,
    });
    expect(shards.filter((info) => info.owner === null)).toHaveLength(15);
  });

  it('audits every operator action with its target', async () => {
    await api.call('namespaces.register', { name: 'orders' });
    await failureOf(api.call('namespaces.register', { name: '/bad' }));
    const lines = (await readFile(api.services.audit.file, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      // Each call's entry written ahead of it ('started') is answered by its outcome.
      .filter((line) => line.result !== 'started');
    expect(lines.map((line) => [line.action, line.target, line.result])).toEqual([
      ['namespaces.register', 'orders', 'ok'],
      ['namespaces.register', '/bad', 'error'],
    ]);
  });
});

describe('bad input', () => {
  beforeEach(() => api.operator(true));

  const tooBig = { blob: 'x'.repeat(64 * 1024) };
  it.each<
    [string, string, Record<string, unknown>, { code: string; details: Record<string, unknown> }]
  >([
    [
      'an empty name',
      'namespaces.register',
      { name: '' },
      { code: 'InvalidInput', details: { field: 'name' } },
    ],
    [
      'a 256-character name',
      'namespaces.register',
      { name: 'n'.repeat(256) },
      { code: 'InvalidInput', details: { field: 'name' } },
    ],
    [
      'a space in the name',
      'namespaces.put',
      { name: 'a b', config: {} },
      { code: 'InvalidInput', details: { field: 'name' } },
    ],
    [
      'a non-ASCII name',
      'namespaces.deprecate',
      { name: 'café' },
      { code: 'InvalidInput', details: { field: 'name' } },
    ],
    [
      'a leading slash',
      'namespaces.register',
      { name: '/team' },
      { code: 'InvalidName', details: { rule: 'leading-slash', namespace: '/team' } },
    ],
    [
      'a parent segment',
      'namespaces.put',
      { name: 'team/../x', config: {} },
      { code: 'InvalidName', details: { rule: 'dot-dot' } },
    ],
    [
      'an unknown origin',
      'namespaces.register',
      { name: 'ok', origin: 'forged' },
      { code: 'InvalidInput', details: { field: 'origin' } },
    ],
    [
      'a config array',
      'namespaces.put',
      { name: 'ok', config: [1, 2] },
      { code: 'InvalidInput', details: { field: 'config' } },
    ],
    [
      'a config string',
      'namespaces.put',
      { name: 'ok', config: '{}' },
      { code: 'InvalidInput', details: { field: 'config' } },
    ],
    [
      'a config over 64 KiB',
      'namespaces.put',
      { name: 'ok', config: tooBig },
      { code: 'InvalidInput', details: { field: 'config' } },
    ],
    [
      'a config with a Date',
      'namespaces.put',
      { name: 'ok', config: { at: new Date(0) } },
      { code: 'InvalidConfig', details: { reason: 'not-json', namespace: 'ok' } },
    ],
    [
      'a config with a NaN',
      'namespaces.put',
      { name: 'ok', config: { n: Number.NaN } },
      { code: 'InvalidConfig', details: { reason: 'not-json' } },
    ],
    [
      'an unknown placement field',
      'namespaces.setPlacement',
      { name: 'ok', placement: { zone: 'a' } },
      { code: 'InvalidInput', details: { field: 'placement' } },
    ],
    [
      'a non-boolean pinned',
      'namespaces.setPlacement',
      { name: 'ok', placement: { pinned: 'yes' } },
      { code: 'InvalidInput', details: { field: 'placement.pinned' } },
    ],
    [
      'an empty region',
      'namespaces.put',
      { name: 'ok', config: {}, placement: { region: '' } },
      { code: 'InvalidInput', details: { field: 'placement.region' } },
    ],
    [
      'a negative shard',
      'namespaces.takeOwnership',
      { shard: -1 },
      { code: 'InvalidInput', details: { field: 'shard' } },
    ],
    [
      'a fractional shard',
      'namespaces.takeOwnership',
      { shard: 1.5 },
      { code: 'InvalidInput', details: { field: 'shard' } },
    ],
    [
      'a shard beyond the count',
      'namespaces.takeOwnership',
      { shard: 16, confirm: 'shard 16' },
      { code: 'InvalidShard', details: { shard: 16 } },
    ],
    [
      'an unknown field',
      'namespaces.register',
      { name: 'ok', force: true },
      { code: 'InvalidInput', details: { field: '' } },
    ],
  ])('refuses %s, typed, and mints nothing', async (_label, procedure, input, expected) => {
    expect(await failureOf(api.call(procedure, input))).toMatchObject(expected);
    expect(await api.call('namespaces.list', {})).toEqual([]);
    expect(api.created).toEqual([]);
  });

  it('refuses a missing connection id before any handler runs', async () => {
    expect(await failureOf(api.router.call('namespaces.list', {}))).toMatchObject({
      code: 'InvalidInput',
      details: { field: 'connectionId' },
    });
    expect(
      await failureOf(api.router.call('namespaces.register', { connectionId: 'nope', name: 'x' })),
    ).toMatchObject({ code: 'ReadOnly' });
    expect(
      await failureOf(api.router.call('namespaces.list', { connectionId: 'nope' })),
    ).toMatchObject({ code: 'ConnectionNotFound' });
  });
});

describe('a shard another node took', () => {
  beforeEach(() => api.operator(true));

  it('fences this app with a typed NotOwner until it takes the shard back', async () => {
    await api.call('namespaces.register', { name: 'orders' });
    const shard = (await api.namespaces.get(CONNECTION, 'orders'))!.shard;
    const otherNode = new ObjectNamespaceStore({
      ...(await api.services.connections.io(CONNECTION)),
      nodeId: 2,
    });
    expect(await otherNode.takeOwnership(shard)).toEqual({ nodeId: 2, ownerEpoch: 2 });

    for (const [procedure, input] of [
      ['namespaces.setPlacement', { name: 'orders', placement: { region: 'eu' } }],
      ['namespaces.deprecate', { name: 'orders', confirm: 'orders' }],
      ['namespaces.register', { name: 'orders' }],
    ] as const) {
      const failure = await failureOf(api.call(procedure, input));
      expect(failure).toMatchObject({
        code: 'NotOwner',
        details: { namespace: 'orders', shard, nodeId: 0, ownerNodeId: 2, ownerEpoch: 2 },
      });
      expect(explainNotOwner(failure.details)).toContain(
        `shard ${String(shard).padStart(2, '0')} is owned by node 2 (epoch 2); take ownership to write here`,
      );
    }
    expect(await api.call('namespaces.get', { name: 'orders' })).toMatchObject({
      state: 'active',
      placement: null,
    });

    expect(
      await api.call('namespaces.takeOwnership', { shard, confirm: shardPhrase(shard) }),
    ).toEqual({
      nodeId: 0,
      ownerEpoch: 3,
    });
    expect(
      await api.call('namespaces.deprecate', { name: 'orders', confirm: 'orders' }),
    ).toMatchObject({
      state: 'deprecated',
    });
    await expect(otherNode.deprecateNamespace('orders')).rejects.toMatchObject({
      code: 'NotOwner',
      details: { ownerNodeId: 0, ownerEpoch: 3 },
    });
  });
});
