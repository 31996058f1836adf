/**
 * Hand-built WAL prefixes for the recovery and open tests: objects written directly with
 * encodeObject + putIfAbsent (no actor), a register written with the control-field codec, and
 * an ObjectIo that counts reads so a test can assert "one suffix read per object".
 */
import { CellManifestStore } from '../../../src/main/engine/manifest/cell-manifest-store';
import { MemoryObjectIo } from '../../../src/main/engine/objectio/memory-object-io';
import type { ByteRange, GetResult, ObjectIo } from '../../../src/main/engine/objectio/object-io';
import {
  emptyControlState,
  encodeControlFields,
} from '../../../src/main/engine/wal/control-fields';
import {
  encodeObject,
  type ObjectLink,
  type SegmentRecord,
} from '../../../src/main/engine/wal/format';
import { makeEntryId } from '../../../src/main/engine/wal/ids';
import { objectKey, walPrefix } from '../../../src/main/engine/wal/keys';
import type { ControlState } from '../../../src/main/engine/wal/session';

export const CONFIG = { root: 'rt', nodeId: 7n, generation: 2 } as const;
export const PREFIX = walPrefix(CONFIG.root, CONFIG.nodeId, CONFIG.generation);
export const keyAt = (seq: bigint): string => objectKey(PREFIX, seq);
export const REGION_A = (1n << 32n) | 1n;
export const REGION_B = (1n << 32n) | 2n;

export interface ObjectSpec {
  readonly seq: bigint;
  readonly epoch: bigint;
  /** [seq, epoch] of the predecessor, or null. */
  readonly link: readonly [bigint, bigint] | null;
  /** Entries per region (positions 1..n); default one entry in REGION_A. */
  readonly regions?: ReadonlyArray<readonly [bigint, number]>;
  /** Bytes per entry (default 8). */
  readonly entryBytes?: number;
}

export function objectBytes(spec: ObjectSpec): Uint8Array {
  const segments = new Map<bigint, SegmentRecord[]>();
  for (const [region, count] of spec.regions ?? [[REGION_A, 1]]) {
    const records = Array.from({ length: count }, (_, i) => ({
      id: makeEntryId(spec.seq, BigInt(i + 1)),
      bytes: new Uint8Array(spec.entryBytes ?? 8).fill(i & 0xff),
    }));
    segments.set(region, records);
  }
  const link: ObjectLink | null =
    spec.link === null ? null : { seq: spec.link[0], epoch: spec.link[1] };
  return encodeObject({ seq: spec.seq, epoch: spec.epoch, link, segments }).bytes;
}

export async function putObject(io: ObjectIo, spec: ObjectSpec): Promise<Uint8Array> {
  const bytes = objectBytes(spec);
  await io.putIfAbsent(keyAt(spec.seq), bytes);
  return bytes;
}

/** Writes a chain `seqs` of one epoch, each linked to the previous (the first to `first`). */
export async function putChain(
  io: ObjectIo,
  epoch: bigint,
  seqs: readonly bigint[],
  first: readonly [bigint, bigint] | null = null,
): Promise<void> {
  let link = first;
  for (const seq of seqs) {
    await putObject(io, { seq, epoch, link });
    link = [seq, epoch];
  }
}

/** Creates (or replaces with a new version) the register holding `control`. */
export async function writeRegister(io: ObjectIo, control: Partial<ControlState>): Promise<void> {
  const store = new CellManifestStore(io, PREFIX, { writerId: 'test-setup' });
  const fields = encodeControlFields({
    ...emptyControlState(),
    writerEpoch: 1n,
    writerId: 'setup',
    ...control,
  });
  const current = await store.read();
  if (current === null) await store.create(fields);
  else await store.update(current.version, fields);
}

export interface ReadLog {
  readonly key: string;
  readonly range: ByteRange | undefined;
}

/** A MemoryObjectIo that logs every get (key and range). */
export class CountingIo extends MemoryObjectIo {
  readonly gets: ReadLog[] = [];
  override async get(key: string, range?: ByteRange): Promise<GetResult> {
    this.gets.push({ key, range });
    return super.get(key, range);
  }
  getsOf(key: string): ReadLog[] {
    return this.gets.filter((g) => g.key === key);
  }
}

/** Every key under the io, for "nothing was written" checks. */
export async function allKeys(io: ObjectIo): Promise<string[]> {
  const keys: string[] = [];
  for await (const page of io.list('')) for (const o of page.objects) keys.push(o.key);
  return keys.sort();
}
