/**
 * The apply rule and the adoption rule of watermark requests, as tables
 * (docs/design/watermark-requests.md, "Apply" and "Adoption").
 */
import { describe, expect, it } from 'vitest';
import { emptyControlState } from '../../../src/main/engine/wal/control-fields';
import { addedRequests } from '../../../src/main/engine/wal/watermark-requests/adopt';
import {
  decideRequest,
  settlePending,
} from '../../../src/main/engine/wal/watermark-requests/apply-rule';
import {
  boundedLog,
  decodeRequestLog,
  encodeRequestLog,
  KEPT_SETTLED_REQUESTS,
  REQUEST_FIELDS,
  withRequestLog,
  type PendingRequest,
  type WatermarkRequest,
} from '../../../src/main/engine/wal/watermark-requests/fields';
import { MalformedControlFieldError } from '../../../src/main/engine/wal/control-fields';

const R = (1n << 32n) | 1n;
const pending = (id: string, watermark: bigint, region = R): PendingRequest => ({
  id,
  region,
  watermark,
  requestedAtMs: 5,
  requestedBy: 'sre',
  state: 'pending',
});

describe('the apply rule', () => {
  const rows: Array<[string, bigint, { durableId: bigint; watermark: bigint }, string]> = [
    ['at the durable id', 100n, { durableId: 100n, watermark: 0n }, 'applied 100'],
    ['below the durable id', 50n, { durableId: 100n, watermark: 10n }, 'applied 50'],
    ['at or below the watermark in force', 10n, { durableId: 100n, watermark: 20n }, 'applied 20'],
    ['above the durable id', 101n, { durableId: 100n, watermark: 0n }, 'rejected'],
    ['a region the writer never made durable', 1n, { durableId: 0n, watermark: 0n }, 'rejected'],
    ['id 0', 0n, { durableId: 100n, watermark: 0n }, 'rejected'],
    [
      'a sequence where no floor fits',
      (1n << 64n) - 1n,
      { durableId: 100n, watermark: 0n },
      'rejected',
    ],
  ];
  it.each(rows)('%s', (_, watermark, facts, outcome) => {
    const decision = decideRequest(pending('x', watermark), facts);
    expect(decision.state === 'applied' ? `applied ${decision.effective}` : decision.state).toBe(
      outcome,
    );
  });

  it('settles every pending request in order in one write, composing per region', () => {
    const log: WatermarkRequest[] = [
      { ...pending('old', 5n), state: 'applied', epoch: 1n, settledAtMs: 1, effective: 5n },
      pending('a', 40n),
      pending('b', 30n),
      pending('c', 500n),
    ];
    const result = settlePending(emptyControlState(), log, () => ({ durableId: 100n }), 3n, 77);
    expect(result.log.map((r) => [r.id, r.state])).toEqual([
      ['old', 'applied'],
      ['a', 'applied'],
      ['b', 'applied'],
      ['c', 'rejected'],
    ]);
    // b asked below a's watermark: applied at the higher one, never lowered.
    expect(result.log[2]).toMatchObject({ effective: 40n, epoch: 3n, settledAtMs: 77 });
    expect(result.control.watermarks.get(R)).toBe(40n);
    expect([...result.raised]).toEqual([[R, 40n]]);
    expect(result.settled.map((r) => r.id)).toEqual(['a', 'b', 'c']);
    // The settled request is untouched.
    expect(result.log[0]).toBe(log[0]);
  });

  it('bounds the settled history, never a pending request', () => {
    const settled = Array.from({ length: KEPT_SETTLED_REQUESTS + 5 }, (_, i): WatermarkRequest => ({
      ...pending(`s${i}`, 1n),
      state: 'rejected',
      epoch: 1n,
      settledAtMs: i,
      reason: 'r',
    }));
    const log = [pending('p0', 1n), ...settled, pending('p1', 1n)];
    const bounded = boundedLog(log);
    expect(bounded.filter((r) => r.state === 'pending').map((r) => r.id)).toEqual(['p0', 'p1']);
    expect(bounded.length).toBe(KEPT_SETTLED_REQUESTS + 2);
    expect(bounded.some((r) => r.id === 's0')).toBe(false);
  });
});

describe('the request log field', () => {
  it('round-trips, and an older register without it reads as no requests', () => {
    const log: WatermarkRequest[] = [
      pending('a', 7n),
      { ...pending('b', 8n), state: 'rejected', epoch: 2n, settledAtMs: 9, reason: 'why' },
    ];
    const fields = withRequestLog({}, log);
    expect(decodeRequestLog(fields)).toEqual(log);
    expect(decodeRequestLog({})).toEqual([]);
    expect(withRequestLog({ k: 'v' }, [])).toEqual({ k: 'v' });
  });

  it.each([
    ['not JSON', '{'],
    ['not an array', '{}'],
    [
      'a bad state',
      '[{"id":"a","region":"1","watermark":"1","requestedAtMs":1,"requestedBy":"x","state":"maybe"}]',
    ],
    ['a duplicate id', encodeRequestLog([pending('a', 1n), pending('a', 2n)])],
    [
      'a non-decimal id',
      '[{"id":"a","region":"01","watermark":"1","requestedAtMs":1,"requestedBy":"x","state":"pending"}]',
    ],
  ])('refuses %s, naming the field', (_, text) => {
    expect(() => decodeRequestLog({ [REQUEST_FIELDS.requests]: text })).toThrow(
      MalformedControlFieldError,
    );
  });
});

describe('the adoption rule', () => {
  const held = {
    'cairn.writer_epoch': '3',
    'cairn.writer_id': 'w',
    [REQUEST_FIELDS.readerEpoch]: '3',
    ...withRequestLog({}, [pending('a', 1n)]),
  };
  const plus = (fields: Record<string, string>, ...added: WatermarkRequest[]) => ({
    ...fields,
    ...withRequestLog(fields, [...decodeRequestLog(fields), ...added]),
  });

  it('adopts a version that only appends pending requests', () => {
    expect(addedRequests(held, plus(held, pending('b', 2n)))?.map((r) => r.id)).toEqual(['b']);
    expect(
      addedRequests(
        { 'cairn.writer_epoch': '3' },
        plus({ 'cairn.writer_epoch': '3' }, pending('b', 2n)),
      ),
    ).toHaveLength(1);
  });

  it.each([
    ['another epoch', { ...plus(held, pending('b', 2n)), 'cairn.writer_epoch': '4' }],
    ['another writer id', { ...plus(held, pending('b', 2n)), 'cairn.writer_id': 'x' }],
    ['another field changed', { ...plus(held, pending('b', 2n)), 'cairn.boundary': '9' }],
    ['a request removed', withRequestLog(held, [])],
    [
      'a request settled',
      withRequestLog(held, [
        { ...pending('a', 1n), state: 'applied', epoch: 3n, settledAtMs: 1, effective: 1n },
      ]),
    ],
    [
      'a settled request added',
      plus(held, {
        ...pending('b', 2n),
        state: 'rejected',
        epoch: 3n,
        settledAtMs: 1,
        reason: 'r',
      }),
    ],
    ['a log that does not decode', { ...held, [REQUEST_FIELDS.requests]: 'nope' }],
  ])('fences on %s', (_, newer) => {
    expect(addedRequests(held, newer)).toBeNull();
  });
});
