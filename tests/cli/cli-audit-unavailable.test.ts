/**
 * Issue #47 item 2, the CLI's audited commands: with the app's audit log unwritable,
 * `cairn wal obsolete` and `cairn wal gc` are refused with `AuditUnavailable` naming the file,
 * before they change anything (no watermark raised, no object deleted), and the process log
 * says so; with it writable the command's entry is written ahead and answered by its outcome.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCairn } from '../support/cairn-cli';

const dir = mkdtempSync(join(tmpdir(), 'cairn-audit-cli-'));
const store = join(dir, 'store');
const dataDir = join(dir, 'data');
const auditFile = join(dataDir, 'audit.jsonl');
const objects = join(store, 'wal', 'nodes', '0', 'generations', '0', 'objects');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  return runCairn(['wal', ...args, '--store', store], { CAIRN_DATA_DIR: dataDir });
}

describe('the CLI with an unwritable audit log', () => {
  it('refuses obsolete and gc typed, before they change anything', () => {
    expect(run('append', '--count', '20', '--regions', '2').code).toBe(0);
    const before = readdirSync(objects).sort();
    const replayed = run('replay', '--region', '1:1').stdout;
    mkdirSync(auditFile, { recursive: true }); // An append to it fails (EISDIR).

    const last = replayed.trim().split('\n').at(-1)!;
    const to = (JSON.parse(last) as { id: string }).id;
    for (const args of [
      ['obsolete', '--region', '1:1', '--to', to, '--take-over'],
      ['gc', '--take-over'],
    ]) {
      const refused = run(...args);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        /^AuditUnavailable: the audit log .*audit\.jsonl cannot be written \(EISDIR/m,
      );
      // The process log's line says so too.
      expect(refused.stderr).toMatch(/"msg":"audit log unavailable: cli wal (obsolete|gc) on /);
      expect(readdirSync(objects).sort()).toEqual(before);
      expect(run('replay', '--region', '1:1').stdout).toBe(replayed);
    }

    rmSync(auditFile, { recursive: true });
    expect(run('obsolete', '--region', '1:1', '--to', to, '--take-over').code).toBe(0);
    const lines = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: string; result: string; intent?: string });
    const command = lines.filter((line) => line.action === 'cli wal obsolete');
    expect(command.map((line) => line.result)).toEqual(['started', 'ok']);
    expect(command[0]!.intent).toBe(command[1]!.intent);
  });
});
