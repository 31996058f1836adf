/**
 * Support for the garbage-collection suites: the storage lanes (memory, local, S3 when
 * configured), an io that counts deletes and can stop deleting after N (a crash mid-deletes),
 * and small helpers over the writer harness.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FaultyObjectIo } from '../../../src/main/engine/objectio/faulty-object-io';
import { UnavailableError } from '../../../src/main/engine/objectio/errors';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { checkedDeleteBatch } from '../../../src/main/engine/objectio/batch-delete';
import type {
  BatchDeleteResult,
  ListOptions,
  ListPage,
  ObjectIo,
} from '../../../src/main/engine/objectio/object-io';
import { objectsFolder, seqOfObjectKey } from '../../../src/main/engine/wal/keys';
import type { ObjectStoreLogStore } from '../../../src/main/engine/wal/store';
import { s3Lane } from '../../support/s3';
import { PREFIX, entriesOf, readAll, payloadOf } from '../support/writer-harness';
import type { RegionId } from '../../../src/main/engine/wal/provider';

export type Lane = readonly [name: string, makeIo: () => Promise<ObjectIo>];

/** memory, local, and s3 when CAIRN_S3_ENDPOINT is set; call `dispose` in afterAll. */
export function gcLanes(hint: string): { lanes: Lane[]; dispose: () => Promise<void> } {
  const s3 = s3Lane();
  const lanes: Lane[] = [
    ['memory', async () => new MemoryObjectIo()],
    ['local', async () => new LocalObjectIo(await mkdtemp(path.join(tmpdir(), `cairn-${hint}-`)))],
  ];
  if (s3 !== null) lanes.push(['s3', () => s3.makeIo(hint)]);
  return { lanes, dispose: async () => s3?.dispose() };
}

/**
 * Counts deletes of WAL objects (batch deletes key by key, and the requests they took); with
 * `deleteBudget` set, deletes beyond it fail as Unavailable (the process "crashed" after that
 * many: a batch deletes its lowest keys up to the budget). `beforeObjectsListing` runs once before the next
 * listing of the objects folder returns (a GC slipped between a listing and its reads).
 */
export class GcProbeIo extends FaultyObjectIo {
  deletes: string[] = [];
  /** Delete requests made: one per `delete`, one per `deleteMany`. */
  deleteRequests = 0;
  deleteBudget = Infinity;
  beforeObjectsListing: (() => Promise<void>) | null = null;

  override async delete(key: string): Promise<void> {
    if (this.deletes.length >= this.deleteBudget)
      throw new UnavailableError(key, this.endpoint, 'test: the process stopped deleting');
    this.deletes.push(key);
    this.deleteRequests += 1;
    return super.delete(key);
  }

  override async deleteMany(keys: readonly string[]): Promise<BatchDeleteResult> {
    this.deleteRequests += 1;
    const ascending = checkedDeleteBatch(this.endpoint, keys);
    const allowed = ascending.slice(0, Math.max(0, this.deleteBudget - this.deletes.length));
    this.deletes.push(...allowed);
    const done = await super.deleteMany(allowed);
    const stopped = ascending.slice(allowed.length).map((key) => ({
      key,
      error: new UnavailableError(key, this.endpoint, 'test: the process stopped deleting'),
    }));
    return { deleted: done.deleted, failed: [...done.failed, ...stopped] };
  }

  override async listPage(prefix: string, options?: ListOptions): Promise<ListPage> {
    const page = await super.listPage(prefix, options);
    const hook = this.beforeObjectsListing;
    if (hook !== null && prefix.endsWith('/objects/')) {
      this.beforeObjectsListing = null;
      await hook();
    }
    return page;
  }
}

/** Sequences of the WAL objects stored under the harness prefix, ascending. */
export async function storedSeqs(io: ObjectIo, prefix = PREFIX): Promise<bigint[]> {
  const seqs: bigint[] = [];
  for await (const page of io.list(objectsFolder(prefix))) {
    for (const object of page.objects) {
      const seq = seqOfObjectKey(prefix, object.key);
      if (seq !== null) seqs.push(seq);
    }
  }
  return seqs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Appends one entry per payload (one batch) and returns the ids, in order. */
export async function appendOne(
  store: ObjectStoreLogStore,
  region: RegionId,
  payload: string,
): Promise<bigint> {
  const result = await store.appendBatch(entriesOf(store, region, payload));
  const id = result.lastEntryIds.get(region);
  if (id === undefined) throw new Error('no id assigned');
  return id;
}

/** The region's entries as [id, payload] pairs. */
export async function readPairs(
  store: ObjectStoreLogStore,
  region: RegionId,
): Promise<Array<[bigint, string]>> {
  return (await readAll(store, region)).map((entry) => [entry.id, payloadOf(entry)]);
}
