/**
 * One fleet overview row from a prefix's read-model snapshot, in either format: chain objects
 * and bytes, the tip, the floor below which objects are gone or going (Cairn's boundary,
 * GreptimeDB's reclaim boundary) and the tip's lag behind it, orphans, damage and why an open
 * would fail. Pure translation.
 */
import type { FleetRow } from '../../../../shared/contract/wal';
import { isCairnError } from '../../../engine/errors';
import { parseCairnPrefix } from '../../../engine/wal-read/target';
import type { PrefixSnapshot } from '../read-model/prefix-model';

interface ChainSummary {
  readonly chain: ReadonlyArray<{ readonly size: number }>;
  readonly tip: { readonly seq: bigint; readonly epoch: bigint } | null;
  readonly orphans: readonly unknown[];
  readonly failure: { readonly code: string; readonly message: string } | null;
}

/** A prefix listed and not read yet: its format when its name tells (Cairn's layout). */
export function pendingFleetRow(prefix: string, writerHeld: boolean): FleetRow {
  return {
    prefix,
    format: parseCairnPrefix(prefix) === null ? null : 'cairn-v1',
    state: 'pending',
    readAtMs: null,
    objects: null,
    bytes: null,
    tipSeq: null,
    tipEpoch: null,
    newestObjectAtMs: null,
    floor: null,
    floorLag: null,
    orphans: null,
    damaged: null,
    openFailure: null,
    writerHeld,
    error: null,
  };
}

function rowOf(
  snapshot: PrefixSnapshot,
  summary: ChainSummary,
  floor: bigint,
  damaged: number,
): Omit<FleetRow, 'prefix' | 'writerHeld'> {
  const tip = summary.tip;
  return {
    format: snapshot.format,
    state: 'read',
    readAtMs: snapshot.readAtMs,
    objects: summary.chain.length,
    bytes: summary.chain.reduce((sum, object) => sum + object.size, 0),
    tipSeq: tip?.seq ?? null,
    tipEpoch: tip?.epoch ?? null,
    newestObjectAtMs: snapshot.newestObjectAtMs,
    floor,
    floorLag: tip === null ? null : tip.seq > floor ? tip.seq - floor : 0n,
    orphans: summary.orphans.length,
    damaged,
    openFailure:
      summary.failure === null
        ? null
        : { code: summary.failure.code, message: summary.failure.message },
    error: null,
  };
}

export function fleetRowOf(
  prefix: string,
  snapshot: PrefixSnapshot,
  writerHeld: boolean,
): FleetRow {
  if (snapshot.format === 'greptimedb-v1') {
    const { report } = snapshot;
    return {
      prefix,
      writerHeld,
      ...rowOf(snapshot, report, report.reclaimBoundary, report.damaged.length),
    };
  }
  const { report } = snapshot.inspected;
  // Cairn's recovery stops at its lowest damaged object: one at most is known.
  const damaged = report.failure?.code === 'CorruptObject' ? 1 : 0;
  return { prefix, writerHeld, ...rowOf(snapshot, report, report.register.boundary, damaged) };
}

/** An error as the overview shows it: a Cairn error's code, anything else as Internal. */
export function errorSummaryOf(error: unknown): { code: string; message: string } {
  return isCairnError(error)
    ? { code: error.code, message: error.message }
    : { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

/** The row kept with the error that stopped its read (its last columns stay). */
export function failedFleetRow(row: FleetRow, error: unknown): FleetRow {
  return { ...row, state: 'error', error: errorSummaryOf(error) };
}
