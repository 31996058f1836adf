/**
 * `cairn wal replay` on a GreptimeDB prefix whose entries hold bulk entries (Arrow IPC bodies
 * built with apache-arrow's writer): `--rows` prints a bulk's rows after the entry's mutation
 * rows, as PUTs numbered from the bulk's sequence; `--decode` prints them under the bulk with
 * its time index check; a bulk whose body does not decode is named on stderr, its entry printed
 * raw, and the command exits 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Float64, Table, TimestampMillisecond, Utf8, vectorFromArray } from 'apache-arrow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { bulkEntry, partsOf } from '../greptimedb/entries/arrow-bulk';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-bulk-cli-'));
const store = join(dir, 'store');
const PREFIX = 'datanodes/5/epochs/1';
const REGION = makeRegionId(9, 1);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const T0 = 1_767_225_600_000n;
const parts = partsOf(
  new Table({
    host: vectorFromArray(['web-1', 'web-2'], new Utf8()),
    ts: vectorFromArray([T0 + 1000n, T0 + 2000n], new TimestampMillisecond()),
    cpu: vectorFromArray([0.5, 0.25], new Float64()),
  }),
);
const mutation = encodeWalEntry({
  mutations: [
    {
      opType: 1,
      sequence: 10n,
      rows: {
        schema: [column('host', 12, 0), column('ts', 16, 2)],
        rows: [
          [
            { kind: 'string', value: 'web-0' },
            { kind: 'timestamp', unit: 'ms', value: T0 },
          ],
        ],
      },
      primaryKeyEncoding: null,
    },
  ],
  bulkEntries: [],
});
// One entry: a mutation, then a bulk entry (a WalEntry's repeated fields concatenate).
const withBulk = Uint8Array.from([
  ...mutation,
  ...bulkEntry(parts, 11n, T0 + 1000n, T0 + 2000n, 1),
]);
const brokenBulk = bulkEntry({ ...parts, payload: parts.payload.subarray(0, 8) }, 13n, T0, T0, 1);

beforeAll(async () => {
  const builder = new GtPrefixBuilder(PREFIX);
  builder.openInstance();
  builder.append([[REGION, [withBulk, brokenBulk]]]);
  await builder.writeTo(new LocalObjectIo(store));
});

function replay(...args: string[]) {
  return runCairn([
    'wal',
    'replay',
    '--dir',
    store,
    '--prefix',
    PREFIX,
    '--region',
    '9:1',
    ...args,
  ]);
}

const HEAD = '{"region":"9:1","regionU64":"38654705665","id":"1:1","idU64":"1048577",';

describe('cairn wal replay on bulk entries', () => {
  it('--rows prints a bulk entry’s rows after the mutation’s; a broken bulk is named, exit 1', () => {
    const result = replay('--rows');
    expect(result.stdout).toBe(
      [
        `${HEAD}"op":"PUT","sequence":"10","host":"web-0","ts":"2026-01-01T00:00:00.000Z"}`,
        `${HEAD}"op":"PUT","sequence":"11","host":"web-1","ts":"2026-01-01T00:00:01.000Z","cpu":0.5}`,
        `${HEAD}"op":"PUT","sequence":"12","host":"web-2","ts":"2026-01-01T00:00:02.000Z","cpu":0.25}`,
        '',
      ].join('\n'),
    );
    expect(result.stderr).toMatch(
      /^Damaged: bulk entry at region 9:1 entry 1:2: bulk entry 1 gives no rows: too-large \(/m,
    );
    expect(result.code).toBe(1);
  });

  it('--decode prints the bulk’s rows and time check, and a broken one with its error and bytes', () => {
    const result = replay('--decode');
    const [first, second] = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { bulk: Array<Record<string, unknown>>; data?: string });
    expect(first!.bulk[0]).toMatchObject({
      sequence: '11',
      minTs: String(T0 + 1000n),
      timestampIndex: 1,
      columns: [
        { name: 'host', key: 'host', type: 'STRING', semantic: '?' },
        { name: 'ts', key: 'ts', type: 'TIMESTAMP_MILLISECOND', semantic: 'TIMESTAMP' },
        { name: 'cpu', key: 'cpu', type: 'FLOAT64', semantic: '?' },
      ],
      rows: [
        { host: 'web-1', ts: '2026-01-01T00:00:01.000Z', cpu: 0.5 },
        { host: 'web-2', ts: '2026-01-01T00:00:02.000Z', cpu: 0.25 },
      ],
      timeIndex: { min: String(T0 + 1000n), max: String(T0 + 2000n), problem: null },
    });
    expect(first!.data).toBeUndefined();
    expect(second!.bulk[0]).toMatchObject({ sequence: '13', error: { reason: 'too-large' } });
    expect(Buffer.from(second!.data!, 'base64')).toEqual(Buffer.from(brokenBulk));
    expect(result.code).toBe(1);
  });
});
