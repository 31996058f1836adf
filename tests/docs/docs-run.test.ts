/**
 * Docs that run (issue #51): every command block of README.md and docs/*.md runs here against
 * the demo data (`cairn demo`, once, in a data directory of its own), each command asserting
 * its exit code and the shape of its output; a block not run says why in a visible marker.
 * The commands are read from the markdown, so an edited page is tested as it reads.
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blocksOf, docPages, isCairn, type DocCommand } from './doc-commands';

const root = resolve(__dirname, '..', '..');
const scratch = mkdtempSync(join(tmpdir(), 'cairn-docs-run-'));
const shims = join(scratch, 'bin');
const dataDir = join(scratch, 'data');
const blocks = docPages(root).flatMap((page) => blocksOf(page, root));

/** `cairn` on the PATH of the commands: this clone's bin/cairn.mjs. */
beforeAll(() => {
  mkdirSync(shims);
  const shim = join(shims, 'cairn');
  writeFileSync(
    shim,
    `#!/bin/sh\nexec "${process.execPath}" "${join(root, 'bin', 'cairn.mjs')}" "$@"\n`,
  );
  chmodSync(shim, 0o755);
  const demo = spawnSync(process.execPath, [join(root, 'bin', 'cairn.mjs'), 'demo'], {
    env: { ...process.env, CAIRN_DATA_DIR: dataDir },
    encoding: 'utf8',
  });
  expect(demo.status, demo.stderr).toBe(0);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function run(command: DocCommand, index: number): Promise<Ran> {
  // `cairn demo` writes only where nothing is: it gets an empty data directory of its own.
  const ownData = /^cairn demo\b/.test(command.command) ? join(scratch, `demo-${index}`) : dataDir;
  const cwd = join(scratch, `cwd-${index}`);
  mkdirSync(cwd, { recursive: true });
  return new Promise((done) => {
    const child = spawn('/bin/bash', ['-o', 'pipefail', '-c', command.command], {
      cwd,
      env: { ...process.env, PATH: `${shims}:${process.env.PATH}`, CAIRN_DATA_DIR: ownData },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/** The shape a command's output must have: JSON with --json, a typed error when refused. */
function checkShape(command: DocCommand, ran: Ran): void {
  const label = `${command.where}: ${command.command}`;
  expect(ran.code, `${label}\n${ran.stderr}`).toBe(command.exitCode);
  if (command.exitCode !== 0) {
    // A command that exits non-zero says why, on stderr or in its report (preflight's lines).
    expect(`${ran.stdout}${ran.stderr}`.trim(), label).not.toBe('');
    if (command.errorName !== null)
      expect(ran.stderr.split('\n')[0], label).toMatch(new RegExp(`^${command.errorName}: `));
    return;
  }
  if (/[>]\s*\S+\s*$/.test(command.command)) return; // its output went to a file
  if (/--json\b/.test(command.command) && !/\|/.test(command.command)) {
    const lines = ran.stdout.split('\n').filter((line) => line !== '');
    expect(lines.length, label).toBeGreaterThan(0);
    for (const line of lines.length === 1 ? lines : lines)
      expect(() => JSON.parse(line) as unknown, label).not.toThrow();
  } else expect(`${ran.stdout}${ran.stderr}`.trim(), label).not.toBe('');
}

describe('the docs run', () => {
  it('has blocks to run, and says why of each it does not', () => {
    expect(blocks.some((block) => block.skip === null)).toBe(true);
    for (const block of blocks) {
      if (block.skip !== null) {
        expect(block.skip, `${block.where}: a skip needs its reason`).not.toBe('');
        continue;
      }
      for (const command of block.commands)
        expect(
          isCairn(command),
          `${command.where}: "${command.command}" is not a cairn command: run it or mark the block <!-- docs-test: skip (why) -->`,
        ).toBe(true);
    }
  });

  const runnable = blocks
    .filter((block) => block.skip === null)
    .flatMap((block) => block.commands.filter(isCairn));
  it.each(runnable.map((command, index) => [command.where, command, index] as const))(
    '%s',
    async (_where, command, index) => checkShape(command, await run(command, index)),
    30_000,
  );
});
