/**
 * Listing a prefix in key ranges at once gives exactly the keys a plain listing gives, each
 * once (issue #40): a property over random key sets - WAL sequences clustered and sparse up to
 * 2^44 - 1, names that are not WAL objects among and after them, keys outside the folder - from
 * random starting sequences, with small pages and few listings in flight so that every path
 * (probes, ranges, pages past a range's end) runs on a few keys. On memory, a local directory
 * and radosgw (fewer runs there: each writes its keys to a new prefix).
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
import { compareKeys } from '../../../src/main/engine/objectio/sorted-listing';
import { SEQ_LIMIT } from '../../../src/main/engine/wal/ids';
import { objectKey, objectsFolder, objectsStartAfter } from '../../../src/main/engine/wal/keys';
import { listObjectsInRanges } from '../../../src/main/engine/wal/recovery/parallel-listing';
import { s3Lane } from '../../support/s3';
import { localLane, memoryLane, s3WalLane, type WalLane } from '../lanes/lane-kit';

interface KeySet {
  readonly seqs: readonly bigint[];
  readonly others: readonly string[];
  readonly from: bigint;
  readonly pageSize: number;
  readonly concurrency: number;
}

const seq = fc.oneof(
  { weight: 6, arbitrary: fc.bigInt({ min: 0n, max: 300n }) },
  { weight: 2, arbitrary: fc.bigInt({ min: 0n, max: 100_000n }) },
  { weight: 1, arbitrary: fc.bigInt({ min: SEQ_LIMIT - 40n, max: SEQ_LIMIT - 1n }) },
);

/** Names under `objects/` that are not WAL objects, and keys beside the folder. */
const other = fc.oneof(
  fc.constantFrom('objects/.hidden', 'objects/zzz', 'objects/notes.txt', 'manifest/0001.json'),
  seq.map((s) => `objects/${String(s).padStart(20, '0')}.wal.tmp`),
  seq.map((s) => `objects/${String(s).padStart(20, '0')}/nested`),
  fc.nat({ max: 99 }).map((n) => `objects/${n}`),
);

const keySets: fc.Arbitrary<KeySet> = fc.record({
  seqs: fc.uniqueArray(seq, { maxLength: 60, selector: (s) => s.toString() }),
  others: fc.uniqueArray(other, { maxLength: 8 }),
  from: fc.oneof(fc.constant(0n), seq),
  pageSize: fc.integer({ min: 1, max: 7 }),
  concurrency: fc.integer({ min: 1, max: 5 }),
});

async function plainListing(io: ObjectIo, prefix: string, set: KeySet): Promise<string[]> {
  const keys: string[] = [];
  const options = { startAfter: objectsStartAfter(prefix, set.from), pageSize: set.pageSize };
  for await (const page of io.list(objectsFolder(prefix), options))
    keys.push(...page.objects.map((object) => object.key));
  return keys;
}

async function rangeListing(io: ObjectIo, prefix: string, set: KeySet): Promise<string[]> {
  const keys: string[] = [];
  const options = { pageSize: set.pageSize, concurrency: set.concurrency };
  for await (const page of listObjectsInRanges(io, prefix, set.from, options))
    keys.push(...page.map((object) => object.key));
  return keys.sort(compareKeys);
}

const s3 = s3Lane();
const lanes: Array<{ lane: WalLane; runs: number }> = [
  { lane: memoryLane(), runs: 150 },
  { lane: localLane(), runs: 10 },
  ...(s3 === null ? [] : [{ lane: s3WalLane(s3), runs: 8 }]),
];
afterAll(async () => {
  await Promise.all(lanes.map(({ lane }) => lane.dispose()));
  await s3?.dispose();
});

describe.each(lanes)('listing in key ranges on $lane.name', ({ lane, runs }) => {
  it('lists exactly the keys a plain listing lists, each once', async () => {
    const io = await lane.makeIo('ranges');
    let run = 0;
    await fc.assert(
      fc.asyncProperty(keySets, async (set) => {
        const prefix = `p${run++}`;
        const keys = [
          ...set.seqs.map((s) => objectKey(prefix, s)),
          ...set.others.map((name) => `${prefix}/${name}`),
        ];
        await Promise.all(keys.map((key) => io.putIfAbsent(key, new Uint8Array([1]))));
        const plain = await plainListing(io, prefix, set);
        expect(await rangeListing(io, prefix, set)).toEqual(plain);
      }),
      { numRuns: runs },
    );
  });
});
