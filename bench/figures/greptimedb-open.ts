/**
 * Figure: read-only open of a GreptimeDB prefix of 2,000 objects / the raw baseline of the
 * open figure (list the objects, one 64 KiB suffix read each, 8 at a time) - target <= 1.1.
 * The open lists, reads each object's header and footer, judges the chain and indexes it.
 * Best of alternating passes. The prefix (one instance, a chain of small objects with two
 * regions each) is written straight with create-if-absent: setup, not measured.
 */
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { openGtReadOnly } from '../../src/main/engine/greptimedb/read-only-log';
import { GT_TAIL_WINDOW_BYTES } from '../../src/main/engine/greptimedb/layout';
import { objectKey, objectsFolder } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import {
  encodeGreptimeObject,
  type GreptimeObjectSpec,
} from '../../src/main/services/demo/greptimedb-demo';
import { judged, timedPool, type FigureResult } from '../harness';
import { onEachBackend, rounded } from './wal-bench';

const OBJECTS = 2_000;
const BASELINE_CONCURRENCY = 8;
const PASSES = { local: 3, s3: 2 } as const;
const PREFIX = 'datanodes/1/epochs/2';
const REGIONS = [makeRegionId(1, 1), makeRegionId(1, 2)];
const PAYLOAD = new Uint8Array(64).fill(7);

/**
 * A chain of `objects` GreptimeDB objects of one instance (epoch 1, from sequence 0), `width`
 * written at a time, object `seq` holding `regionsAt(seq)`.
 */
export async function putGreptimeChain(
  io: ObjectIo,
  prefix: string,
  objects: number,
  width: number,
  regionsAt: (seq: bigint) => GreptimeObjectSpec['regions'],
): Promise<void> {
  await timedPool(objects, width, async (index) => {
    const seq = BigInt(index);
    const object = encodeGreptimeObject({
      seq,
      epoch: 1n,
      prev: seq === 0n ? null : { seq: seq - 1n, epoch: 1n },
      reclaimBoundary: 0n,
      regions: regionsAt(seq),
    });
    await io.putIfAbsent(objectKey(prefix, seq), object);
  });
}

/** A chain of `objects` small GreptimeDB objects of one instance, written 16 at a time. */
export async function writeGreptimeChain(
  io: ObjectIo,
  prefix = PREFIX,
  objects = OBJECTS,
): Promise<void> {
  await putGreptimeChain(io, prefix, objects, 16, (seq) =>
    seq === 0n ? [] : REGIONS.map((region) => [region, [PAYLOAD, PAYLOAD]] as const),
  );
}

async function rawReads(io: ObjectIo): Promise<number> {
  const started = performance.now();
  const keys: string[] = [];
  for await (const page of io.list(objectsFolder(PREFIX)))
    for (const object of page.objects) keys.push(object.key);
  await timedPool(keys.length, BASELINE_CONCURRENCY, async (index) => {
    await io.get(keys[index]!, { suffix: GT_TAIL_WINDOW_BYTES });
  });
  return (performance.now() - started) / 1000;
}

async function openSeconds(io: ObjectIo): Promise<number> {
  const started = performance.now();
  const log = await openGtReadOnly(io, PREFIX);
  if (log.recovery.selection.chain.length !== OBJECTS) throw new Error('bench chain incomplete');
  return (performance.now() - started) / 1000;
}

export async function greptimeOpen(): Promise<FigureResult[]> {
  return onEachBackend(async (io, backend) => {
    await writeGreptimeChain(io);
    let raw = Infinity;
    let open = Infinity;
    for (let pass = 0; pass < PASSES[backend]; pass++) {
      raw = Math.min(raw, await rawReads(io));
      open = Math.min(open, await openSeconds(io));
    }
    const ratio = open / raw;
    return [
      {
        figure: `open: GreptimeDB read-only open of ${OBJECTS.toLocaleString('en-US')} objects / list + 64 KiB suffix read each (x8)`,
        backend,
        value: ratio,
        unit: 'x',
        ...judged(ratio, '<=', 1.1),
        detail: {
          objects: OBJECTS,
          openSeconds: rounded(open, 3),
          rawSeconds: rounded(raw, 3),
          bestOfPasses: PASSES[backend],
        },
      },
    ];
  });
}
