/** The benchmark table (docs/benchmarks.md) and the README's summary are one kept run's, generated (issue #51): never typed, never mixed. */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keptRun, summaryOf, tableOf, withTable } from '../../scripts/bench-table';

const root = resolve(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'cairn-bench-table-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("the README's benchmark table", () => {
  it('is the kept run, as the script writes it', () => {
    execFileSync(process.execPath, [
      join(root, 'bin', 'run-ts.mjs'),
      join(root, 'scripts', 'bench-table.ts'),
      '--check',
    ]);
  });

  it("states the run's date and machine, one row per result of that run", () => {
    const file = keptRun();
    const run = JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof tableOf>[0];
    const block = tableOf(run, file);
    expect(block).toContain(`${run.at.slice(0, 10)} `);
    expect(block).toMatch(/ UTC on .*cores/);
    expect(block.split('\n').filter((line) => line.startsWith('| '))).toHaveLength(
      run.results.length + 2,
    );
  });

  it("the README's summary is the same run, its met figures counted", () => {
    const file = keptRun();
    const run = JSON.parse(readFileSync(file, 'utf8')) as Parameters<typeof summaryOf>[0];
    const judged = run.results.filter((result) => result.met !== null);
    const met = judged.filter((result) => result.met === true).length;
    const summary = summaryOf(run, file);
    expect(summary).toContain(`${met} of ${judged.length} judged figures met`);
    expect(summary).toContain(`(bench/results/kept/${file.split('/').pop()})`);
    expect(tableOf(run, file)).toContain(`(../bench/results/kept/${file.split('/').pop()})`);
  });

  it('refuses a kept folder of several runs, and a README without its markers', () => {
    for (const name of ['a.json', 'b.json']) writeFileSync(join(scratch, name), '{}');
    expect(() => keptRun(scratch)).toThrow(/exactly one run/);
    expect(() => withTable('# no table', 'x')).toThrow(/bench-table/);
  });
});
