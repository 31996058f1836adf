/**
 * The benchmark harness: each figure is measured side by side with its baseline in the same
 * run, so the ratio holds on a noisy machine. Prints one table and writes JSON under
 * bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface FigureResult {
  readonly figure: string;
  readonly backend: string;
  /** The measured value (a ratio, seconds, bytes...). */
  readonly value: number;
  readonly unit: string;
  /** e.g. '>= 0.8'; empty when the figure is only reported. */
  readonly target: string;
  readonly met: boolean | null;
  /** The raw measurements behind the value. */
  readonly detail: Readonly<Record<string, number | string>>;
}

export type Comparison = '>=' | '<=' | '<';

export function judged(
  value: number,
  comparison: Comparison,
  bound: number,
): { target: string; met: boolean } {
  const met =
    comparison === '>=' ? value >= bound : comparison === '<=' ? value <= bound : value < bound;
  return { target: `${comparison} ${bound}`, met };
}

/** The table of `results`: its header, one row per result (the value with its unit), and widths. */
export function resultCells(
  results: readonly FigureResult[],
  words: { readonly notMet: string; readonly metTitle: string } = {
    notMet: 'NOT MET',
    metTitle: '',
  },
): { header: string[]; rows: string[][]; widths: number[] } {
  const rows = results.map((result) => [
    result.figure,
    result.backend,
    formatValue(result.value, result.unit),
    result.target || 'report',
    result.met === null ? '-' : result.met ? 'met' : words.notMet,
  ]);
  const header = ['figure', 'backend', 'value', 'target', words.metTitle];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]!.length)),
  );
  return { header, rows, widths };
}

export function printTable(results: readonly FigureResult[]): void {
  const { header, rows, widths } = resultCells(results);
  const line = (cells: string[]) =>
    cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ');
  console.log(line(header));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

function formatValue(value: number, unit: string): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 3;
  return `${value.toFixed(digits)} ${unit}`.trim();
}

export function writeResults(
  results: readonly FigureResult[],
  directory: string,
  context: Readonly<Record<string, unknown>> = {},
): string {
  mkdirSync(directory, { recursive: true });
  const file = join(directory, `bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(
    file,
    JSON.stringify(
      {
        at: new Date().toISOString(),
        node: process.version,
        v8Flags: process.execArgv,
        ...context,
        results,
      },
      null,
      2,
    ) + '\n',
  );
  return file;
}

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs `work` with `concurrency` workers pulling from `count` jobs; returns elapsed seconds. */
export async function timedPool(
  count: number,
  concurrency: number,
  work: (index: number) => Promise<void>,
): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await work(next++);
    }),
  );
  return (performance.now() - started) / 1000;
}
