/**
 * A prefix's State, derived in one place from what is known of it: GreptimeDB's refusal to open
 * a merged-layout prefix (always the first reason), a read that failed, an open (or a replay)
 * that would fail, two writers on one merged-layout prefix, damaged objects (found by a scrub or a replay), orphans, and
 * age - a log nobody has written for `staleAfterMs` that still holds objects above its floor.
 * Each problem becomes one reason in words (`damaged: 1 object, region 1028:0 ids
 * 1500:17-1500:20`), and the State is `healthy` only when there is none and the prefix's
 * objects were all read whole within the verify age (its coverage), so no view can show
 * `healthy` beside a problem or over what nobody checked: without a problem but not verified,
 * the State is `unverified` with what it covers. The Overview's "problems only" filter is
 * "has a reason".
 * Pure: the facts come from the read model and the damage ledger; it reads nothing itself.
 * The console's Overview and the CLI's fleet table both call it.
 */
import type {
  DamagedRange,
  HealthReasonKind,
  PrefixHealthView,
} from '../../../../shared/contract/wal-damage';
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';
import { relativeTime } from '../../../../shared/relative-time';
import type { CoverageView } from '../../../../shared/contract/wal-coverage';
import { counted } from '../../../../shared/plural';

/** A prefix whose newest object is older than this, with objects above its floor, is stale. */
export const DEFAULT_STALE_AFTER_MS = 24 * 60 * 60 * 1000;
/** Ranges named in a damage reason; more are counted, not listed. */
const RANGES_NAMED = 3;

export interface DamagedObjectFact {
  readonly key: string;
  readonly check: string;
  /** Regions and entry ranges a replay loses to it (empty when off the chain or unknown). */
  readonly ranges: readonly DamagedRange[];
  /** On the chain, its ranges not known where the State is derived (the CLI's inspect). */
  readonly onChain?: boolean;
}

export interface PrefixHealthFacts {
  /** `pending`: not read yet; `error`: the last read failed (its columns may be older). */
  readonly readState: 'pending' | 'read' | 'error';
  readonly error: { readonly code: string; readonly message: string } | null;
  /** Why an open (Cairn) or a replay (GreptimeDB) would fail. */
  readonly openFailure: { readonly code: string; readonly message: string } | null;
  readonly damaged: readonly DamagedObjectFact[];
  readonly orphans: number | null;
  readonly newestObjectAtMs: number | null;
  /** Sequences the tip runs ahead of the floor (objects not collected yet). */
  readonly floorLag: bigint | null;
  /**
   * GreptimeDB's merged layout: the object and rule its datanode's open would stop at (shown
   * first, in place of `open fails`), and `two writers: …` when an instance came back.
   */
  readonly refusal?: { readonly key: string; readonly rule: string } | null;
  readonly twoWriters?: string | null;
  /** What verifies read whole and when; null when not known (never healthy then). */
  readonly coverage: CoverageView | null;
}

export interface HealthOptions {
  readonly nowMs?: number;
  readonly staleAfterMs?: number;
}

const plural = (count: number, word: string): string => counted(count, word);

function rangeText(range: DamagedRange): string {
  const ids =
    range.firstId === range.lastId
      ? `id ${formatEntryId(range.firstId)}`
      : `ids ${formatEntryId(range.firstId)}-${formatEntryId(range.lastId)}`;
  return `region ${formatRegionId(range.regionId)} ${ids}`;
}

/** `damaged: 2 objects, region 1:1 ids 5:1-5:9, region 1:2 id 7:3` (checks when no range is known). */
export function damageReason(damaged: readonly DamagedObjectFact[]): string {
  const ranges = damaged.flatMap((object) => object.ranges);
  const named = ranges.slice(0, RANGES_NAMED).map(rangeText);
  if (ranges.length > RANGES_NAMED) named.push(`${ranges.length - RANGES_NAMED} more ranges`);
  if (named.length === 0) {
    const checks = [...new Set(damaged.map((object) => object.check))].sort();
    const where = damaged.some((object) => object.onChain === true) ? 'on' : 'off';
    named.push(`${where} the chain (${checks.join(', ')})`);
  }
  return `damaged: ${plural(damaged.length, 'object')}, ${named.join(', ')}`;
}

export function prefixHealth(
  facts: PrefixHealthFacts,
  options: HealthOptions = {},
): PrefixHealthView {
  const nowMs = options.nowMs ?? Date.now();
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const reasons: Array<{ kind: HealthReasonKind; text: string }> = [];
  const add = (kind: HealthReasonKind, text: string): void => {
    reasons.push({ kind, text });
  };
  const refusal = facts.refusal ?? null;
  if (refusal !== null)
    add('open-refused', `GreptimeDB would refuse to open: ${refusal.rule} at ${refusal.key}`);
  if (facts.error !== null) add('error', `error: ${facts.error.code}`);
  if (facts.openFailure !== null && refusal === null)
    add('open-failure', `open fails: ${facts.openFailure.code}`);
  if (facts.damaged.length > 0) add('damaged', damageReason(facts.damaged));
  if ((facts.orphans ?? 0) > 0)
    add('orphans', `orphans: ${plural(facts.orphans ?? 0, 'object')} off the chain`);
  if (facts.twoWriters) add('two-writers', facts.twoWriters);
  const lag = facts.floorLag ?? 0n;
  if (
    facts.newestObjectAtMs !== null &&
    nowMs - facts.newestObjectAtMs >= staleAfterMs &&
    lag > 0n
  ) {
    add(
      'stale',
      `stale: newest object ${relativeTime(facts.newestObjectAtMs, nowMs)}, tip ${lag} sequences above the floor`,
    );
  }
  if (reasons.length > 0)
    return { state: 'unhealthy', reasons, text: reasons.map((r) => r.text).join('; ') };
  if (facts.readState === 'pending') return { state: 'reading', reasons, text: 'reading' };
  if (facts.coverage?.state !== 'verified') {
    const why = facts.coverage?.text ?? 'what was read whole is not known';
    return { state: 'unverified', reasons, text: `unverified: ${why}` };
  }
  return { state: 'healthy', reasons, text: 'healthy' };
}
