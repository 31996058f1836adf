/**
 * `cairn wal replay` on a GreptimeDB prefix whose payloads are `WalEntry`s made by the tests'
 * own encoder: `--rows` prints exactly the rows written (a column added mid-replay lines up by
 * name in CSV), `--where` / `--since` / `--until` select rows, the default `--decode` prints
 * each entry's mutations, a payload that is not a `WalEntry` is shown with its reason and
 * offset and makes the command exit 1, and contradicting flags are usage errors (exit 2).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import type { GtMutation, GtValue } from '../../src/shared/greptime/decode/wal-entry';
import { column, encodeWalEntry } from '../greptimedb/entries/wal-entry-encoder';
import { GtPrefixBuilder } from '../greptimedb/gt-encoder';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-rows-cli-'));
const store = join(dir, 'store');
const PREFIX = 'datanodes/4/epochs/1';
const R1 = makeRegionId(7, 1);
const R2 = makeRegionId(7, 2);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const host = column('host', 12, 0);
const ts = column('ts', 16, 2);
const cpu = column('cpu', 10, 1);
const load = column('load', 10, 1);
const s = (value: string): GtValue => ({ kind: 'string', value });
const t = (value: bigint): GtValue => ({ kind: 'timestamp', unit: 'ms', value });
const f = (value: number): GtValue => ({ kind: 'f64', value });
const T0 = 1767225600000n; // 2026-01-01T00:00:00Z

function mutation(
  opType: number,
  sequence: bigint,
  schema: (typeof host)[],
  rows: GtValue[][],
): GtMutation {
  return { opType, sequence, rows: { schema, rows }, primaryKeyEncoding: null };
}

const first = encodeWalEntry({
  mutations: [
    mutation(
      1,
      100n,
      [host, ts, cpu],
      [
        [s('web-1'), t(T0), f(1.5)],
        [s('web "2"'), t(T0), null],
      ],
    ),
  ],
  bulkEntries: [],
});
const second = encodeWalEntry({
  mutations: [
    mutation(1, 102n, [host, ts, cpu, load], [[s('web-1'), t(T0 + 60_000n), f(2.5), f(0.7)]]),
    mutation(0, 103n, [host, ts], [[s('web "2"'), t(T0 + 60_000n)]]),
  ],
  bulkEntries: [],
});

beforeAll(async () => {
  const builder = new GtPrefixBuilder(PREFIX);
  builder.openInstance();
  builder.append([
    [R1, [first]],
    [R2, [first.subarray(0, 9)]],
  ]);
  builder.append([[R1, [second]]]);
  await builder.writeTo(new LocalObjectIo(store));
});

function replay(...args: string[]) {
  return runCairn(['wal', 'replay', '--dir', store, '--prefix', PREFIX, ...args]);
}

const ROWS = [
  '{"region":"7:1","regionU64":"30064771073","id":"1:1","idU64":"1048577","op":"PUT","sequence":"100","host":"web-1","ts":"2026-01-01T00:00:00.000Z","cpu":1.5}',
  '{"region":"7:1","regionU64":"30064771073","id":"1:1","idU64":"1048577","op":"PUT","sequence":"101","host":"web \\"2\\"","ts":"2026-01-01T00:00:00.000Z","cpu":null}',
  '{"region":"7:1","regionU64":"30064771073","id":"2:1","idU64":"2097153","op":"PUT","sequence":"102","host":"web-1","ts":"2026-01-01T00:01:00.000Z","cpu":2.5,"load":0.7}',
  '{"region":"7:1","regionU64":"30064771073","id":"2:1","idU64":"2097153","op":"DELETE","sequence":"103","host":"web \\"2\\"","ts":"2026-01-01T00:01:00.000Z"}',
];

describe('cairn wal replay on GreptimeDB WalEntry payloads', () => {
  it('--rows prints exactly the rows written, one line each', () => {
    const result = replay('--region', '7:1', '--rows');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(ROWS.map((line) => `${line}\n`).join(''));
  });

  it('--format csv lines every row up under every column met', () => {
    const result = replay('--region', '7:1', '--rows', '--format', 'csv');
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      [
        'region,regionU64,id,idU64,op,sequence,host,ts,cpu,load',
        '7:1,30064771073,1:1,1048577,PUT,100,web-1,2026-01-01T00:00:00.000Z,1.5,',
        '7:1,30064771073,1:1,1048577,PUT,101,"web ""2""",2026-01-01T00:00:00.000Z,,',
        '7:1,30064771073,2:1,2097153,PUT,102,web-1,2026-01-01T00:01:00.000Z,2.5,0.7',
        '7:1,30064771073,2:1,2097153,DELETE,103,"web ""2""",2026-01-01T00:01:00.000Z,,',
        '',
      ].join('\n'),
    );
  });

  it('--where, --since and --until select rows', () => {
    expect(replay('--region', '7:1', '--rows', '--where', 'host=web-1').stdout).toBe(
      `${ROWS[0]}\n${ROWS[2]}\n`,
    );
    expect(
      replay('--region', '7:1', '--rows', '--where', 'op!=PUT', '--where', 'host~2').stdout,
    ).toBe(`${ROWS[3]}\n`);
    const timed = replay(
      '--region',
      '7:1',
      '--rows',
      '--since',
      '2026-01-01T00:00:30Z',
      '--until',
      '2026-01-01T00:01:00.001Z',
    );
    expect(timed.stdout).toBe(`${ROWS[2]}\n${ROWS[3]}\n`);
  });

  it('decodes by default: one line per entry with its mutations', () => {
    const result = replay('--region', '7:1');
    expect(result.code).toBe(0);
    const lines = result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toEqual({
      region: '7:1',
      regionU64: '30064771073',
      id: '2:1',
      idU64: '2097153',
      size: second.length,
      payload: 'wal-entry',
      mutations: [
        {
          op: 'PUT',
          sequence: '102',
          columns: [
            { name: 'host', key: 'host', type: 'STRING', semantic: 'TAG' },
            { name: 'ts', key: 'ts', type: 'TIMESTAMP_MILLISECOND', semantic: 'TIMESTAMP' },
            { name: 'cpu', key: 'cpu', type: 'FLOAT64', semantic: 'FIELD' },
            { name: 'load', key: 'load', type: 'FLOAT64', semantic: 'FIELD' },
          ],
          rows: [{ host: 'web-1', ts: '2026-01-01T00:01:00.000Z', cpu: 2.5, load: 0.7 }],
        },
        {
          op: 'DELETE',
          sequence: '103',
          columns: [
            { name: 'host', key: 'host', type: 'STRING', semantic: 'TAG' },
            { name: 'ts', key: 'ts', type: 'TIMESTAMP_MILLISECOND', semantic: 'TIMESTAMP' },
          ],
          rows: [{ host: 'web "2"', ts: '2026-01-01T00:01:00.000Z' }],
        },
      ],
      bulk: [],
    });
  });

  it('shows a payload that is not a WalEntry raw with its reason and offset, and exits 1', () => {
    const decoded = replay('--region', '7:2');
    expect(decoded.code).toBe(1);
    const line = JSON.parse(decoded.stdout) as {
      payload: string;
      error: { reason: string; offset: number };
      data: string;
    };
    expect(line.payload).toBe('not-wal-entry');
    expect(line.error).toMatchObject({ reason: 'truncated', offset: 0 });
    expect(Buffer.from(line.data, 'base64')).toEqual(Buffer.from(first.subarray(0, 9)));
    expect(decoded.stderr).toContain(
      'Damaged: payload at region 7:2 entry 1:1: not a WalEntry: truncated at byte 0',
    );
    const rows = replay('--region', '7:2', '--rows');
    expect(rows.code).toBe(1);
    expect(rows.stdout).toBe('');
    expect(rows.stderr).toContain('not a WalEntry: truncated');
  });

  it('refuses contradicting flags as a usage error before reading', () => {
    const result = replay('--region', '7:1', '--raw', '--rows');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('--raw');
  });
});
