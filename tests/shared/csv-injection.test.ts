/**
 * Issue #47 item 5: CSV export neutralises formulas (OWASP): a text cell or a header starting
 * with `=`, `+`, `-`, `@`, TAB or CR gets a leading `'`; numbers, booleans and objects are
 * untouched, and quoting still round-trips commas, quotes and newlines.
 */
import { describe, expect, it } from 'vitest';
import type { GtColumnView } from '../../src/shared/greptime/entry-table';
import { csvHeader, csvLine } from '../../src/shared/greptime/replay-rows';

const column = (key: string): GtColumnView => ({
  name: key,
  key,
  datatype: 'STRING',
  semantic: 'FIELD',
});

describe('CSV injection', () => {
  const cells: Array<[string, string]> = [
    [JSON.stringify('=HYPERLINK("http://x","y")'), `"'=HYPERLINK(""http://x"",""y"")"`],
    [JSON.stringify('+1+1'), "'+1+1"],
    [JSON.stringify('-2+3'), "'-2+3"],
    [JSON.stringify('@SUM(A1)'), "'@SUM(A1)"],
    [JSON.stringify('\t=1+1'), "'\t=1+1"],
    [JSON.stringify('\r=1+1'), `"'\r=1+1"`],
    [JSON.stringify('plain, text'), '"plain, text"'],
    [JSON.stringify('a=b'), 'a=b'],
    ['-5', '-5'],
    ['+0', '+0'],
    ['-1.5e3', '-1.5e3'],
    ['true', 'true'],
    ['{"k":"=x"}', '"{""k"":""=x""}"'],
    ['null', ''],
  ];

  it.each(cells)('writes the cell %s as %s', (json, field) => {
    const row = {
      region: (1n << 32n) | 1n,
      id: 5n,
      op: 'PUT',
      sequence: 9n,
      columns: [column('v')],
      cells: [json],
    };
    const line = csvLine(row, [column('v')]);
    expect(line.endsWith(`,${field}`)).toBe(true);
  });

  it('neutralises headers, any character a formula starts with', () => {
    const header = csvHeader(['=cmd', '-minus', '+plus', '@at', '\ttab', 'ok'].map(column));
    expect(header.split(',').slice(6)).toEqual([
      "'=cmd",
      "'-minus",
      "'+plus",
      "'@at",
      "'\ttab",
      'ok',
    ]);
  });
});
