/**
 * Bulk entries as rows: `BulkWalEntry` bodies built with apache-arrow's own writer
 * (`tableToIPC`), split into the three parts GreptimeDB's Flight encoder writes (the schema
 * message, the record batch message, its body), decode to the rows a mutation would give,
 * with the time index marked and checked against `min_ts` / `max_ts`; a body that does not
 * decode - cut, garbled, declaring more than it holds - is a typed failure, quickly.
 */
import * as arrow from 'apache-arrow';
import {
  Float64,
  Int64,
  tableFromArrays,
  TimestampMillisecond,
  Uint8,
  Utf8,
  vectorFromArray,
  Table,
} from 'apache-arrow';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bulkRowsDecoder } from '../../../src/shared/greptime/bulk/decode-bulk';
import { decodeEntryTable } from '../../../src/shared/greptime/decode/decode-table';
import type { GtBulkDecoding } from '../../../src/shared/greptime/entry-table';
import { rowsOfEntry } from '../../../src/shared/greptime/replay-rows';
import { bulkEntry, partsOf, type Parts } from './arrow-bulk';

function decodedOf(bytes: Uint8Array): GtBulkDecoding {
  const decoded = decodeEntryTable(bytes, decodeBulk);
  if (!decoded.ok) throw new Error(decoded.failure.detail);
  return decoded.table.bulk[0]!.decoded!;
}

const metrics = new Table({
  host: vectorFromArray(['web-1', 'web "2"', null], new Utf8()),
  ts: vectorFromArray(
    [1_767_225_600_000n, 1_767_225_660_000n, 1_767_225_630_000n],
    new TimestampMillisecond(),
  ),
  cpu: vectorFromArray([0.1, -0, null], new Float64()),
  n: vectorFromArray([2n ** 63n - 1n, -1n, 0n], new Int64()),
  u: vectorFromArray([255, null, 7], new Uint8()),
});

const decodeBulk = bulkRowsDecoder(arrow);

describe('bulk entries', () => {
  it('decode to the rows a mutation gives: columns by name, time index marked, exact cells', () => {
    const parts = partsOf(metrics);
    const bytes = bulkEntry(parts, 40n, 1_767_225_600_000n, 1_767_225_660_000n, 1);
    const decoded = decodedOf(bytes);
    expect(decoded.ok).toBe(true);
    if (!decoded.ok) return;
    expect(decoded.table.columns).toEqual([
      { name: 'host', key: 'host', datatype: 'STRING', semantic: '?' },
      { name: 'ts', key: 'ts', datatype: 'TIMESTAMP_MILLISECOND', semantic: 'TIMESTAMP' },
      { name: 'cpu', key: 'cpu', datatype: 'FLOAT64', semantic: '?' },
      { name: 'n', key: 'n', datatype: 'INT64', semantic: '?' },
      { name: 'u', key: 'u', datatype: 'UINT8', semantic: '?' },
    ]);
    expect(decoded.table.rows).toEqual([
      ['"web-1"', '"2026-01-01T00:00:00.000Z"', '0.1', '"9223372036854775807"', '255'],
      ['"web \\"2\\""', '"2026-01-01T00:01:00.000Z"', '-0', '"-1"', 'null'],
      ['null', '"2026-01-01T00:00:30.000Z"', 'null', '"0"', '7'],
    ]);
    expect(decoded.time).toEqual({
      min: 1_767_225_600_000n,
      max: 1_767_225_660_000n,
      problem: null,
    });
    // Rows and --rows: PUTs numbered from the bulk's sequence.
    const table = decodeEntryTable(bytes, decodeBulk);
    if (!table.ok) return;
    const rows = rowsOfEntry(1n, 2n, table.table);
    expect(rows.map((row) => [row.op, row.sequence])).toEqual([
      ['PUT', 40n],
      ['PUT', 41n],
      ['PUT', 42n],
    ]);
  });

  it('scales Arrow decimals by their type, the scale read as an i8', () => {
    const decimals = (scale: number): Table =>
      new Table({
        ts: vectorFromArray([1n, 1n], new TimestampMillisecond()),
        d: arrow.makeVector(
          arrow.makeData({
            type: new arrow.Decimal(scale, 38, 128),
            length: 2,
            data: new Uint32Array([12345, 0, 0, 0, 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]),
          }),
        ),
      });
    const cells = (scale: number): readonly string[] => {
      const decoded = decodedOf(bulkEntry(partsOf(decimals(scale)), 1n, 1n, 1n, 0));
      return decoded.ok ? decoded.table.rows.map((row) => row[1]!) : [];
    };
    expect(cells(2)).toEqual(['"123.45"', '"-0.01"']);
    expect(cells(-2)).toEqual(['"1234500"', '"-100"']);
    // 100,000,002 as an i8 is 2: never a cell of 10^8 digits.
    expect(cells(100_000_002)).toEqual(['"123.45"', '"-0.01"']);
  });

  it('says when the rows’ time index is not the entry’s min_ts..max_ts', () => {
    const decoded = decodedOf(bulkEntry(partsOf(metrics), 1n, 0n, 1_767_225_660_000n, 1));
    expect(decoded.ok && decoded.time.problem).toBe(
      "its rows' time index runs 1767225600000..1767225660000; the entry says 0..1767225660000",
    );
    const wrongIndex = decodedOf(bulkEntry(partsOf(metrics), 1n, 0n, 0n, 0));
    expect(wrongIndex.ok && wrongIndex.time.problem).toBe('the time index, column 0, is Utf8');
  });

  it('is a typed failure when the body is missing, cut or garbled; the entry still decodes', () => {
    const parts = partsOf(metrics);
    const noBody = decodeEntryTable(bulkEntry(null, 1n, 0n, 0n, 1), decodeBulk);
    expect(noBody.ok && noBody.table.bulk[0]).toMatchObject({
      sequence: 1n,
      arrowIpc: null,
      decoded: { ok: false, failure: { reason: 'no-body' } },
    });
    const cut = decodedOf(
      bulkEntry({ ...parts, payload: parts.payload.subarray(0, 16) }, 1n, 0n, 0n, 1),
    );
    expect(cut).toMatchObject({ ok: false, failure: { reason: 'too-large' } });
    const garbled = decodedOf(
      bulkEntry({ ...parts, schema: Uint8Array.of(1, 2, 3) }, 1n, 0n, 0n, 1),
    );
    expect(garbled).toMatchObject({ ok: false, failure: { reason: 'invalid-ipc' } });
    const swapped = decodedOf(bulkEntry({ ...parts, schema: parts.dataHeader }, 1n, 0n, 0n, 1));
    expect(swapped).toMatchObject({ ok: false, failure: { reason: 'invalid-ipc' } });
  });

  it('refuses a batch declaring more rows than its body holds, without allocating them', () => {
    const five = tableFromArrays({ ts: new BigInt64Array([1n, 2n, 3n, 4n, 5n]) });
    const parts = partsOf(five);
    // Every 8-byte-aligned i64 of 5 in the header (the batch's length, its node's) to 2^40.
    const header = Uint8Array.from(parts.dataHeader);
    const view = new DataView(header.buffer);
    let patched = 0;
    for (let at = 0; at + 8 <= header.length; at += 4)
      if (view.getBigInt64(at, true) === 5n) {
        view.setBigInt64(at, 2n ** 40n, true);
        patched += 1;
      }
    expect(patched).toBeGreaterThan(0);
    const huge = decodedOf(bulkEntry({ ...parts, dataHeader: header }, 1n, 1n, 5n, 0));
    expect(huge).toMatchObject({ ok: false, failure: { reason: 'too-large' } });
    // A vector count past the message: the flatbuffer's nodes vector declares 2^31 entries.
    const vectors = Uint8Array.from(parts.dataHeader);
    const words = new DataView(vectors.buffer);
    for (let at = 0; at + 4 <= vectors.length; at += 4)
      if (words.getUint32(at, true) === 1 && at % 4 === 0) words.setUint32(at, 2 ** 31, true);
    const counted = decodedOf(bulkEntry({ ...parts, dataHeader: vectors }, 1n, 1n, 5n, 0));
    expect(counted.ok).toBe(false);
  });

  it('never throws on a flipped byte in any part', () => {
    const parts = partsOf(metrics);
    fc.assert(
      fc.property(
        fc.constantFrom<keyof Parts>('schema', 'dataHeader', 'payload'),
        fc.nat(),
        fc.integer({ min: 0, max: 255 }),
        (part, at, byte) => {
          const changed = Uint8Array.from(parts[part]);
          changed[at % changed.length] = byte;
          const decoded = decodedOf(bulkEntry({ ...parts, [part]: changed }, 1n, 0n, 0n, 1));
          if (decoded.ok)
            expect(decoded.table.rows.length).toBeLessThanOrEqual(8 * parts.payload.length + 64);
          else
            expect(['invalid-ipc', 'too-large', 'unsupported']).toContain(decoded.failure.reason);
        },
      ),
      { numRuns: 300 },
    );
  });
});
