/**
 * `wal replay --rows`'s printer (what the command runs) over entries in memory: its NDJSON and
 * CSV bytes are the tables' lines (`rowLine` / `csvLine` under every column met), whether an
 * entry is written from the wire or left to the tables (a filter, a ragged row); its writes
 * are 64 KiB pieces, and while the sink is full `entry` hands back the sink's promise, so the
 * command waits for stdout to drain; a CSV cell is its text neutralised, before and after.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { printReplay } from '../../src/main/cli/commands/replay-print';
import { DecodedReplayPrinter } from '../../src/main/cli/commands/replay-rows';
import { GT_FORMAT } from '../../src/main/engine/greptimedb/layout';
import type { WalEntry } from '../../src/main/engine/wal/entry';
import { csvCell, csvText } from '../../src/shared/greptime/csv-cell';
import { decodePayload } from '../../src/shared/greptime/decode/detect-payload';
import type { GtValue } from '../../src/shared/greptime/decode/wal-entry';
import {
  ColumnUnion,
  csvHeader,
  csvLine,
  rowLine,
  rowsOfEntry,
} from '../../src/shared/greptime/replay-rows';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';

const REGION = (9n << 32n) | 1n;
const host = column('host', 12, 0);
const ts = column('ts', 16, 2);
const cpu = column('cpu', 10, 1);
const disk = column('disk', 10, 1);

function entryOf(at: number, rows: GtValue[][], schema = [host, ts, cpu]): WalEntry {
  const data = encodeWalEntry({
    mutations: [
      {
        opType: 1,
        sequence: BigInt(at * 100),
        rows: { schema, rows },
        primaryKeyEncoding: null,
      },
    ],
    bulkEntries: [],
  });
  const provider = { prefix: 'p', regionId: REGION };
  return { provider, regionId: REGION, id: BigInt(at + 1) << 20n, data };
}

const row = (name: string, ms: bigint, value: number): GtValue[] => [
  { kind: 'string', value: name },
  { kind: 'timestamp', unit: 'ms', value: ms },
  { kind: 'f64', value },
];

/**
 * 40 entries of 50 rows (~300 KB of lines), one of them ragged (its second row is short); the
 * last ten have a column more (a schema that changed: CSV's header needs the last entry).
 */
const entries = Array.from({ length: 40 }, (_, at) => {
  const wide = at >= 30;
  return entryOf(
    at,
    Array.from({ length: 50 }, (_, r): GtValue[] => {
      if (at === 7 && r === 1) return [{ kind: 'string', value: 'short' }];
      const cells = row(
        r % 5 === 0 ? `=h${r},x` : `host-${r}`,
        1767225600000n + BigInt(at * 50 + r),
        r / 3,
      );
      return wide ? [...cells, { kind: 'f64', value: r * 1.5 }] : cells;
    }),
    wide ? [host, ts, cpu, disk] : [host, ts, cpu],
  );
});

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

/** The printer over `entries` as `wal replay` drives it, its sink collecting each write. */
async function printed(
  format: 'ndjson' | 'csv',
  where: string[] = [],
  heldBytes?: number,
  of: readonly WalEntry[] = entries,
) {
  const writes: Uint8Array[] = [];
  const printer = new DecodedReplayPrinter(
    'rows',
    { rows: true, format, where },
    GT_FORMAT,
    (bytes) => {
      writes.push(Uint8Array.from(bytes));
      return undefined;
    },
  );
  let reads = 0;
  // Whether the lines were made while the first read ran (CSV's spool) or after it.
  let linesDuringRead = false;
  const read = async function* () {
    reads += 1;
    yield* of;
    if (reads === 1) linesDuringRead = printer.wroteAny;
  };
  await printReplay(printer, REGION, { first: read, again: read }, heldBytes);
  return { text: Buffer.concat(writes).toString('utf8'), writes, reads, linesDuringRead };
}

function tablesText(format: 'ndjson' | 'csv', of: readonly WalEntry[] = entries): string {
  const union = new ColumnUnion();
  const tables = of.map((entry) => {
    const decoded = decodePayload(entry.data, true);
    if (decoded.kind !== 'wal-entry') throw new Error('not rows');
    union.add(decoded.table);
    return { entry, table: decoded.table };
  });
  const columns = union.columns();
  const lines = tables.flatMap(({ entry, table }) =>
    rowsOfEntry(REGION, entry.id, table).map((r) =>
      format === 'csv' ? csvLine(r, columns) : rowLine(r),
    ),
  );
  return [...(format === 'csv' ? [csvHeader(columns)] : []), ...lines]
    .map((l) => `${l}\n`)
    .join('');
}

describe('the --rows printer', () => {
  it('prints the tables’ NDJSON and CSV bytes in writes of about 64 KiB', async () => {
    for (const format of ['ndjson', 'csv'] as const) {
      const { text, writes } = await printed(format);
      expect(text).toBe(tablesText(format));
      expect(writes.length).toBeGreaterThan(1);
      // CSV's header is a write of its own: its lines were spooled before it was known.
      const lines = format === 'csv' ? writes.slice(1, -1) : writes.slice(0, -1);
      for (const write of lines) expect(write.length).toBeGreaterThanOrEqual(65_536);
    }
  });

  it('prints CSV from one read while its lines or its entries fit the bound, from two past it', async () => {
    const once = await printed('csv');
    const twice = await printed('csv', [], 10_000);
    expect([once.reads, twice.reads]).toEqual([1, 2]);
    expect(twice.text).toBe(once.text);
    expect(sha256(once.text)).toBe(sha256(tablesText('csv')));
    // One schema: the lines spooled while the read ran; past the spool's bound, the entries
    // held print them (the payloads are a third of their lines); past both, a second read.
    const narrow = entries.slice(0, 30);
    const payloads = narrow.reduce((sum, entry) => sum + 64 + entry.data.length, 0);
    const expected = sha256(tablesText('csv', narrow));
    for (const [bound, reads, spooled] of [
      [undefined, 1, true],
      [payloads, 1, false],
      [payloads - 1, 2, false],
    ] as const) {
      const run = await printed('csv', [], bound, narrow);
      expect([run.reads, run.linesDuringRead, sha256(run.text)]).toEqual([
        reads,
        spooled,
        expected,
      ]);
    }
    // A column met after the first lines: the spool is let go, the held entries print.
    expect(once.linesDuringRead).toBe(false);
    // The schema that changes half-way (a column met late) is in the header either way.
    expect(once.text.slice(0, once.text.indexOf('\n'))).toBe(
      'region,regionU64,id,idU64,op,sequence,host,ts,cpu,disk',
    );
  });

  it('prints through the tables what a filter selects', async () => {
    const { text } = await printed('ndjson', ['host=host-3']);
    const expected = tablesText('ndjson')
      .split('\n')
      .filter((line) => line.includes('"host":"host-3"'))
      .map((line) => `${line}\n`)
      .join('');
    expect(text).toBe(expected);
  });

  it('hands back the sink’s promise while the sink is full', async () => {
    let release: () => void = () => undefined;
    const full = new Promise<void>((resolve) => (release = resolve));
    const printer = new DecodedReplayPrinter(
      'rows',
      { rows: true, format: 'ndjson', where: [] },
      GT_FORMAT,
      () => full,
    );
    let waited: Promise<void> | undefined;
    for (const entry of entries) waited ??= printer.entry(REGION, entry);
    expect(waited).toBe(full);
    release();
    await waited;
  });

  it('neutralises a CSV cell’s text as it did before a string without escapes was sliced', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 12 }), (text) => {
        expect(csvCell(JSON.stringify(text))).toBe(csvText(text));
      }),
      { numRuns: 500 },
    );
  });
});
