import { describe, expect, it } from 'vitest';
import {
  decodeMeta,
  decodeOwner,
  encodeMeta,
  encodeRecord,
  recordIn,
  recordsIn,
  withOwner,
  withRecord,
} from '../../src/main/engine/namespaces/shard-codec';
import type { CellFields } from '../../src/main/engine/cas/cell-snapshot';
import { thrownBy } from './thrown';
import { mintedRecord } from '../../src/main/engine/namespaces/decisions';
import type { NamespaceRecord } from '../../src/main/engine/namespaces/record';

const record: NamespaceRecord = {
  name: 'team.a',
  origin: 'explicit',
  createdAt: 1,
  lastSeen: 2,
  config: { b: 1, a: [true] },
  state: 'active',
  placement: { tier: 'hot', node: 'n1' },
};

describe('shard fields', () => {
  it('encodes a record deterministically, whatever the key order it came in', () => {
    const shuffled = {
      placement: { node: 'n1', tier: 'hot' },
      state: 'active',
      config: { a: [true], b: 1 },
      lastSeen: 2,
      createdAt: 1,
      origin: 'explicit',
      name: 'team.a',
    } as const;
    expect(encodeRecord(shuffled)).toBe(encodeRecord(record));
    expect(encodeRecord(record)).toBe(
      '{"config":{"a":[true],"b":1},"createdAt":1,"lastSeen":2,"name":"team.a","origin":"explicit","placement":{"node":"n1","tier":"hot"},"state":"active"}',
    );
  });

  it('round-trips records and owner through fields in a fixed order', () => {
    const fields = withRecord(
      withRecord(withOwner({}, { nodeId: 2, ownerEpoch: 3 }), record),
      mintedRecord('alpha', 'minted', 5),
    );
    expect(Object.keys(fields)).toEqual(['ns:alpha', 'ns:team.a', 'owner']);
    expect(decodeOwner(fields, { namespace: null, shard: 0 })).toEqual({
      nodeId: 2,
      ownerEpoch: 3,
    });
    expect(recordIn(fields, 'team.a', 0)).toEqual(record);
    expect(recordIn(fields, 'absent', 0)).toBeNull();
    expect(recordsIn(fields, 0).map((found) => found.name)).toEqual(['alpha', 'team.a']);
  });

  it('carries fields it does not know through an update', () => {
    const fields = withRecord(
      { owner: '{"nodeId":0,"ownerEpoch":1}', 'future.field': 'x' },
      record,
    );
    expect(fields['future.field']).toBe('x');
  });

  it.each([
    ['a record that is not JSON', { 'ns:a': '{', owner: '{"nodeId":0,"ownerEpoch":1}' }],
    [
      'a record breaking a rule',
      {
        'ns:a': encodeRecord({ ...record, name: 'a', lastSeen: 0 }),
        owner: '{"nodeId":0,"ownerEpoch":1}',
      },
    ],
    [
      'a record under another name',
      { 'ns:a': encodeRecord(record), owner: '{"nodeId":0,"ownerEpoch":1}' },
    ],
  ])('refuses %s with Serialization naming namespace and shard', (_, fields) => {
    expect(thrownBy(() => recordIn(fields, 'a', 4))).toMatchObject({
      code: 'Serialization',
      details: { namespace: 'a', shard: 4 },
    });
  });

  it.each<CellFields>([
    {},
    { owner: 'x' },
    { owner: '{"nodeId":-1,"ownerEpoch":1}' },
    { owner: '{"nodeId":1}' },
  ])('refuses a bad owner %j', (fields) => {
    expect(() => decodeOwner(fields, { namespace: 'a', shard: 1 })).toThrow(
      expect.objectContaining({ code: 'Serialization' }),
    );
  });
});

describe('meta fields', () => {
  it('round-trips shard count and hash', () => {
    expect(encodeMeta({ shardCount: 16, hash: 'fnv1a64' })).toEqual({
      hash: 'fnv1a64',
      shardCount: '16',
    });
    expect(decodeMeta({ hash: 'fnv1a64', shardCount: '5' })).toEqual({
      shardCount: 5,
      hash: 'fnv1a64',
    });
  });

  it.each<CellFields>([
    { hash: 'md5', shardCount: '16' },
    { hash: 'fnv1a64', shardCount: '0' },
    { hash: 'fnv1a64', shardCount: '1.5' },
    { hash: 'fnv1a64' },
  ])('refuses %j', (fields) => {
    expect(() => decodeMeta(fields)).toThrow(expect.objectContaining({ code: 'Serialization' }));
  });
});
