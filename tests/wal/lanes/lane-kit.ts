/**
 * What the WAL contract suite needs from a backend and from a store, in the suite's words:
 * the lanes (memory, a local directory, a real S3), how each damages a stored object in
 * place, appends that remember the (region, id, bytes) they were acknowledged with, full
 * region reads, and the epochs of the objects stored. It asserts nothing itself and never
 * reaches into the engine's private state.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LocalObjectIo } from '../../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import { objectsUnder, type ObjectIo } from '../../../src/main/engine/objectio/object-io';
import type { ObjectStoreWalConfigInput } from '../../../src/main/engine/wal/config';
import type { WalEntry } from '../../../src/main/engine/wal/entry';
import { decodeTrailer, TRAILER_SIZE } from '../../../src/main/engine/wal/format';
import {
  makeEntryId,
  positionOf,
  seqOf,
  type EntryId,
  type Seq,
} from '../../../src/main/engine/wal/ids';
import { objectsFolder, seqOfObjectKey, walPrefix } from '../../../src/main/engine/wal/keys';
import { makeRegionId, type Provider, type RegionId } from '../../../src/main/engine/wal/provider';
import { ObjectStoreLogStore, type StoreOptions } from '../../../src/main/engine/wal/store';
import type { S3Lane } from '../../support/s3';
export { codeOf } from '../../support/typed-failure';

export const REGION_A: RegionId = makeRegionId(1, 1);
export const REGION_B: RegionId = makeRegionId(1, 2);
export const REGION_C: RegionId = makeRegionId(7, 3);

/** A backend the WAL must pass the same suite on. */
export interface WalLane {
  readonly name: string;
  /** A fresh, empty backend (a new bucket on S3). */
  makeIo(hint: string): Promise<ObjectIo>;
  /** Replaces the object at `key` by the same bytes with the byte at `offset` flipped. */
  damage(io: ObjectIo, key: string, offset: number): Promise<void>;
  /** Frees what the lane made (temp directories, buckets). */
  dispose(): Promise<void>;
}

function flipped(bytes: Uint8Array, offset: number): Uint8Array {
  const copy = Uint8Array.from(bytes);
  copy[offset] = (copy[offset] ?? 0) ^ 0xff;
  return copy;
}

/**
 * Object stores have no overwrite in our interface: the damaged copy replaces the object by a
 * delete and a create of the same key (a real S3 serves it like any other object).
 */
async function recreateDamaged(io: ObjectIo, key: string, offset: number): Promise<void> {
  const { bytes } = await io.get(key);
  await io.delete(key);
  await io.putIfAbsent(key, flipped(bytes, offset));
}

export function memoryLane(): WalLane {
  return {
    name: 'memory',
    makeIo: async () => new MemoryObjectIo(),
    damage: recreateDamaged,
    dispose: async () => {},
  };
}

/** A local directory per io; damage writes the object's file directly, as a failing disk would. */
export function localLane(): WalLane {
  const roots = new Map<ObjectIo, string>();
  return {
    name: 'local',
    async makeIo() {
      const root = await mkdtemp(path.join(tmpdir(), 'cairn-wal-lane-'));
      const io = new LocalObjectIo(root);
      roots.set(io, root);
      return io;
    },
    async damage(io, key, offset) {
      const root = roots.get(io);
      if (root === undefined) throw new Error('not an io of this lane');
      const file = path.join(root, key);
      await writeFile(file, flipped(await readFile(file), offset));
    },
    async dispose() {
      await Promise.all(
        [...roots.values()].map((root) => rm(root, { recursive: true, force: true })),
      );
      roots.clear();
    },
  };
}

export function s3WalLane(lane: S3Lane): WalLane {
  return {
    name: 's3',
    makeIo: (hint) => lane.makeIo(`wal-${hint}`),
    damage: recreateDamaged,
    dispose: () => lane.dispose(),
  };
}

export function laneConfig(
  overrides: Partial<ObjectStoreWalConfigInput> = {},
): ObjectStoreWalConfigInput {
  return { root: 'lane', nodeId: 3n, generation: 1, flushIntervalMs: 10, ...overrides };
}

export function prefixOf(config: ObjectStoreWalConfigInput): string {
  return walPrefix(config.root, BigInt(config.nodeId), Number(config.generation ?? 0));
}

export function openLaneStore(
  io: ObjectIo,
  config: ObjectStoreWalConfigInput,
  options: StoreOptions = {},
): Promise<ObjectStoreLogStore> {
  return ObjectStoreLogStore.open(io, config, {
    fenceDeadlineMs: 3000,
    fenceRetryDelayMs: 10,
    ...options,
  });
}

export function providerOf(store: { prefix: string }, region: RegionId): Provider {
  return { prefix: store.prefix, regionId: region };
}

/** Deterministic bytes that name their tag, padded to `size` with a tag-seeded sequence. */
export function payload(tag: string, size: number): Uint8Array {
  const head = new TextEncoder().encode(`${tag}|`);
  const bytes = new Uint8Array(Math.max(size, head.length));
  bytes.set(head);
  let state = [...tag].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7);
  for (let i = head.length; i < bytes.length; i++) {
    state = (state * 1103515245 + 12345) >>> 0;
    bytes[i] = state >>> 24;
  }
  return bytes;
}

export function tagOf(bytes: Uint8Array): string {
  const text = new TextDecoder().decode(bytes.subarray(0, 64));
  return text.slice(0, text.indexOf('|'));
}

/** One entry as it was acknowledged: where, under which id, with which bytes. */
export interface Written {
  readonly region: RegionId;
  readonly id: EntryId;
  readonly bytes: Uint8Array;
}

export type Part = readonly [RegionId, Uint8Array];

/**
 * The id of every part of one append: an append is admitted whole into one batch, so a
 * region's entries in it take consecutive positions ending at the id the append returned.
 */
export function idsOfAppend(
  parts: readonly Part[],
  lastEntryIds: ReadonlyMap<RegionId, EntryId>,
): Written[] {
  const remaining = new Map<RegionId, number>();
  for (const [region] of parts) remaining.set(region, (remaining.get(region) ?? 0) + 1);
  return parts.map(([region, bytes]) => {
    const last = lastEntryIds.get(region);
    if (last === undefined) throw new Error(`append returned no id for region ${region}`);
    const left = remaining.get(region) ?? 1;
    remaining.set(region, left - 1);
    return { region, id: makeEntryId(seqOf(last), positionOf(last) - BigInt(left - 1)), bytes };
  });
}

export async function appendParts(
  store: ObjectStoreLogStore,
  parts: readonly Part[],
): Promise<Written[]> {
  const entries = parts.map(([region, bytes]) =>
    store.entry(bytes, 0n, region, providerOf(store, region)),
  );
  const { lastEntryIds } = await store.appendBatch(entries);
  return idsOfAppend(parts, lastEntryIds);
}

export async function collect(entries: AsyncIterable<WalEntry>): Promise<WalEntry[]> {
  const found: WalEntry[] = [];
  for await (const entry of entries) found.push(entry);
  return found;
}

/** Id and bytes as plain values, so a mismatch prints readably. */
export function shapeOf(
  entries: ReadonlyArray<{
    readonly id: EntryId;
    readonly data?: Uint8Array;
    readonly bytes?: Uint8Array;
  }>,
): Array<[string, string]> {
  return entries.map((e) => [
    e.id.toString(),
    Buffer.from(e.data ?? e.bytes ?? new Uint8Array()).toString('hex'),
  ]);
}

export function ofRegion(written: readonly Written[], region: RegionId): Written[] {
  return written
    .filter((w) => w.region === region)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The sequence and trailer epoch of every WAL object of the prefix, ascending. */
export async function storedObjects(
  io: ObjectIo,
  prefix: string,
): Promise<Array<{ seq: Seq; epoch: bigint }>> {
  const found: Array<{ seq: Seq; epoch: bigint }> = [];
  for await (const meta of objectsUnder(io, objectsFolder(prefix))) {
    const seq = seqOfObjectKey(prefix, meta.key);
    if (seq === null) continue;
    const tail = (await io.get(meta.key, { suffix: TRAILER_SIZE })).bytes;
    found.push({ seq, epoch: decodeTrailer(tail, meta.size, meta.key).epoch });
  }
  return found.sort((a, b) => (a.seq < b.seq ? -1 : 1));
}

export async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 10_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}
