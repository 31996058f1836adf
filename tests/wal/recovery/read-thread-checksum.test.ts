/**
 * Region reads whose segment checksums the local read thread takes (`readRangeChecksummed`):
 * the same entries as reads on libuv's pool, and a damaged segment caught exactly as before -
 * on an object's first read, which fetches its header with the segment, and on later reads.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { LocalReadThread } from '../../../src/main/engine/objectio/local-read-thread';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { openReadOnly } from '../../../src/main/engine/wal/read-only-log';
import {
  appendParts,
  collect,
  laneConfig,
  ofRegion,
  openLaneStore,
  payload,
  providerOf,
  REGION_A,
  REGION_B,
  REGION_C,
  settle,
  shapeOf,
  type Written,
} from '../lanes/lane-kit';

const roots: string[] = [];
afterAll(() => Promise.all(roots.map((root) => rm(root, { recursive: true, force: true }))));

async function writeRounds(io: ObjectIo): Promise<Written[]> {
  const store = await openLaneStore(io, laneConfig(), { probe: false });
  const written: Written[] = [];
  for (let round = 0; round < 3; round++) {
    written.push(
      ...(await appendParts(store, [
        [REGION_A, payload(`a${round}`, 300 + round)],
        [REGION_B, payload(`b${round}`, 5000)],
        [REGION_C, payload(`c${round}`, 1)],
        [REGION_A, payload(`a${round}+`, 70_000)],
      ])),
    );
  }
  await store.stop();
  return written;
}

async function readAll(io: ObjectIo, region: bigint, fail = false) {
  const log = await openReadOnly(io, laneConfig(fail ? { onCorruptedSegment: 'fail' } : {}));
  return settle(collect(log.read(providerOf(log, region), 0n)));
}

it('reads every region as the pool does, and finds a damaged segment on first and later reads', async () => {
  const root = await mkdtemp(path.join(tmpdir(), 'cairn-read-thread-'));
  roots.push(root);
  const thread = new LocalReadThread(1);
  const io = new LocalObjectIo(root, { readThread: thread });
  const written = await writeRounds(io);
  await readAll(io, REGION_A);
  await expect.poll(() => thread.running, { timeout: 10_000 }).toBe(true);
  const onPool = new LocalObjectIo(root, { readThread: null });

  const before = thread.answered;
  for (const region of [REGION_A, REGION_B, REGION_C]) {
    const [threaded, pooled] = [await readAll(io, region), await readAll(onPool, region)];
    expect(threaded.ok && pooled.ok).toBe(true);
    if (threaded.ok && pooled.ok) {
      expect(shapeOf(threaded.value)).toEqual(shapeOf(ofRegion(written, region)));
      expect(shapeOf(pooled.value)).toEqual(shapeOf(threaded.value));
    }
  }
  expect(thread.answered - before).toBeGreaterThanOrEqual(9);

  const log = await openReadOnly(io, laneConfig());
  const [, hit] = log.catalog.objectsForRegion(REGION_A, 1n);
  if (hit === undefined) throw new Error('no second segment of region A');
  const file = path.join(root, hit.key);
  const bytes = await readFile(file);
  const at = hit.offset + hit.length - 2;
  bytes[at] = bytes[at]! ^ 0xff;
  await writeFile(file, bytes);

  const skipped = await readAll(io, REGION_A);
  const survivors = ofRegion(written, REGION_A).filter(
    (w) => w.id < hit.firstId || w.id > hit.lastId,
  );
  expect(skipped.ok && shapeOf(skipped.value)).toEqual(shapeOf(survivors));
  // A read of a store that checked the object's header already: the segment alone.
  const again = await settle(collect(log.read(providerOf(log, REGION_A), 0n)));
  expect(again.ok && shapeOf(again.value)).toEqual(shapeOf(survivors));
  const failed = await readAll(io, REGION_A, true);
  expect(failed.ok ? null : failed.error).toMatchObject({
    code: 'CorruptSegment',
    key: hit.key,
    region: REGION_A,
    check: 'segment-crc',
  });
  await thread.stop();
}, 30_000);
