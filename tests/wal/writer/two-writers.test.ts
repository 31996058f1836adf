/**
 * Two live writers on one prefix, through the real open: the second opens while the first
 * appends with creates in flight (throttled, some failing, objects landing around the
 * second's listing). Then the same race with `ackFence: 'none'` shows the loss the fence
 * prevents.
 */
import { describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { objectsUnder } from '../../../src/main/engine/objectio/object-io';
import { decodeTrailer } from '../../../src/main/engine/wal/format';
import { objectsFolder, seqOfObjectKey } from '../../../src/main/engine/wal/keys';
import {
  PREFIX,
  REGION_A,
  codeOf,
  entriesOf,
  keyAt,
  openStore,
  payloadOf,
  readAll,
  settle,
  until,
} from '../support/writer-harness';

async function objectsOfEpoch(io: FaultyObjectIo, epoch: bigint): Promise<bigint[]> {
  const seqs: bigint[] = [];
  for await (const meta of objectsUnder(io, objectsFolder(PREFIX))) {
    const seq = seqOfObjectKey(PREFIX, meta.key);
    if (seq === null) continue;
    const bytes = (await io.get(meta.key)).bytes;
    if (decodeTrailer(bytes, bytes.length, meta.key).epoch === epoch) seqs.push(seq);
  }
  return seqs;
}

describe('two live writers on one prefix', () => {
  it('the older is fenced; nothing acknowledged is lost; no old create reaches the new start; failed appends never reappear later', async () => {
    const io = new FaultyObjectIo(new MemoryObjectIo());
    const older = await openStore(
      io,
      { maxBatchBytes: 1, maxInFlightCreates: 4 },
      { fenceDeadlineMs: 300, fenceRetryDelayMs: 5 },
    );
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'unavailable', count: 2 });
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'apply-then-lose', count: 2 });
    io.inject({ op: 'putIfAbsent', key: /objects\//, kind: 'delay', delayMs: 25 });
    const acked: string[] = [];
    const failed: string[] = [];
    const appends = Array.from({ length: 80 }, (_, i) =>
      settle(older.appendBatch(entriesOf(older, REGION_A, `A${i}`))).then((r) =>
        (r.ok ? acked : failed).push(`A${i}`),
      ),
    );
    await until(() => acked.length >= 5, 'the older writer to acknowledge a few');
    const lateEntries = entriesOf(older, REGION_A, 'A-late'); // entry() too fails once poisoned
    const newer = await openStore(io, {}, { fenceDeadlineMs: 300 });
    const startSeq = newer.state().indexedTip?.seq ?? -1n;
    const seenAtOpen = new Set((await readAll(newer, REGION_A)).map(payloadOf));
    await Promise.all(appends);
    const late = await settle(older.appendBatch(lateEntries));
    expect(late.ok).toBe(false);
    if (!late.ok) expect(codeOf(late.error)).toBe('Fenced');
    expect(older.state().poisoned?.code).toBe('Fenced');

    for (const payload of acked)
      expect(seenAtOpen.has(payload), `${payload} acknowledged but not recovered`).toBe(true);
    const olderSeqs = await objectsOfEpoch(io, older.epoch);
    expect(olderSeqs.every((s) => s < startSeq)).toBe(true);

    await newer.appendBatch(entriesOf(newer, REGION_A, 'B1', 'B2'));
    await newer.stop();
    await older.stop();
    const third = await openStore(io);
    const replayed = (await readAll(third, REGION_A)).map(payloadOf);
    for (const payload of [...acked, 'B1', 'B2']) expect(replayed).toContain(payload);
    for (const payload of replayed.filter((p) => p.startsWith('A')))
      expect(seenAtOpen.has(payload)).toBe(true);
    await third.stop();
  }, 30_000);

  for (const ackFence of ['register', 'none'] as const) {
    it(`an ack racing the takeover: ackFence '${ackFence}' ${ackFence === 'none' ? 'loses it' : 'refuses it'}`, async () => {
      const io = new FaultyObjectIo(new MemoryObjectIo());
      const older = await openStore(io, { ackFence }, { fenceDeadlineMs: 300 });
      const seq = older.state().nextSeq;
      io.inject({
        op: 'putIfAbsent',
        key: new RegExp(`${keyAt(seq)}$`),
        kind: 'delay',
        delayMs: 150,
      });
      const racing = settle(older.appendBatch(entriesOf(older, REGION_A, 'racing')));
      await until(() => older.state().createsInFlight.length === 1, 'create in flight');
      const newer = await openStore(io);
      const outcome = await racing;
      await newer.stop();
      await older.stop();
      const third = await openStore(io);
      const replayed = (await readAll(third, REGION_A)).map(payloadOf);
      if (ackFence === 'none') {
        // Acknowledged, yet the new chain excludes it: the loss the fence prevents.
        expect(outcome.ok).toBe(true);
        expect(replayed).not.toContain('racing');
      } else {
        expect(outcome.ok).toBe(false);
        if (!outcome.ok) expect(codeOf(outcome.error)).toBe('Fenced');
        expect(replayed).not.toContain('racing');
      }
      await third.stop();
    });
  }
});
