/**
 * One fleet overview row from a prefix's read-model snapshot, in either format: chain objects
 * and bytes, the tip, the floor below which objects are gone or going (Cairn's boundary,
 * GreptimeDB's reclaim boundary) and the tip's lag behind it, orphans, damage (what recovery
 * met and what scrubs and replays found) and why an open would fail, what verifies covered
 * (`coverageView`), and the State those make (`prefixHealth`). A prefix whose recovery failed
 * has no chain, tip or lag: its row says what was listed and why (never a lag counted from
 * objects it says it does not have). Pure translation.
 */
import type { FleetRow } from '../../../../shared/contract/wal';
import type { ObjectDamage } from '../../../../shared/contract/wal-damage';
import { isCairnError } from '../../../engine/errors';
import { parseCairnPrefix } from '../../../engine/wal-read/target';
import type { GtInspectReport } from '../../../engine/greptimedb/inspect';
import type { PrefixSnapshot } from '../read-model/prefix-model';
import { damageFacts } from '../scrub/damage-views';
import type { PrefixCoverage } from '../scrub/coverage-book';
import { coverageView } from '../scrub/coverage-view';
import { prefixHealth, type DamagedObjectFact } from './prefix-health';

interface ChainSummary {
  readonly listed: number;
  readonly chain: ReadonlyArray<{ readonly size: number; readonly seq: bigint }>;
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
    listed: null,
    objects: null,
    bytes: null,
    tipSeq: null,
    tipEpoch: null,
    newestObjectAtMs: null,
    floor: null,
    floorLag: null,
    lagObjects: null,
    lagMs: null,
    orphans: null,
    damaged: null,
    openFailure: null,
    writerHeld,
    error: null,
    health: prefixHealth({
      readState: 'pending',
      error: null,
      openFailure: null,
      damaged: [],
      orphans: null,
      newestObjectAtMs: null,
      floorLag: null,
      coverage: null,
    }),
    coverage: null,
  };
}

/** What only GreptimeDB's merged layout adds to a prefix's health. */
interface MergedFacts {
  readonly layout: 'merged' | 'other';
  readonly refusal: { readonly key: string; readonly rule: string } | null;
  readonly twoWriters: string | null;
}

function mergedFactsOf(report: GtInspectReport): MergedFacts {
  const refusal = report.merged?.refusals[0];
  return {
    layout: report.merged === null ? 'other' : 'merged',
    refusal: refusal === undefined ? null : { key: refusal.key, rule: refusal.rule },
    twoWriters: report.merged?.twoWriters ?? null,
  };
}

/** What the row's State covers: the prefix's verify passes, and the age they count for. */
export interface RowCoverage {
  readonly coverage: PrefixCoverage;
  readonly maxAgeMs: number;
  readonly nowMs?: number;
}

function rowOf(
  snapshot: PrefixSnapshot,
  summary: ChainSummary,
  floor: bigint,
  damaged: readonly DamagedObjectFact[],
  verified: RowCoverage | null,
  merged: MergedFacts = { layout: 'other', refusal: null, twoWriters: null },
): Omit<FleetRow, 'prefix' | 'writerHeld'> {
  const tip = summary.tip;
  const floorLag = tip === null ? null : tip.seq > floor ? tip.seq - floor : 0n;
  const openFailure =
    summary.failure === null
      ? null
      : { code: summary.failure.code, message: summary.failure.message };
  // Without a tip there is no lag behind the floor to count (the objects are in `listed`).
  const lagKnown = tip !== null;
  const coverage =
    verified === null
      ? null
      : coverageView(
          verified.coverage,
          summary.chain.map((object) => object.seq),
          verified.nowMs ?? Date.now(),
          verified.maxAgeMs,
        );
  return {
    format: snapshot.format,
    state: 'read',
    readAtMs: snapshot.readAtMs,
    listed: summary.listed,
    objects: summary.chain.length,
    bytes: summary.chain.reduce((sum, object) => sum + object.size, 0),
    tipSeq: tip?.seq ?? null,
    tipEpoch: merged.layout === 'merged' ? null : (tip?.epoch ?? null),
    newestObjectAtMs: snapshot.newestObjectAtMs,
    floor,
    floorLag,
    lagObjects: lagKnown ? snapshot.objectsAboveFloor : null,
    lagMs:
      !lagKnown || snapshot.newestObjectAtMs === null || snapshot.floorObjectAtMs === null
        ? null
        : Math.max(0, snapshot.newestObjectAtMs - snapshot.floorObjectAtMs),
    orphans: summary.orphans.length,
    damaged: damaged.length,
    openFailure,
    error: null,
    health: prefixHealth({
      readState: 'read',
      error: null,
      openFailure,
      damaged,
      orphans: summary.orphans.length,
      newestObjectAtMs: snapshot.newestObjectAtMs,
      floorLag,
      refusal: merged.refusal,
      twoWriters: merged.twoWriters,
      coverage,
    }),
    coverage,
  };
}

/** What the ledger found, and what recovery met that the ledger does not know yet. */
function mergedDamage(
  found: readonly ObjectDamage[],
  recovered: readonly DamagedObjectFact[],
): DamagedObjectFact[] {
  const facts = damageFacts(found);
  const keys = new Set(facts.map((fact) => fact.key));
  return [...facts, ...recovered.filter((fact) => !keys.has(fact.key))];
}

export function fleetRowOf(
  prefix: string,
  snapshot: PrefixSnapshot,
  writerHeld: boolean,
  found: readonly ObjectDamage[] = [],
  verified: RowCoverage | null = null,
): FleetRow {
  if (snapshot.format === 'greptimedb-v1') {
    const { report } = snapshot;
    const recovered = report.damaged.map(({ key, check }) => ({ key, check, ranges: [] }));
    return {
      prefix,
      writerHeld,
      ...rowOf(
        snapshot,
        report,
        report.reclaimBoundary,
        mergedDamage(found, recovered),
        verified,
        mergedFactsOf(report),
      ),
    };
  }
  const { report } = snapshot.inspected;
  // Cairn's recovery stops at its lowest damaged object: one at most is known.
  const failure = report.failure;
  const recovered =
    failure?.code === 'CorruptObject'
      ? [{ key: failure.key ?? '', check: failure.code, ranges: [] }]
      : [];
  return {
    prefix,
    writerHeld,
    ...rowOf(snapshot, report, report.register.boundary, mergedDamage(found, recovered), verified),
  };
}

/** An error as the overview shows it: a Cairn error's code, anything else as Internal. */
export function errorSummaryOf(error: unknown): { code: string; message: string } {
  return isCairnError(error)
    ? { code: error.code, message: error.message }
    : { code: 'Internal', message: error instanceof Error ? error.message : String(error) };
}

/** The row kept with the error that stopped its read (its last columns and reasons stay). */
export function failedFleetRow(row: FleetRow, error: unknown): FleetRow {
  const summary = errorSummaryOf(error);
  const reasons = [
    { kind: 'error' as const, text: `error: ${summary.code}` },
    ...row.health.reasons.filter((reason) => reason.kind !== 'error'),
  ];
  return {
    ...row,
    state: 'error',
    error: summary,
    health: { state: 'unhealthy', reasons, text: reasons.map((r) => r.text).join('; ') },
  };
}
