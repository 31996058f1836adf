/**
 * The big prefixes the big-prefix figures open (issue #40): a chain of small objects in each
 * format, every object holding two regions - the same two in every object (a datanode's few
 * regions: the open figures), or one shared and one of its own (100,001 regions for 100,000
 * objects: the console figure's Regions table is as long as its Batches one). On a
 * local directory the files are written straight (setup, not the create path measured
 * elsewhere); on S3 with create-if-absent, 32 at a time. Setup only: nothing here is timed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { encodeObject, type SegmentRecord } from '../../src/main/engine/wal/format';
import { makeEntryId } from '../../src/main/engine/wal/ids';
import { objectKey, walPrefix } from '../../src/main/engine/wal/keys';
import { makeRegionId } from '../../src/main/engine/wal/provider';
import { encodeGreptimeObject } from '../../src/main/services/demo/greptimedb-demo';
import { timedPool } from '../harness';

export type BigFormat = 'cairn-v1' | 'greptimedb-v1';

export const BIG_PREFIX: Record<BigFormat, string> = {
  'cairn-v1': walPrefix('wal', 40n, 0),
  'greptimedb-v1': 'datanodes/40/epochs/1',
};

const SHARED_REGION = makeRegionId(1, 1);
const OTHER_SHARED_REGION = makeRegionId(1, 2);

/** Which second region each object holds. */
export type RegionShape = 'shared' | 'own';
const PAYLOAD = new Uint8Array(64).fill(7);

/** The region an object holds alone: table 2, region number its sequence. */
function ownRegion(seq: bigint): bigint {
  return makeRegionId(2, Number(seq));
}

export function bigObject(format: BigFormat, seq: bigint, shape: RegionShape): Uint8Array {
  const link = seq === 0n ? null : { seq: seq - 1n, epoch: 1n };
  const second = shape === 'own' ? ownRegion(seq) : OTHER_SHARED_REGION;
  if (format === 'greptimedb-v1')
    return encodeGreptimeObject({
      seq,
      epoch: 1n,
      prev: link,
      reclaimBoundary: 0n,
      regions:
        seq === 0n
          ? []
          : [
              [SHARED_REGION, [PAYLOAD]],
              [second, [PAYLOAD]],
            ],
    });
  const one = (): SegmentRecord[] => [{ id: makeEntryId(seq, 1n), bytes: PAYLOAD }];
  return encodeObject({
    seq,
    epoch: 1n,
    link,
    segments: new Map([
      [SHARED_REGION, one()],
      [second, one()],
    ]),
  }).bytes;
}

/** Lays the prefix out under the local store directory `root`. */
export function writeBigPrefixFiles(
  root: string,
  format: BigFormat,
  objects: number,
  shape: RegionShape,
): void {
  const prefix = BIG_PREFIX[format];
  mkdirSync(dirname(join(root, objectKey(prefix, 0n))), { recursive: true });
  for (let at = 0; at < objects; at++) {
    const seq = BigInt(at);
    writeFileSync(join(root, objectKey(prefix, seq)), bigObject(format, seq, shape));
  }
}

/** Lays the prefix out with create-if-absent (S3). */
export async function writeBigPrefix(
  io: ObjectIo,
  format: BigFormat,
  objects: number,
  shape: RegionShape,
): Promise<void> {
  const prefix = BIG_PREFIX[format];
  await timedPool(objects, 32, async (at) => {
    const seq = BigInt(at);
    await io.putIfAbsent(objectKey(prefix, seq), bigObject(format, seq, shape));
  });
}
