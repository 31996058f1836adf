/**
 * The row texts and filters the CLI and the console's export share: CSV quoting, the column
 * union across a schema change, UTC times to the nanosecond, conditions and time ranges, and
 * the replay flags that contradict (usage errors before anything is read).
 */
import { describe, expect, it } from 'vitest';
import { replayModeOf, rowFilterOf } from '../../src/main/cli/commands/replay-rows';
import { UsageError } from '../../src/main/cli/usage-error';
import type { GtEntryTable } from '../../src/shared/greptime/entry-table';
import {
  cellText,
  ColumnUnion,
  rowLine,
  rowsCsv,
  rowsOfEntry,
} from '../../src/shared/greptime/replay-rows';
import {
  conditionOfInput,
  parseCondition,
  parseUtcTime,
  rowMatches,
} from '../../src/shared/greptime/row-filter';

const columns = [
  { name: 'host', key: 'host', datatype: 'STRING', semantic: 'TAG' },
  { name: 'ts', key: 'ts', datatype: 'TIMESTAMP_NANOSECOND', semantic: 'TIMESTAMP' },
];
const table: GtEntryTable = {
  mutations: [
    {
      op: 'PUT',
      sequence: 7n,
      columns,
      rows: [
        ['"a,b"', '"2026-01-01T00:00:00.000000001Z"'],
        ['null', '"2026-01-01T00:00:01.000000000Z"'],
      ],
    },
    {
      op: 9,
      sequence: 20n,
      columns: [...columns, { name: 'x', key: 'x', datatype: 'INT64', semantic: 'FIELD' }],
      rows: [['"c"', 'null', '"18446744073709551615"']],
    },
  ],
  bulk: [],
};
const rows = rowsOfEntry((5n << 32n) | 1n, (3n << 20n) | 2n, table);

describe('replay rows', () => {
  it('numbers each row from its mutation start sequence and prints one exact line', () => {
    expect(rows.map((row) => row.sequence)).toEqual([7n, 8n, 20n]);
    expect(rowLine(rows[2]!)).toBe(
      '{"region":"5:1","regionU64":"21474836481","id":"3:2","idU64":"3145730","op":9,"sequence":"20","host":"c","ts":null,"x":"18446744073709551615"}',
    );
  });

  it('writes CSV under the union of columns, quoting what needs it', () => {
    const union = new ColumnUnion();
    union.add(table);
    expect(rowsCsv(rows, union.columns())).toBe(
      'region,regionU64,id,idU64,op,sequence,host,ts,x\n' +
        '5:1,21474836481,3:2,3145730,PUT,7,"a,b",2026-01-01T00:00:00.000000001Z,\n' +
        '5:1,21474836481,3:2,3145730,PUT,8,,2026-01-01T00:00:01.000000000Z,\n' +
        '5:1,21474836481,3:2,3145730,9,20,c,,18446744073709551615\n',
    );
    expect(cellText('"x\\"y"')).toBe('x"y');
  });

  it('reads UTC times to the nanosecond and refuses what is not one', () => {
    expect(parseUtcTime('2026-01-01T00:00:00.000000001Z')).toBe(1767225600000000001n);
    expect(parseUtcTime('2026-01-01')).toBe(1767225600000000000n);
    expect(parseUtcTime('2026-01-01T01:00+01:00')).toBe(1767225600000000000n);
    expect(parseUtcTime('0050-01-01')).toBe(-60589296000000000000n);
    for (const bad of ['2026-02-30', '2026-01-01T24:00', 'yesterday', '2026-1-1'])
      expect(parseUtcTime(bad)).toBeNull();
  });

  it('selects rows by condition and by a half-open time range', () => {
    const filter = (text: string[], since: string | null, until: string | null) => ({
      conditions: text.map(
        (t) => parseCondition(t) as Exclude<ReturnType<typeof parseCondition>, Error>,
      ),
      since: since === null ? null : parseUtcTime(since),
      until: until === null ? null : parseUtcTime(until),
    });
    const pick = (f: ReturnType<typeof filter>) =>
      rows.filter((row) => rowMatches(row, f)).map((r) => r.sequence);
    expect(pick(filter(['host~a'], null, null))).toEqual([7n]);
    expect(pick(filter(['host='], null, null))).toEqual([8n]);
    expect(pick(filter(['op!=PUT', 'id=3:2'], null, null))).toEqual([20n]);
    expect(pick(filter([], '2026-01-01T00:00:00.000000001Z', '2026-01-01T00:00:01Z'))).toEqual([
      7n,
    ]);
    expect(parseCondition('=x')).toBeInstanceOf(Error);
    expect(conditionOfInput('host', '!=a')).toEqual({ key: 'host', op: '!=', value: 'a' });
    expect(conditionOfInput('host', 'a')).toEqual({ key: 'host', op: '~', value: 'a' });
  });
});

describe('replay flags', () => {
  const base = { format: 'ndjson', where: [] as string[] };
  it('decodes by default on GreptimeDB prefixes only', () => {
    expect(replayModeOf(base, 'greptimedb-v1')).toBe('entries');
    expect(replayModeOf(base, 'cairn-v1')).toBe('raw');
    expect(replayModeOf({ ...base, decode: true }, 'cairn-v1')).toBe('entries');
    expect(replayModeOf({ ...base, raw: true }, 'greptimedb-v1')).toBe('raw');
    expect(replayModeOf({ ...base, rows: true, format: 'csv' }, 'cairn-v1')).toBe('rows');
  });

  it.each([
    [{ raw: true, rows: true }],
    [{ raw: true, decode: true }],
    [{ format: 'csv' }],
    [{ where: ['host=a'] }],
    [{ since: '2026-01-01' }],
    [{ rows: true, format: 'xml' }],
  ])('refuses %j', (flags) => {
    expect(() => replayModeOf({ ...base, ...flags }, 'greptimedb-v1')).toThrow(UsageError);
  });

  it('refuses a bad condition or time', () => {
    expect(() => rowFilterOf({ ...base, where: ['=a'] })).toThrow(UsageError);
    expect(() => rowFilterOf({ ...base, since: 'yesterday' })).toThrow(UsageError);
  });
});
