/**
 * A closed-loop load generator over a WAL writer: W concurrent writers each append one entry
 * of random bytes at a time to regions 1..R (table 1), until C entries were acknowledged.
 * Every acknowledgement is reported at once (the CLI writes it to its acks file before the
 * next append), so a crash test knows exactly what was acknowledged. Used by `cairn wal
 * append` and by the console's in-app generator.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AppendResult, WalEntry } from '../../engine/wal/entry';
import type { EntryId } from '../../engine/wal/ids';
import { makeRegionId, type Provider } from '../../engine/wal/provider';
import type { RegionId } from '../../engine/wal/region-id';

export interface AppendTarget {
  readonly prefix: string;
  appendBatch(entries: readonly WalEntry[]): Promise<AppendResult>;
  entry(data: Uint8Array, id: EntryId, region: RegionId, provider: Provider): WalEntry;
}

export interface LoadSpec {
  readonly regions: number;
  readonly writers: number;
  readonly count: number;
  readonly size: number;
}

export interface Acknowledgement {
  readonly region: RegionId;
  readonly id: EntryId;
  readonly sha256: string;
  readonly latencyMs: number;
}

export interface LoadReport {
  readonly acknowledged: number;
  readonly failed: number;
  readonly bytes: number;
  readonly seconds: number;
  /** The first append error, when any append failed; the run stops at the first one. */
  readonly firstError: unknown;
}

/** Region ids of the generator: table 1, regions 1..R. */
export function loadRegion(index: number): RegionId {
  return makeRegionId(1, index + 1);
}

export async function runLoad(
  target: AppendTarget,
  spec: LoadSpec,
  onAck: (ack: Acknowledgement) => void,
  signal?: AbortSignal,
): Promise<LoadReport> {
  let issued = 0;
  let acknowledged = 0;
  let failed = 0;
  let firstError: unknown = undefined;
  const started = performance.now();
  const writer = async (): Promise<void> => {
    while (issued < spec.count && firstError === undefined && !signal?.aborted) {
      // Round-robin over the append order, so every region gets its share whatever the writers.
      const region = loadRegion(issued % spec.regions);
      issued += 1;
      const data = randomBytes(spec.size);
      const provider = { prefix: target.prefix, regionId: region };
      const sent = performance.now();
      try {
        const result = await target.appendBatch([target.entry(data, 0n, region, provider)]);
        const id = result.lastEntryIds.get(region);
        if (id === undefined) throw new Error(`append returned no id for region ${region}`);
        acknowledged += 1;
        onAck({
          region,
          id,
          sha256: createHash('sha256').update(data).digest('hex'),
          latencyMs: performance.now() - sent,
        });
      } catch (error) {
        failed += 1;
        firstError ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: spec.writers }, () => writer()));
  return {
    acknowledged,
    failed,
    bytes: acknowledged * spec.size,
    seconds: (performance.now() - started) / 1000,
    firstError,
  };
}
