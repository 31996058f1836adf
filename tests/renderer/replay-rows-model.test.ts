/**
 * The Rows mode's data on the page: entries arrive checked (a `WalEntry`'s counts and its whole
 * bytes), and their rows come from decoding those bytes there - once per entry, whatever the
 * number of renders - lined up under every column met; bytes that do not decode after all are
 * a damaged notice in place, never a dropped entry.
 */
import { Table, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow';
import { describe, expect, it } from 'vitest';
import type { ReplayEntryView } from '../../src/shared/contract/wal';
import { checkPayload } from '../../src/shared/greptime/decode/detect-payload';
import type { GtValue } from '../../src/shared/greptime/decode/wal-entry';
import { tablesOf } from '../../src/renderer/src/views/wal/replay/entry-tables';
import { rowsModel } from '../../src/renderer/src/views/wal/replay/rows-model';
import { bulkEntry, partsOf } from '../greptimedb/entries/arrow-bulk';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';

const s = (value: string): GtValue => ({ kind: 'string', value });
const ms = (value: bigint): GtValue => ({ kind: 'timestamp', unit: 'ms', value });

function payload(sequence: bigint, rows: GtValue[][], withCpu: boolean): Uint8Array {
  const schema = [column('host', 12, 0), column('ts', 16, 2)];
  if (withCpu) schema.push(column('cpu', 10, 1));
  return encodeWalEntry({
    mutations: [{ opType: 1, sequence, rows: { schema, rows }, primaryKeyEncoding: null }],
    bulkEntries: [],
  });
}

function entry(id: bigint, data: Uint8Array): ReplayEntryView {
  return { id, size: data.length, data, payload: checkPayload(data, true) };
}

describe("the Rows mode's rows", () => {
  it('decodes each entry from its bytes once and lines its rows up by column', () => {
    const first = entry(1n, payload(10n, [[s('a'), ms(0n), { kind: 'f64', value: 1.5 }]], true));
    const second = entry(2n, payload(11n, [[s('b'), ms(1000n)]], false));
    expect(first.payload).toEqual({
      kind: 'wal-entry',
      summary: { mutations: 1, rows: 1, bulk: 0 },
    });
    const model = rowsModel([first, second], 7n);
    expect(model.decodedEntries).toBe(2);
    expect(model.columns.map((c) => c.key)).toEqual(['host', 'ts', 'cpu']);
    expect(
      model.items.map((item) => (item.kind === 'row' ? [...item.row.cells] : item.notice.text)),
    ).toEqual([
      ['"a"', '"1970-01-01T00:00:00.000Z"', '1.5'],
      ['"b"', '"1970-01-01T00:00:01.000Z"'],
    ]);
    // The tables are the entry's: a later render finds them made.
    expect(tablesOf(first)).toBe(tablesOf(first));
    expect(rowsModel([first, second], 7n).items[0]).toEqual(model.items[0]);
  });

  it('shows bytes that do not decode after all as a damaged notice in place', () => {
    const whole = payload(1n, [[s('a'), ms(0n)]], false);
    const cut: ReplayEntryView = { ...entry(3n, whole), data: whole.subarray(0, whole.length - 2) };
    const model = rowsModel([cut], 7n);
    expect(model.decodedEntries).toBe(0);
    expect(model.items).toEqual([
      {
        kind: 'notice',
        notice: expect.objectContaining({ id: 3n, damaged: true }),
      },
    ]);
    expect(model.items[0]?.kind === 'notice' && model.items[0].notice.text).toMatch(
      /^entry 0:3 is not a WalEntry: truncated at byte \d+/,
    );
  });

  it('shows a bulk entry’s Arrow rows as PUTs, and one that gives none as a damaged notice', () => {
    const parts = partsOf(
      new Table({
        host: vectorFromArray(['c'], new Utf8()),
        ts: vectorFromArray([2000n], new TimestampMillisecond()),
      }),
    );
    const good = entry(4n, bulkEntry(parts, 20n, 2000n, 2000n, 1));
    const broken = entry(5n, bulkEntry({ ...parts, schema: Uint8Array.of(9) }, 21n, 0n, 0n, 1));
    expect(good.payload).toEqual({
      kind: 'wal-entry',
      summary: { mutations: 0, rows: 0, bulk: 1 },
    });
    const model = rowsModel([good, broken], 7n);
    expect(model.columns.map((c) => [c.key, c.semantic])).toEqual([
      ['host', '?'],
      ['ts', 'TIMESTAMP'],
    ]);
    const [row, notice] = model.items;
    expect(row?.kind === 'row' && [row.row.op, row.row.sequence, ...row.row.cells]).toEqual([
      'PUT',
      20n,
      '"c"',
      '"1970-01-01T00:00:02.000Z"',
    ]);
    expect(notice?.kind === 'notice' && notice.notice).toMatchObject({ id: 5n, damaged: true });
    expect(notice?.kind === 'notice' && notice.notice.text).toMatch(
      /^entry 0:5: bulk entry 1 gives no rows: invalid-ipc/,
    );
  });
});
