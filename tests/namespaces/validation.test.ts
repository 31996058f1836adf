import { describe, expect, it } from 'vitest';
import {
  CONFIG_MAX_DEPTH,
  checkConfig,
  checkName,
  checkOrigin,
  checkPlacement,
  checkRecord,
  samePlacement,
} from '../../src/main/engine/namespaces/validation';
import { CONFIG_MAX_BYTES } from '../../src/main/engine/namespaces/record';
import { thrownBy } from './thrown';
import { BAD_CONFIGS, BAD_NAMES, BAD_PLACEMENTS } from './bad-input';

describe('namespace names', () => {
  it.each(['a', 'team.a', 'x:y/z', 'A-Z_0-9', 'a/b/c', '.hidden', 'a.b', 'n'.repeat(255)])(
    'accepts %s',
    (name) => {
      expect(checkName(name)).toBe(name);
    },
  );

  it.each(BAD_NAMES)('refuses $label with rule $rule', ({ name, rule }) => {
    expect(() => checkName(name)).toThrow(expect.objectContaining({ code: 'InvalidName', rule }));
  });

  it('refuses a name that is not a string', () => {
    expect(() => checkName(42)).toThrow(
      expect.objectContaining({ code: 'InvalidName', rule: 'type' }),
    );
  });
});

describe('configs', () => {
  it('returns a key-ordered copy that shares nothing with the input', () => {
    const input = { b: [1, { d: true, c: null }], a: 'x' };
    const checked = checkConfig('ns', input);
    expect(JSON.stringify(checked)).toBe('{"a":"x","b":[1,{"c":null,"d":true}]}');
    input.b.push(2);
    expect(checked.b).toHaveLength(2);
  });

  it('keeps a "__proto__" key as a key', () => {
    const checked = checkConfig('ns', JSON.parse('{"__proto__":{"polluted":1}}'));
    expect(Object.keys(checked)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(checked)).toBe(Object.prototype);
  });

  it('accepts a config of exactly the budget', () => {
    const filler = 'x'.repeat(CONFIG_MAX_BYTES - '{"k":""}'.length);
    expect(Object.keys(checkConfig('ns', { k: filler }))).toEqual(['k']);
  });

  it.each(BAD_CONFIGS)('refuses $label as $reason', ({ config, reason }) => {
    expect(thrownBy(() => checkConfig('ns', config))).toMatchObject({
      code: 'InvalidConfig',
      reason,
      details: { namespace: 'ns', reason },
    });
  });

  it('refuses cycles and deep nesting without exhausting the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => checkConfig('ns', cyclic)).toThrow(
      expect.objectContaining({ reason: 'not-json' }),
    );
    let deep: unknown = {};
    for (let depth = 0; depth < CONFIG_MAX_DEPTH + 1; depth++) deep = { d: deep };
    expect(() => checkConfig('ns', deep)).toThrow(expect.objectContaining({ reason: 'not-json' }));
  });
});

describe('placements', () => {
  it('keeps present fields in canonical order and drops absent ones', () => {
    expect(
      JSON.stringify(checkPlacement('ns', { pinned: true, node: 'n1', tier: undefined })),
    ).toBe('{"node":"n1","pinned":true}');
    expect(checkPlacement('ns', null)).toBeNull();
    expect(checkPlacement('ns', {})).toEqual({});
  });

  it.each(BAD_PLACEMENTS)('refuses $label', ({ placement }) => {
    expect(() => checkPlacement('ns', placement)).toThrow(
      expect.objectContaining({ code: 'InvalidPlacement' }),
    );
  });

  it('compares field by field', () => {
    expect(samePlacement({ node: 'a' }, { node: 'a' })).toBe(true);
    expect(samePlacement({ node: 'a' }, { node: 'a', pinned: false })).toBe(false);
    expect(samePlacement(null, {})).toBe(false);
    expect(samePlacement(null, null)).toBe(true);
  });
});

describe('whole records', () => {
  const good = {
    name: 'team.a',
    origin: 'explicit',
    createdAt: 10,
    lastSeen: 12,
    config: { z: 1, a: 2 },
    state: 'active',
    placement: { region: 'eu' },
  } as const;

  it('accepts a good record in canonical form', () => {
    const checked = checkRecord(good);
    expect(checked).toEqual(good);
    expect(Object.keys(checked.config)).toEqual(['a', 'z']);
  });

  it.each([
    ['origin', { ...good, origin: 'borrowed' }],
    ['state', { ...good, state: 'gone' }],
    ['createdAt', { ...good, createdAt: -1 }],
    ['lastSeen', { ...good, lastSeen: 1.5 }],
    ['lastSeen', { ...good, lastSeen: 9 }],
    ['extra', { ...good, extra: 1 }],
  ])('refuses a bad %s', (field, record) => {
    expect(() => checkRecord(record)).toThrow(expect.objectContaining({ code: 'InvalidRecord' }));
  });

  it('names the broken rule of the name first', () => {
    expect(() => checkRecord({ ...good, name: '/abs' })).toThrow(
      expect.objectContaining({ rule: 'leading-slash' }),
    );
  });

  it('refuses an unknown origin', () => {
    expect(() => checkOrigin('ns', 'adopted')).toThrow(
      expect.objectContaining({ code: 'InvalidRecord', field: 'origin' }),
    );
  });
});
