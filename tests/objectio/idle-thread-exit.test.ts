/**
 * A store thread that started but never answered a request must not hold the process open:
 * a process whose work is done ends on its own. (Seen: the tail-read thread came online after
 * the reads that started it had been made on the pool, and the bench never returned.)
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const projectRoot = resolve(__dirname, '..', '..');

/** Starts the tail-read thread with one pool read, waits until it is online, then returns. */
const IDLE_THREAD_SCRIPT = `
import { createRequire } from 'node:module';
const requireHere = createRequire(${JSON.stringify(join(projectRoot, 'package.json'))});
requireHere('tsx/cjs/api').register();
const { LocalReadThread } = requireHere('./src/main/engine/objectio/local-read-thread.ts');
const thread = new LocalReadThread(1);
const first = thread.read(${JSON.stringify(join(projectRoot, 'package.json'))}, 0, 1);
while (thread.state === 'starting') await new Promise((wake) => setTimeout(wake, 10));
process.stdout.write(JSON.stringify({ firstReadOnPool: first === null, running: thread.running }));
`;

describe('an idle store thread', () => {
  it('lets a process whose work is done exit by itself', () => {
    const script = join(mkdtempSync(join(tmpdir(), 'cairn-idle-thread-')), 'idle.mjs');
    writeFileSync(script, IDLE_THREAD_SCRIPT);
    const run = spawnSync(process.execPath, [script], {
      encoding: 'utf8',
      // Only a process held open waits this long; killed, it has no exit status.
      timeout: 30_000,
    });
    expect({ status: run.status, signal: run.signal, stdout: run.stdout }).toEqual({
      status: 0,
      signal: null,
      stdout: JSON.stringify({ firstReadOnPool: true, running: true }),
    });
  });
});
