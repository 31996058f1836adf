import { describe, expect, it } from 'vitest';
import { validateWalConfig, WAL_CONFIG_DEFAULTS } from '../../src/main/engine/wal/config';
import { InvalidConfigError } from '../../src/main/engine/wal/errors';

const IDENTITY = { root: 'wal', nodeId: 7n, generation: 0 };
const MIB = 1024 * 1024;

function failure(input: Record<string, unknown>): { field: string; rule: string } {
  try {
    validateWalConfig(input);
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidConfigError);
    const invalid = error as InvalidConfigError;
    expect(invalid.code).toBe('InvalidConfig');
    expect(invalid.message).toContain(invalid.field);
    return { field: invalid.field, rule: invalid.rule };
  }
  throw new Error(
    `accepted ${JSON.stringify(input, (_k, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))}`,
  );
}

describe('ObjectStoreWalConfig', () => {
  it('fills the defaults of wal.md', () => {
    expect(validateWalConfig(IDENTITY)).toEqual({
      root: 'wal',
      nodeId: 7n,
      generation: 0,
      flushIntervalMs: 100,
      maxBatchBytes: 8 * MIB,
      maxObjectBytes: 5 * 1024 * MIB,
      ackMode: 'durable',
      ackFence: 'register',
      maxInFlightCreates: 4,
      maxSealedBatches: 16,
      maxUnpersistedBytes: 64 * MIB,
      maxUnpersistedAgeMs: 8000,
      onCorruptedSegment: 'skip',
    });
    expect(WAL_CONFIG_DEFAULTS.maxBatchBytes).toBe(8 * MIB);
  });

  it('keeps what the caller set and reads nodeId from a number or digits', () => {
    const config = validateWalConfig({
      ...IDENTITY,
      nodeId: '18446744073709551615',
      generation: 4294967295,
      flushIntervalMs: 10,
      ackMode: 'enqueued',
      ackFence: 'none',
      maxInFlightCreates: 16,
      maxSealedBatches: 30,
      onCorruptedSegment: 'fail',
    });
    expect(config.nodeId).toBe(2n ** 64n - 1n);
    expect(config).toMatchObject({
      flushIntervalMs: 10,
      ackMode: 'enqueued',
      ackFence: 'none',
      maxInFlightCreates: 16,
      maxSealedBatches: 30,
    });
    expect(validateWalConfig({ ...IDENTITY, nodeId: 12 }).nodeId).toBe(12n);
    expect(validateWalConfig({ ...IDENTITY, root: 'a/b.c/d' }).root).toBe('a/b.c/d');
  });

  it.each([
    ['root', '', /empty/],
    ['root', '/abs', /relative/],
    ['root', 'a//b', /empty parts/],
    ['root', 'a/', /empty parts/],
    ['root', 'a/../b', /"\.\."/],
    ['root', '..', /"\.\."/],
    ['root', 'a/./b', /"\."/],
    ['root', 5, /string/],
    ['nodeId', -1, /u64/],
    ['nodeId', 2n ** 64n, /u64/],
    ['nodeId', 'node-a', /u64/],
    ['nodeId', 1.5, /u64/],
    ['generation', -1, /u32/],
    ['generation', 2 ** 32, /u32/],
    ['generation', 0.5, /u32/],
    ['flushIntervalMs', 9, /at least 10/],
    ['flushIntervalMs', '100', /at least 10/],
    ['maxBatchBytes', 0, /positive/],
    ['ackMode', 'sync', /"durable", "enqueued"/],
    ['ackFence', 'cas', /"register", "none"/],
    ['maxInFlightCreates', 0, /1 to 16/],
    ['maxInFlightCreates', 17, /1 to 16/],
    ['maxSealedBatches', 0, /1 to 30/],
    ['maxSealedBatches', 31, /1 to 30/],
    ['maxUnpersistedBytes', -5, /positive/],
    ['maxUnpersistedAgeMs', 0, /positive/],
    ['onCorruptedSegment', 'ignore', /"skip", "fail"/],
  ])('rejects %s = %s naming the field and the rule', (field, value, rule) => {
    const result = failure({ ...IDENTITY, [field]: value });
    expect(result.field).toBe(field);
    expect(result.rule).toMatch(rule);
  });

  it.each([['root'], ['nodeId'], ['generation']])('requires %s', (field) => {
    const input: Record<string, unknown> = { ...IDENTITY };
    delete input[field];
    expect(failure(input).field).toBe(field);
  });

  it('rejects a setting it does not know (a typo), by name', () => {
    expect(failure({ ...IDENTITY, flushIntervalMS: 50 })).toEqual({
      field: 'flushIntervalMS',
      rule: 'is not a WAL setting',
    });
  });
});
