/**
 * `cairn wal search --format csv` prints its header and hits from one read while the hits fit
 * the bound they are held within, and the same bytes from a second read when they do not: the
 * header names every column of the hits either way, a column met late (a schema that changed)
 * included.
 */
import { describe, expect, it } from 'vitest';
import { CsvHits, printCsvHits } from '../../src/main/cli/commands/search-csv';
import { keyedColumns } from '../../src/shared/greptime/decode/entry-table';
import { hitsCsv, type SearchHit } from '../../src/shared/search/search-hits';

const narrow = keyedColumns([
  { name: 'host', datatype: 'STRING', semantic: 'TAG' },
  { name: 'cpu', datatype: 'FLOAT64', semantic: 'FIELD' },
]);
const wide = keyedColumns([...narrow, { name: 'disk', datatype: 'FLOAT64', semantic: 'FIELD' }]);

function hit(n: number): SearchHit {
  const columns = n < 3 ? narrow : wide;
  const cells = ['"web-1"', String(n), ...(n < 3 ? [] : ['0.5'])];
  return {
    kind: 'row',
    row: { region: 7n, id: BigInt(n), op: 'PUT', sequence: 1n, columns, cells },
  };
}

const HITS = Array.from({ length: 6 }, (_, n) => hit(n));

async function printed(heldBytes: number): Promise<{ text: string; reads: number }> {
  const held = new CsvHits(heldBytes);
  held.add(HITS.slice(0, 4));
  held.add(HITS.slice(4));
  let reads = 0;
  const lines: string[] = [];
  await printCsvHits(
    (line) => lines.push(line),
    'row',
    held,
    async function* () {
      reads += 1;
      yield { hits: HITS.slice(0, 2) };
      yield { hits: HITS.slice(2) };
    },
  );
  return { text: lines.map((line) => `${line}\n`).join(''), reads };
}

describe('search CSV', () => {
  it('prints the held hits under a header of every column, without a second read', async () => {
    const once = await printed(1 << 20);
    expect(once.reads).toBe(0);
    expect(once.text).toBe(hitsCsv('row', HITS));
    expect(once.text.split('\n')[0]).toBe('region,regionU64,id,idU64,op,sequence,host,cpu,disk');
  });

  it('prints the same bytes from a second read when the hits outgrow the bound', async () => {
    const twice = await printed(200);
    expect(twice.reads).toBe(1);
    expect(twice.text).toBe(hitsCsv('row', HITS));
  });
});
