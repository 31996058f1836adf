import { describe, expect, it } from 'vitest';
import {
  canTransition,
  compareListed,
  decideDeprecate,
  decidePlacement,
  decidePut,
  decideRegister,
  decideTakeOwnership,
  mintedRecord,
  ownsShard,
} from '../../src/main/engine/namespaces/decisions';
import type { NamespaceRecord } from '../../src/main/engine/namespaces/record';

const existing: NamespaceRecord = {
  name: 'team.a',
  origin: 'explicit',
  createdAt: 100,
  lastSeen: 150,
  config: { retention: '7d' },
  state: 'active',
  placement: { region: 'eu' },
};

describe('register and put', () => {
  it('mints an active, unplaced record with an empty config when absent', () => {
    expect(decideRegister(null, 'n', 'minted', 5)).toEqual({
      write: {
        name: 'n',
        origin: 'minted',
        createdAt: 5,
        lastSeen: 5,
        config: {},
        state: 'active',
        placement: null,
      },
      answer: 'created',
    });
  });

  it('only refreshes lastSeen of an existing record, whatever origin is asked', () => {
    expect(decideRegister(existing, 'team.a', 'minted', 200)).toEqual({
      write: { ...existing, lastSeen: 200 },
      answer: 'touched',
    });
  });

  it('never moves lastSeen backwards and then writes nothing', () => {
    expect(decideRegister(existing, 'team.a', 'minted', 150)).toEqual({
      write: null,
      answer: 'touched',
    });
    expect(decideRegister(existing, 'team.a', 'minted', 90)).toEqual({
      write: null,
      answer: 'touched',
    });
  });

  it('put creates the record as given, or only touches an existing one', () => {
    const given = { ...existing, name: 'team.b', config: { other: true } };
    expect(decidePut(null, given, 999)).toEqual({ write: given, answer: 'created' });
    expect(decidePut(existing, given, 300)).toEqual({
      write: { ...existing, lastSeen: 300 },
      answer: 'touched',
    });
  });
});

describe('placement', () => {
  it('answers none and mints nothing when absent', () => {
    expect(decidePlacement(null, { node: 'n1' }, 1)).toEqual({ write: null, answer: null });
  });

  it('writes nothing when the record already holds that placement', () => {
    expect(decidePlacement(existing, { region: 'eu' }, 999)).toEqual({
      write: null,
      answer: existing,
    });
  });

  it('changes only placement and lastSeen', () => {
    const next = { ...existing, placement: { node: 'n2', pinned: true }, lastSeen: 400 };
    expect(decidePlacement(existing, { node: 'n2', pinned: true }, 400)).toEqual({
      write: next,
      answer: next,
    });
    expect(decidePlacement(existing, null, 400).write).toEqual({
      ...existing,
      placement: null,
      lastSeen: 400,
    });
  });
});

describe('deprecation', () => {
  it('follows the transition table', () => {
    expect(canTransition('active', 'deprecated')).toBe(true);
    expect(canTransition('deprecated', 'active')).toBe(false);
    expect(canTransition('deprecated', 'deprecated')).toBe(false);
  });

  it('moves active to deprecated and changes nothing else', () => {
    const next = { ...existing, state: 'deprecated' as const };
    expect(decideDeprecate(existing)).toEqual({ write: next, answer: next });
  });

  it('is a no-op when already deprecated or absent', () => {
    const deprecated = { ...existing, state: 'deprecated' as const };
    expect(decideDeprecate(deprecated)).toEqual({ write: null, answer: deprecated });
    expect(decideDeprecate(null)).toEqual({ write: null, answer: null });
  });
});

describe('ownership and order', () => {
  it('lets the owner, or anyone on an unowned shard, mutate', () => {
    expect(ownsShard(null, 3)).toBe(true);
    expect(ownsShard({ nodeId: 3, ownerEpoch: 2 }, 3)).toBe(true);
    expect(ownsShard({ nodeId: 1, ownerEpoch: 2 }, 3)).toBe(false);
  });

  it('raises the owner epoch on a take-over', () => {
    expect(decideTakeOwnership(null, 4)).toEqual({ nodeId: 4, ownerEpoch: 1 });
    expect(decideTakeOwnership({ nodeId: 0, ownerEpoch: 7 }, 4)).toEqual({
      nodeId: 4,
      ownerEpoch: 8,
    });
  });

  it('lists by createdAt, ties by name', () => {
    const records = [
      mintedRecord('b', 'minted', 2),
      mintedRecord('c', 'minted', 1),
      mintedRecord('a', 'minted', 2),
    ];
    expect(records.sort(compareListed).map((record) => record.name)).toEqual(['c', 'a', 'b']);
  });
});
