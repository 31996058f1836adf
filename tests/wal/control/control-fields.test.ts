import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTROL_FIELDS,
  decodeControlFields,
  emptyControlState,
  encodeControlFields,
  MalformedControlFieldError,
} from '../../../src/main/engine/wal/control-fields';
import type { ControlState, SealRecord } from '../../../src/main/engine/wal/session';

const u64 = fc.bigInt({ min: 0n, max: 2n ** 64n - 1n });
const seq = fc.bigInt({ min: 0n, max: 2n ** 44n - 1n });

const sealRecord: fc.Arbitrary<SealRecord> = fc
  .record({
    a: u64,
    b: u64,
    lastSeq: fc.option(seq, { nil: null }),
    reason: fc.constantFrom<SealRecord['reason']>('stopped', 'taken-over', 'merged'),
  })
  .map(({ a, b, lastSeq, reason }) => ({
    firstEpoch: a < b ? a : b,
    lastEpoch: a < b ? b : a,
    lastSeq,
    reason,
  }));

const controlState: fc.Arbitrary<ControlState> = fc.record({
  writerEpoch: u64,
  writerId: fc.string(),
  tail: fc.option(fc.record({ seq, epoch: u64 }), { nil: null }),
  segments: fc.array(sealRecord, { maxLength: 5 }),
  boundary: seq,
  watermarks: fc.array(fc.tuple(u64, u64), { maxLength: 5 }).map((pairs) => new Map(pairs)),
  regions: fc
    .array(fc.tuple(u64, fc.nat()), { maxLength: 5 })
    .map((pairs) => new Map(pairs.map(([r, ms]) => [r, { createdAtMs: ms }]))),
});

describe('control fields', () => {
  it('round-trip every control state through the register strings, deterministically', () => {
    fc.assert(
      fc.property(controlState, (state) => {
        const fields = encodeControlFields(state);
        expect(decodeControlFields(fields)).toEqual(state);
        // Same state, maps built in another order: the same strings.
        const shuffled: ControlState = {
          ...state,
          watermarks: new Map([...state.watermarks].reverse()),
          regions: new Map([...state.regions].reverse()),
        };
        expect(encodeControlFields(shuffled)).toEqual(fields);
        for (const value of Object.values(fields)) expect(typeof value).toBe('string');
      }),
      { numRuns: 200 },
    );
  });

  it('writes bigints as decimal strings in JSON values', () => {
    const fields = encodeControlFields({
      ...emptyControlState(),
      writerEpoch: 3n,
      writerId: 'w',
      tail: { seq: 70n, epoch: 3n },
      watermarks: new Map([[(1n << 32n) | 1n, (5n << 20n) | 1n]]),
    });
    expect(fields[CONTROL_FIELDS.writerEpoch]).toBe('3');
    expect(JSON.parse(fields[CONTROL_FIELDS.tail] ?? '')).toEqual({ seq: '70', epoch: '3' });
    expect(JSON.parse(fields[CONTROL_FIELDS.watermarks] ?? '')).toEqual({
      '4294967297': '5242881',
    });
  });

  it('keeps fields it does not know on update', () => {
    const previous = {
      ...encodeControlFields({ ...emptyControlState(), writerEpoch: 1n }),
      'vendor.note': 'keep me',
    };
    const next = encodeControlFields(
      { ...decodeControlFields(previous), writerEpoch: 2n },
      previous,
    );
    expect(next['vendor.note']).toBe('keep me');
    expect(next[CONTROL_FIELDS.writerEpoch]).toBe('2');
  });

  it('defaults optional fields and requires the epoch', () => {
    expect(decodeControlFields({ [CONTROL_FIELDS.writerEpoch]: '4' })).toEqual({
      ...emptyControlState(),
      writerEpoch: 4n,
    });
    expect(() => decodeControlFields({})).toThrow(MalformedControlFieldError);
  });

  const good = encodeControlFields({ ...emptyControlState(), writerEpoch: 1n });
  const malformed: Array<[string, string]> = [
    [CONTROL_FIELDS.writerEpoch, '-1'],
    [CONTROL_FIELDS.writerEpoch, '18446744073709551616'],
    [CONTROL_FIELDS.writerEpoch, '01'],
    [CONTROL_FIELDS.tail, '{"seq":"1"}'],
    [CONTROL_FIELDS.tail, 'not json'],
    [CONTROL_FIELDS.tail, '{"seq":"17592186044416","epoch":"1"}'],
    [CONTROL_FIELDS.segments, '{}'],
    [
      CONTROL_FIELDS.segments,
      '[{"firstEpoch":"2","lastEpoch":"1","lastSeq":null,"reason":"stopped"}]',
    ],
    [
      CONTROL_FIELDS.segments,
      '[{"firstEpoch":"1","lastEpoch":"1","lastSeq":null,"reason":"crashed"}]',
    ],
    [
      CONTROL_FIELDS.segments,
      '[{"firstEpoch":1,"lastEpoch":"1","lastSeq":null,"reason":"stopped"}]',
    ],
    [CONTROL_FIELDS.boundary, 'x'],
    [CONTROL_FIELDS.watermarks, '[]'],
    [CONTROL_FIELDS.watermarks, '{"1":5}'],
    [CONTROL_FIELDS.watermarks, '{"a":"5"}'],
    [CONTROL_FIELDS.regions, '{"1":{"createdAtMs":-1}}'],
    [CONTROL_FIELDS.regions, '{"1":3}'],
  ];
  it.each(malformed)('rejects a malformed %s (%s) naming the field', (field, value) => {
    const error = (() => {
      try {
        decodeControlFields({ ...good, [field]: value });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(MalformedControlFieldError);
    expect(error).toMatchObject({ code: 'MalformedControlField', field });
    expect((error as Error).message).toContain(field);
  });
});
