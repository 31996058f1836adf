/**
 * `cairn wal append`'s habits: a summary (and, on a terminal, a progress line), never a line
 * per acknowledgement unless asked (`--acks-out FILE`, `--print-acks`); the two together are
 * bad usage that writes nothing. Plus `cairn demo`, behind the console's guard.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { countLine, showCount } from '../../src/main/cli/count-progress';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-append-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function cairn(dataDir: string, ...args: string[]) {
  return runCairn(args, { CAIRN_DATA_DIR: join(dir, dataDir) });
}

const lines = (text: string) => text.split('\n').filter((line) => line !== '');

describe('cairn wal append', () => {
  it('prints its summary only, by default', () => {
    const run = cairn('quiet', 'wal', 'append', '--count', '12', '--writers', '2');
    expect(run.code, run.stderr).toBe(0);
    expect(lines(run.stdout)).toHaveLength(1);
    expect(run.stdout).toMatch(/^12 entries acknowledged, 0 failed in [\d.]+ s \(/);
  });

  it('prints each acknowledgement with --print-acks, the summary then on stderr', () => {
    const run = cairn('printed', 'wal', 'append', '--count', '5', '--writers', '1', '--print-acks');
    expect(run.code, run.stderr).toBe(0);
    const acks = lines(run.stdout).map(
      (line) => JSON.parse(line) as { id: string; region: string },
    );
    expect(acks).toHaveLength(5);
    expect(new Set(acks.map((ack) => `${ack.region}/${ack.id}`)).size).toBe(5);
    expect(run.stderr).toMatch(/^5 entries acknowledged/m);
  });

  it('writes acknowledgements to --acks-out and prints the summary', () => {
    const file = join(dir, 'acks.ndjson');
    const run = cairn('file', 'wal', 'append', '--count', '1', '--acks-out', file);
    expect(run.code, run.stderr).toBe(0);
    expect(lines(readFileSync(file, 'utf8'))).toHaveLength(1);
    expect(run.stdout).toMatch(/^1 entry acknowledged/);
  });

  it('refuses --acks-out with --print-acks before taking the epoch', () => {
    const run = cairn('both', 'wal', 'append', '--print-acks', '--acks-out', join(dir, 'x'));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('either --acks-out or --print-acks');
    expect(cairn('both', 'objects', 'ls').stdout).toBe('');
  });
});

describe('the progress line of a count', () => {
  afterEach(() => vi.useRealTimers());

  it('says how many of the total, agreed, and the rate', () => {
    expect(countLine('append', 'entry', 'acknowledged', { done: 1, total: 1, seconds: 0.5 })).toBe(
      'cairn append: 1 of 1 entry acknowledged · 2 entries/s',
    );
  });

  it('rewrites one line on a terminal and erases it at the end; nothing elsewhere', () => {
    vi.useFakeTimers();
    const written: string[] = [];
    const stop = showCount(() => 'cairn append: 3 of 9', {
      isTTY: true,
      write: (text) => written.push(text),
    });
    vi.advanceTimersByTime(600);
    stop();
    expect(written).toEqual([
      '\rcairn append: 3 of 9',
      '\rcairn append: 3 of 9',
      `\r${' '.repeat(20)}\r`,
    ]);
    const piped: string[] = [];
    showCount(() => 'x', { isTTY: false, write: (text) => piped.push(text) })();
    expect(piped).toEqual([]);
  });
});

describe('cairn demo', () => {
  it('writes the demo data once, then refuses the taken places and writes nothing', () => {
    const first = cairn('demo', 'demo', '--json');
    expect(first.code, first.stderr).toBe(0);
    const summary = JSON.parse(first.stdout) as { walPrefixes: string[]; namespaces: number };
    expect(summary.walPrefixes).toContain('wal/nodes/0/generations/0');
    expect(summary.namespaces).toBe(6);
    const listed = cairn('demo', 'wal', 'ls', '--json');
    const prefixes = (JSON.parse(listed.stdout) as Array<{ prefix: string }>).map((p) => p.prefix);
    expect(prefixes.sort()).toEqual([...summary.walPrefixes].sort());
    const again = cairn('demo', 'demo');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^DemoPlaceTaken: /);
  });

  it('asks a saved store that is neither embedded nor empty for its name', () => {
    const store = join(dir, 'busy-store');
    expect(
      cairn('guarded', 'connections', 'add-local', '--name', 'Busy', '--path', store).code,
    ).toBe(0);
    // Something of its own (node 5), away from every place the demo writes.
    expect(runCairn(['wal', 'append', '--count', '1', '--node', '5', '--store', store]).code).toBe(
      0,
    );
    const refused = cairn('guarded', 'demo', '--connection', 'Busy');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/^ConfirmationRequired: /);
    const confirmed = cairn('guarded', 'demo', '--connection', 'Busy', '--confirm', 'Busy');
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(confirmed.stdout).toMatch(
      /^Demo data written to Busy: \d+ WAL entries, 6 namespaces, 6 segments\./,
    );
  });
});
