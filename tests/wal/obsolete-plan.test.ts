/**
 * The rules of `obsolete` as a table (wal.md "Reading, obsolete"; src/main/engine/wal/obsolete.ts),
 * the enqueued clamp's deliberate deviation included: an id this store did not hand out is
 * persisted unclamped, with its sequence floor, when the region has no unpersisted entries;
 * otherwise the call is refused as the retryable `WalObjectSequenceUnsettled`.
 */
import { describe, expect, it } from 'vitest';
import { makeEntryId } from '../../src/main/engine/wal/ids';
import { planObsolete, type ObsoleteFacts } from '../../src/main/engine/wal/obsolete';

const REGION = (1n << 32n) | 1n;
const id = (seq: bigint, position = 1n): bigint => makeEntryId(seq, position);

/** A store whose durable id is 10:3, whose next sequence is 12 and whose open batch is empty. */
const SETTLED: ObsoleteFacts = {
  ackMode: 'enqueued',
  durableId: id(10n, 3n),
  handedOutId: id(10n, 3n),
  nextSeq: 12n,
  firstUnsettledSeq: 12n,
  openBatchHoldsEntries: false,
  currentWatermark: 0n,
};

type Row = [
  row: string,
  facts: Partial<ObsoleteFacts>,
  id: bigint,
  outcome: { watermark: bigint; floor: bigint | null } | string,
];

const ROWS: Row[] = [
  [
    'enqueued, an id it handed out: at most the durable id',
    {},
    id(10n, 2n),
    { watermark: id(10n, 2n), floor: null },
  ],
  [
    'enqueued, a handed-out id above the durable id: clamped to it',
    { handedOutId: id(11n, 4n), firstUnsettledSeq: 11n },
    id(11n, 2n),
    { watermark: id(10n, 3n), floor: null },
  ],
  [
    'enqueued, an id it never handed out, nothing unpersisted: persisted unclamped, with its floor',
    {},
    id(20n, 5n),
    { watermark: id(20n, 5n), floor: 21n },
  ],
  [
    'enqueued, an id it never handed out while entries are unpersisted: refused',
    { handedOutId: id(11n, 4n), firstUnsettledSeq: 11n },
    id(20n, 5n),
    'WalObjectSequenceUnsettled',
  ],
  [
    'any mode, the open batch holds ids under the sequence the floor would move: refused',
    { ackMode: 'durable', openBatchHoldsEntries: true },
    id(20n, 5n),
    'WalObjectSequenceUnsettled',
  ],
  [
    'durable, an id of an object not durable yet: refused',
    { ackMode: 'durable', firstUnsettledSeq: 11n },
    id(11n, 1n),
    'InvalidEntryId',
  ],
  [
    'durable, a foreign id above every sequence: persisted with its floor',
    { ackMode: 'durable' },
    id(30n, 1n),
    { watermark: id(30n, 1n), floor: 31n },
  ],
  [
    'never lowers the watermark',
    { currentWatermark: id(10n, 3n) },
    id(10n, 1n),
    { watermark: id(10n, 3n), floor: null },
  ],
];

describe('planObsolete', () => {
  it.each(ROWS)('%s', (_row, change, asked, outcome) => {
    const facts = { ...SETTLED, ...change };
    if (typeof outcome === 'string') {
      expect(() => planObsolete(REGION, asked, facts)).toThrow(
        expect.objectContaining({ code: outcome }),
      );
    } else {
      expect(planObsolete(REGION, asked, facts)).toEqual(outcome);
    }
  });
});
