/**
 * Test support for the WAL writer: a store on any ObjectIo through the real open, a
 * hand-made session (real register, start object at a chosen sequence) for what an open
 * cannot reach (the last sequences), entries, and waiting on outcomes rather than on time.
 */
import { ObjectCatalog } from '../../../src/main/engine/wal/catalog';
import {
  validateWalConfig,
  type ObjectStoreWalConfigInput,
} from '../../../src/main/engine/wal/config';
import type { WalEntry } from '../../../src/main/engine/wal/entry';
import { encodeObject, encodeStartObject } from '../../../src/main/engine/wal/format';
import { objectKey, walPrefix } from '../../../src/main/engine/wal/keys';
import type { Seq } from '../../../src/main/engine/wal/ids';
import type { Provider, RegionId } from '../../../src/main/engine/wal/provider';
import { EpochRegister, newWriterId, registerStoreOf } from '../../../src/main/engine/wal/register';
import type { WriterSession } from '../../../src/main/engine/wal/session';
import { ObjectStoreLogStore, type StoreOptions } from '../../../src/main/engine/wal/store';
import type { ObjectIo } from '../../../src/main/engine/objectio/object-io';
export { codeOf } from '../../support/typed-failure';

export const REGION_A: RegionId = (1n << 32n) | 1n;
export const REGION_B: RegionId = (1n << 32n) | 2n;

export function walConfig(
  overrides: Partial<ObjectStoreWalConfigInput> = {},
): ObjectStoreWalConfigInput {
  return { root: 'wal', nodeId: 1n, generation: 0, flushIntervalMs: 10, ...overrides };
}

export const PREFIX = walPrefix('wal', 1n, 0);
export const keyAt = (seq: Seq): string => objectKey(PREFIX, seq);

export function openStore(
  io: ObjectIo,
  overrides: Partial<ObjectStoreWalConfigInput> = {},
  options: StoreOptions = {},
): Promise<ObjectStoreLogStore> {
  return ObjectStoreLogStore.open(io, walConfig(overrides), {
    probe: false,
    fenceDeadlineMs: 400,
    ...options,
  });
}

export function providerOf(store: { prefix: string }, region: RegionId = REGION_A): Provider {
  return { prefix: store.prefix, regionId: region };
}

const text = new TextEncoder();
const untext = new TextDecoder();

export function entriesOf(
  store: ObjectStoreLogStore,
  region: RegionId,
  ...payloads: string[]
): WalEntry[] {
  return payloads.map((p) => store.entry(text.encode(p), 0n, region, providerOf(store, region)));
}

export function payloadOf(entry: WalEntry): string {
  return untext.decode(entry.data);
}

export async function readAll(
  store: ObjectStoreLogStore,
  region: RegionId,
  from = 0n,
): Promise<WalEntry[]> {
  const found: WalEntry[] = [];
  for await (const entry of store.read(providerOf(store, region), from)) found.push(entry);
  return found;
}

/** Waits until `condition` holds (checked every few ms); fails after `timeoutMs`. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what = 'condition',
  timeoutMs = 8000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}

/** Settles a promise into a value for assertions (never rejects). */
export async function settle<T>(
  promise: Promise<T>,
): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error };
  }
}

/**
 * A writer session made by hand: the real register (epoch taken), a start object created at
 * `startSeq` and indexed as the tip. For sequences an open never reaches (near 2^44).
 */
export async function handMadeSession(
  io: ObjectIo,
  startSeq: Seq,
  overrides: Partial<ObjectStoreWalConfigInput> = {},
): Promise<WriterSession> {
  const config = validateWalConfig(walConfig(overrides));
  const prefix = walPrefix(config.root, config.nodeId, config.generation);
  const writerId = newWriterId();
  const register = await EpochRegister.takeEpoch(
    registerStoreOf(io, prefix, { writerId }),
    prefix,
    writerId,
  );
  const start = encodeStartObject({ seq: startSeq, epoch: register.epoch, link: null });
  const key = objectKey(prefix, startSeq);
  await io.putIfAbsent(key, start.bytes);
  const catalog = new ObjectCatalog(prefix);
  catalog.index({
    seq: startSeq,
    epoch: register.epoch,
    link: null,
    size: start.bytes.length,
    segments: [],
  });
  const object = { seq: startSeq, epoch: register.epoch, key, size: start.bytes.length };
  return {
    io,
    prefix,
    config,
    epoch: register.epoch,
    writerId,
    register,
    catalog,
    startObject: { seq: startSeq, epoch: register.epoch, key },
    nextSeq: startSeq + 1n,
    recovery: {
      listed: 1,
      chain: [],
      orphans: [],
      excluded: [],
      tip: object,
      highestListedSeq: startSeq,
      durationMs: 0,
    },
  };
}

/** An object of `epoch` at `seq` holding one entry of REGION_A: a clash for a writer. */
export function foreignObject(seq: Seq, epoch: bigint): Uint8Array {
  const segments = new Map([
    [REGION_A, [{ id: (seq << 20n) | 1n, bytes: text.encode('foreign') }]],
  ]);
  return encodeObject({ seq, epoch, link: null, segments }).bytes;
}
