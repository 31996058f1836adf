/**
 * The survey of a registry's shards: every readable record, and every shard with its owner,
 * version and record count - a damaged shard (one whose newest version decodes to a
 * `NamespaceSerializationError`) named with its key and reason instead of failing the whole
 * listing. Storage failures still throw: they say nothing about a shard's content. Reads only,
 * through the reader it is given.
 */
import { fanOut, type IoSlots } from '../objectio/link';
import type { CellSnapshot } from '../cas/cell-snapshot';
import { compareListed } from './decisions';
import { NamespaceSerializationError } from './errors';
import type { NamespaceSurvey, ShardInfo } from './object-store-shapes';
import type { NamespaceRecord, ShardOwner } from './record';
import { recordsIn } from './shard-codec';

export interface ShardReader {
  /** The shard's newest snapshot and owner (null while never written). */
  read(shard: number): Promise<{ snapshot: CellSnapshot | null; owner: ShardOwner | null }>;
  /** The key prefix the shard's versions are stored under. */
  keyOf(shard: number): string;
}

async function surveyShard(
  shard: number,
  reader: ShardReader,
): Promise<{ info: ShardInfo; records: NamespaceRecord[] }> {
  try {
    const { snapshot, owner } = await reader.read(shard);
    const records = snapshot === null ? [] : recordsIn(snapshot.fields, shard);
    const info = {
      shard,
      owner,
      version: snapshot?.version ?? null,
      records: records.length,
      damage: null,
    };
    return { info, records };
  } catch (error) {
    if (!(error instanceof NamespaceSerializationError)) throw error;
    const damage = { key: reader.keyOf(shard), reason: error.message };
    return { info: { shard, owner: null, version: null, records: 0, damage }, records: [] };
  }
}

/** Every shard number of a registry of `shardCount` shards. */
export function shardsOf(meta: { readonly shardCount: number }): number[] {
  return Array.from({ length: meta.shardCount }, (_, shard) => shard);
}

/** Surveys every shard, as many at a time as the link's width. */
export async function surveyShards(
  shardCount: number,
  slots: Pick<IoSlots, 'width'>,
  reader: ShardReader,
): Promise<NamespaceSurvey> {
  const surveyed = await fanOut(shardsOf({ shardCount }), slots, (shard) =>
    surveyShard(shard, reader),
  );
  return {
    records: surveyed.flatMap((entry) => entry.records).sort(compareListed),
    shards: surveyed.map((entry) => entry.info),
  };
}
