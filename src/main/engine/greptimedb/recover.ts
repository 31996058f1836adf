/**
 * Read-only recovery of a GreptimeDB prefix: scan every object's header and footer, judge
 * the chain, index it into a catalog for region reads, and describe the instances that wrote
 * the prefix. A scan that met objects listed and then gone is done once more (GreptimeDB may
 * have deleted below a newer reclaim boundary meanwhile). A prefix in the merged layout
 * (34-byte header) is judged by GreptimeDB's own open rules instead (`merged/`): every listed
 * object is the log, indexed whole, and a refusal is the recovery's failure; a prefix holding
 * both layouts fails `MixedLayouts`. Writes nothing, ever.
 */
import { linkedIo, slotsOf } from '../objectio/link';
import type { ObjectIo } from '../objectio/object-io';
import { Slicer } from '../slices';
import { ObjectCatalog } from '../wal/catalog';
import { NoCompleteChainError } from '../wal/errors';
import type { Seq } from '../wal/ids';
import { selectGtChain, type GtChainSelection, type Pending } from './chain';
import {
  scanGtPrefix,
  type GtDamagedObject,
  type GtScan,
  type GtScanOutcome,
  type GtScannedObject,
} from './scan';
import type { ScanOptions } from '../wal/recovery';
import { mergedLogOf, type GtMergedLog } from './merged/merged-log';
import { judgePrefixLayout, type GtPrefixLayout } from './merged/prefix-layout';

/** One instance (an opened GreptimeDB writer): its epoch and the objects it wrote. */
export interface GtInstance {
  readonly epoch: bigint;
  /** The start object it wrote at open (sequence epoch - 1, no segments), when still present. */
  readonly startSeq: Seq | null;
  readonly firstSeq: Seq;
  readonly lastSeq: Seq;
  readonly objects: number;
  readonly onChain: number;
}

export interface GtRecovery {
  readonly prefix: string;
  readonly layout: GtPrefixLayout;
  /** The merged layout's log (refusals, next sequence, writer runs); null in the chained one. */
  readonly merged: GtMergedLog | null;
  readonly scan: GtScan;
  readonly selection: GtChainSelection;
  readonly instances: readonly GtInstance[];
  /** The chain indexed, or null when the chain cannot be indexed (see `failure`). */
  readonly catalog: ObjectCatalog | null;
  /** Why a replay of this prefix would fail; null when it reads. */
  readonly failure: Error | null;
}

export function instancesOf(
  objects: readonly GtScannedObject[],
  chain: readonly GtScannedObject[],
): GtInstance[] {
  const onChain = new Set(chain.map((o) => o.seq));
  const byEpoch = new Map<bigint, GtScannedObject[]>();
  for (const object of objects) {
    const own = byEpoch.get(object.epoch);
    if (own === undefined) byEpoch.set(object.epoch, [object]);
    else own.push(object);
  }
  return [...byEpoch.entries()]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([epoch, own]) => {
      const start = own.find((o) => o.seq + 1n === epoch && o.segments.length === 0);
      return {
        epoch,
        startSeq: start?.seq ?? null,
        firstSeq: own[0]?.seq ?? 0n,
        lastSeq: own[own.length - 1]?.seq ?? 0n,
        objects: own.length,
        onChain: own.filter((o) => onChain.has(o.seq)).length,
      };
    });
}

/** The damaged object that could have been on the replayed log: at or above the boundary. */
function damageThatMatters(damaged: readonly GtDamagedObject[], boundary: Seq): Error | null {
  return damaged.find((d) => d.seq >= boundary)?.error ?? null;
}

async function catalogOrFailure(
  prefix: string,
  chain: readonly GtScannedObject[],
): Promise<{ catalog: ObjectCatalog | null; failure: Error | null }> {
  const catalog = new ObjectCatalog(prefix);
  const slicer = new Slicer();
  try {
    for (const object of chain) await catalog.indexInSlices(object, slicer);
    return { catalog, failure: null };
  } catch (error) {
    if (error instanceof Error) return { catalog: null, failure: error };
    throw error;
  }
}

/** With a read model's `memo`, only objects it has not seen are listed and read. */
export async function recoverGtPrefix(
  storage: ObjectIo,
  prefix: string,
  options: ScanOptions<GtScanOutcome> = {},
): Promise<GtRecovery> {
  // Both scans on one link: `storage`'s own, or a new one for this recovery.
  const io = linkedIo(storage);
  const scanOptions = { ...options, slots: slotsOf(io) };
  let scan = await scanGtPrefix(io, prefix, scanOptions);
  if (scan.missing.length > 0) scan = await scanGtPrefix(io, prefix, scanOptions);
  return gtRecoveryOf(prefix, scan);
}

/**
 * The recovery of a scan. With `pending` (sequences not read yet, while an open is in
 * progress), judged provisionally: links to them are taken on trust, so the newest objects
 * read show their chain first. For a progressive open's views only.
 */
export async function gtRecoveryOf(
  prefix: string,
  scan: GtScan,
  pending?: Pending,
): Promise<GtRecovery> {
  const judged = judgePrefixLayout(prefix, scan);
  if (judged.layout === 'merged') return mergedRecovery(prefix, scan);
  const selection = selectGtChain(scan.objects, pending);
  const instances = instancesOf(scan.objects, selection.chain);
  const base = { prefix, layout: judged.layout, merged: null, scan, selection, instances };
  if (judged.mixed !== null) return { ...base, catalog: null, failure: judged.mixed };
  const damage = damageThatMatters(scan.damaged, selection.reclaimBoundary);
  if (selection.tip === null && scan.objects.length + scan.damaged.length > 0) {
    const failure = damage ?? new NoCompleteChainError(prefix);
    return { ...base, catalog: null, failure };
  }
  const indexed = await catalogOrFailure(prefix, selection.chain);
  return { ...base, ...indexed, failure: damage ?? indexed.failure };
}

/**
 * A merged-layout prefix: every object read is the log (no chain, orphan or boundary), indexed
 * whole unless GreptimeDB's open would refuse it - then the first refusal is the failure and
 * nothing is indexed, so no view reads part of a log GreptimeDB would not open.
 */
async function mergedRecovery(prefix: string, scan: GtScan): Promise<GtRecovery> {
  const merged = mergedLogOf(prefix, scan);
  const last = scan.objects[scan.objects.length - 1] ?? null;
  const selection: GtChainSelection = {
    tip: last,
    chain: scan.objects,
    orphans: [],
    belowBoundary: [],
    reclaimBoundary: 0n,
    reclaimedLink: false,
  };
  const base = { prefix, layout: 'merged' as const, merged, scan, selection, instances: [] };
  const refusal = merged.refusals[0];
  if (refusal !== undefined) return { ...base, catalog: null, failure: refusal };
  return { ...base, ...(await catalogOrFailure(prefix, scan.objects)) };
}
