/**
 * Watermark requests against a live writer (docs/design/watermark-requests.md): a console
 * writes a request to the register without taking the epoch; the writer adopts the version,
 * applies the request at its next register write, is never fenced, and its appends go on.
 * A request on a dead writer's prefix waits, and the next holder applies it at open.
 */
import { describe, expect, it } from 'vitest';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { registerStoreOf } from '../../../src/main/engine/wal/register';
import { readControl } from '../../../src/main/engine/wal/register';
import {
  readRequests,
  submitWatermarkRequest,
} from '../../../src/main/engine/wal/watermark-requests/submit';
import { RequestsNotAcceptedError } from '../../../src/main/engine/wal/watermark-requests/errors';
import { REQUEST_FIELDS } from '../../../src/main/engine/wal/watermark-requests/fields';
import {
  entriesOf,
  openStore,
  PREFIX,
  readAll,
  REGION_A,
  REGION_B,
  until,
} from '../support/writer-harness';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import type { EntryId } from '../../../src/main/engine/wal/ids';

const asked = (id: string, region: bigint, watermark: EntryId) => ({
  id,
  region,
  watermark,
  requestedAtMs: 1_000,
  requestedBy: 'test console',
});

async function appendSome(store: ObjectStoreLogStore, region: bigint, n: number): Promise<EntryId> {
  let last = 0n;
  for (let i = 0; i < n; i += 1) {
    const result = await store.appendBatch(entriesOf(store, region, `e${i}`));
    last = result.lastEntryIds.get(region) ?? last;
  }
  return last;
}

async function settledState(io: MemoryObjectIo, id: string): Promise<string | undefined> {
  const view = await readRequests(registerStoreOf(io, PREFIX, { writerId: 'reader' }));
  return view?.log.find((request) => request.id === id)?.state;
}

describe('a watermark request on a prefix a live writer holds', () => {
  it('is applied by the writer, which is not fenced and keeps appending', async () => {
    const io = new MemoryObjectIo();
    const writer = await openStore(io, {}, { requestPollMs: 20 });
    try {
      await appendSome(writer, REGION_A, 3);
      const ids = (await readAll(writer, REGION_A)).map((entry) => entry.id);
      const watermark = ids[1] ?? 0n;
      // Another process (its own store instance): the console's request, no epoch taken.
      const requester = registerStoreOf(io, PREFIX, { writerId: 'console' });
      const submitted = await submitWatermarkRequest(
        requester,
        PREFIX,
        asked('r1', REGION_A, watermark),
      );
      expect(submitted.request.state).toBe('pending');
      expect(submitted.writerEpoch).toBe(writer.epoch);

      await until(async () => (await settledState(io, 'r1')) === 'applied', 'the apply');
      const view = await readRequests(requester);
      expect(view?.log[0]).toMatchObject({
        state: 'applied',
        epoch: writer.epoch,
        effective: watermark,
      });
      expect((await readControl(requester))?.control.watermarks.get(REGION_A)).toBe(watermark);
      // Hidden up to the watermark, and only that.
      expect((await readAll(writer, REGION_A)).map((entry) => entry.id)).toEqual(ids.slice(2));

      // Not fenced: the same writer appends, its epoch unchanged.
      const after = await appendSome(writer, REGION_A, 2);
      expect(after > (ids[2] ?? 0n)).toBe(true);
      expect(writer.state().poisoned).toBeNull();
      expect((await readControl(requester))?.control.writerEpoch).toBe(writer.epoch);
    } finally {
      await writer.stop();
    }
  });

  it('is adopted at a fence read while appends run, and rejected when above the durable id', async () => {
    const io = new MemoryObjectIo();
    const writer = await openStore(io, {}, { requestPollMs: 0 });
    try {
      const last = await appendSome(writer, REGION_A, 2);
      const requester = registerStoreOf(io, PREFIX, { writerId: 'console' });
      await submitWatermarkRequest(
        requester,
        PREFIX,
        asked('too-high', REGION_A, last + (1000n << 20n)),
      );
      await submitWatermarkRequest(requester, PREFIX, asked('other', REGION_B, 1n));
      // No poll: the next append's fence read meets the request version and adopts it.
      await appendSome(writer, REGION_A, 1);
      await until(async () => (await settledState(io, 'too-high')) === 'rejected', 'the rejection');
      const log = (await readRequests(requester))?.log ?? [];
      expect(log.map((request) => request.state)).toEqual(['rejected', 'rejected']);
      expect(log[0]).toMatchObject({
        reason: expect.stringContaining('above the latest durable id'),
      });
      expect((await readControl(requester))?.control.watermarks.size).toBe(0);
      expect(writer.state().poisoned).toBeNull();
    } finally {
      await writer.stop();
    }
  });

  it('waits on a dead writer, and the next holder applies it at open', async () => {
    const io = new MemoryObjectIo();
    const first = await openStore(io, {}, { requestPollMs: 0 });
    const last = await appendSome(first, REGION_A, 2);
    // The writer dies (no stop: nothing more is written by it).
    const requester = registerStoreOf(io, PREFIX, { writerId: 'console' });
    await submitWatermarkRequest(requester, PREFIX, asked('r', REGION_A, last));
    expect(await settledState(io, 'r')).toBe('pending');
    const second = await openStore(io, {}, { requestPollMs: 0 });
    try {
      await until(async () => (await settledState(io, 'r')) === 'applied', 'the apply at open');
      expect((await readRequests(requester))?.log[0]).toMatchObject({ epoch: second.epoch });
      expect(await readAll(second, REGION_A)).toEqual([]);
    } finally {
      await second.stop();
    }
  });

  it('is refused, writing nothing, when the holder does not read requests (an older writer)', async () => {
    const io = new MemoryObjectIo();
    const writer = await openStore(io, {}, { requestPollMs: 0 });
    await writer.stop();
    // An older Cairn took the epoch: it carried the reader stamp over unchanged.
    const store = registerStoreOf(io, PREFIX, { writerId: 'old' });
    const current = await store.read();
    if (current === null) throw new Error('no register');
    const fields = { ...current.fields, 'cairn.writer_epoch': String(writer.epoch + 1n) };
    await store.update(current.version, fields);
    const before = await store.read();
    const error = await submitWatermarkRequest(store, PREFIX, asked('r', REGION_A, 1n)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RequestsNotAcceptedError);
    expect((await store.read())?.version).toBe(before?.version);
    expect(before?.fields[REQUEST_FIELDS.requests]).toBeUndefined();
  });
});
