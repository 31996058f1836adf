/**
 * `cairn wal obsolete --request` as a user runs it (issue #48 item 5): the CLI adds a request
 * to the register without taking the epoch; a live writer (here, in the test's process)
 * applies it and is not fenced; on a prefix whose writer is gone it stays pending, and
 * `--wait` says so with exit 1. `--request --take-over` is a usage error that writes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { registerStoreOf } from '../../src/main/engine/wal/register';
import { ObjectStoreLogStore } from '../../src/main/engine/wal/store';
import { readRequests } from '../../src/main/engine/wal/watermark-requests/submit';
import { formatEntryId } from '../../src/shared/id-notation';
import { runCairn } from '../support/cairn-cli';
import { until } from '../wal/support/writer-harness';

const dir = mkdtempSync(join(tmpdir(), 'cairn-wal-request-'));
const storeDir = join(dir, 'store');
const PREFIX = 'wal/nodes/0/generations/0';
const REGION = (1n << 32n) | 1n;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(...args: string[]) {
  return runCairn(['wal', ...args, '--store', storeDir], { CAIRN_DATA_DIR: join(dir, 'data') });
}

async function openWriter(io: LocalObjectIo): Promise<ObjectStoreLogStore> {
  return ObjectStoreLogStore.open(
    io,
    { root: 'wal', nodeId: 0n, generation: 0, flushIntervalMs: 10 },
    { requestPollMs: 20 },
  );
}

async function append(store: ObjectStoreLogStore, count: number): Promise<bigint> {
  let last = 0n;
  for (let i = 0; i < count; i += 1) {
    const provider = { prefix: store.prefix, regionId: REGION };
    const result = await store.appendBatch([
      store.entry(new TextEncoder().encode(`e${i}`), 0n, REGION, provider),
    ]);
    last = result.lastEntryIds.get(REGION) ?? last;
  }
  return last;
}

const requestsOf = async (io: LocalObjectIo) =>
  (await readRequests(registerStoreOf(io, PREFIX)))?.log ?? [];

describe('cairn wal obsolete --request', () => {
  const io = new LocalObjectIo(storeDir);

  it('asks the live writer, which applies it without being fenced', async () => {
    const writer = await openWriter(io);
    try {
      const last = await append(writer, 3);
      const asked = run(
        'obsolete',
        '--region',
        '1:1',
        '--to',
        formatEntryId(last),
        '--request',
        '--json',
      );
      expect(asked.code).toBe(0);
      const printed = JSON.parse(asked.stdout) as {
        writerEpoch: string;
        request: { id: string; state: string };
      };
      expect(printed.request.state).toBe('pending');
      await until(async () => (await requestsOf(io))[0]?.state === 'applied', 'the apply');
      expect((await requestsOf(io))[0]).toMatchObject({ epoch: writer.epoch, effective: last });
      expect(await append(writer, 1)).toBeGreaterThan(last);
      expect(writer.state().poisoned).toBeNull();
    } finally {
      await writer.stop();
    }
  });

  it('stays pending on a prefix whose writer is gone: --wait says so and exits 1', async () => {
    const before = (await requestsOf(io)).length;
    const waited = run('obsolete', '--region', '1:1', '--to', '0:1', '--request', '--wait', '1');
    expect(waited.code).toBe(1);
    expect(waited.stdout).toMatch(/pending for \d+ s/);
    expect(await requestsOf(io)).toHaveLength(before + 1);
  });

  it('refuses --request with --take-over, writing nothing', async () => {
    const before = (await requestsOf(io)).length;
    const refused = run('obsolete', '--region', '1:1', '--to', '0:1', '--request', '--take-over');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--take-over');
    expect(await requestsOf(io)).toHaveLength(before);
  });
});
