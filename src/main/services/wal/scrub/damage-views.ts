/**
 * The damage ledger's findings merged into the views that show a prefix: each finding as the
 * API shows it (with the regions and entry ranges it affects, read from the catalog that
 * replays use), the Batches object rows (`damaged` and the check that failed), the Regions
 * rows (its damaged segments, counted as holes) and the facts the prefix's State is derived
 * from. Pure translation; the ledger says what is damaged, the catalog where it lies.
 */
import type { RegionRow, WalObjectRow } from '../../../../shared/contract/wal';
import type { DamagedRange, ObjectDamage } from '../../../../shared/contract/wal-damage';
import type { ObjectCatalog } from '../../../engine/wal/catalog';
import type { PrefixSnapshot } from '../read-model/prefix-model';
import type { ObjectLists } from '../wal-reads';
import type { DamagedObjectFact } from '../fleet/prefix-health';
import type { DamageFinding } from './damage-ledger';

/** The catalog a replay of the snapshot reads (null when the prefix did not recover). */
export function catalogOfSnapshot(snapshot: PrefixSnapshot): ObjectCatalog | null {
  return snapshot.format === 'greptimedb-v1'
    ? snapshot.recovery.catalog
    : (snapshot.inspected.recovery?.catalog ?? null);
}

/** The ranges a finding's object holds of the regions it names, by the catalog. */
function rangesOf(finding: DamageFinding, catalog: ObjectCatalog | null): DamagedRange[] | null {
  if (finding.seq === null || catalog === null) return null;
  const object = catalog.object(finding.seq);
  if (object === undefined || object.key !== finding.key) return null;
  return object.segments
    .filter((segment) => finding.regions === null || finding.regions.includes(segment.regionId))
    .map((segment) => ({
      regionId: segment.regionId,
      firstId: segment.firstId,
      lastId: segment.lastId,
    }));
}

export function objectDamageOf(
  finding: DamageFinding,
  catalog: ObjectCatalog | null,
): ObjectDamage {
  const ranges = rangesOf(finding, catalog);
  return {
    key: finding.key,
    seq: finding.seq,
    size: finding.size,
    etag: finding.etag,
    check: finding.check,
    detail: finding.detail,
    source: finding.source,
    foundAtMs: finding.foundAtMs,
    onChain: ranges !== null,
    ranges: ranges ?? [...finding.ranges],
  };
}

export function damagesOf(
  findings: readonly DamageFinding[],
  catalog: ObjectCatalog | null,
): ObjectDamage[] {
  return findings.map((finding) => objectDamageOf(finding, catalog));
}

/** The object rows with the check that failed on each damaged one. */
export function withDamagedRows(lists: ObjectLists, damages: readonly ObjectDamage[]): ObjectLists {
  if (damages.length === 0) return lists;
  const byKey = new Map(damages.map((damage) => [damage.key, damage]));
  const mark = (rows: readonly WalObjectRow[]): WalObjectRow[] =>
    rows.map((row) => {
      const damage = byKey.get(row.key);
      return damage === undefined
        ? row
        : { ...row, damage: { check: damage.check, detail: damage.detail, source: damage.source } };
    });
  return {
    chain: mark(lists.chain),
    orphans: mark(lists.orphans),
    excluded: mark(lists.excluded),
    belowBoundary: mark(lists.belowBoundary),
  };
}

/**
 * Each region row with its damaged segments; `holes` counts them (a replay skips each), or
 * the holes the catalog's reads met, whichever is more. The rows themselves when nothing is
 * damaged (a snapshot's rows stay the ones built once).
 */
export function withRegionDamage(
  rows: readonly RegionRow[],
  damages: readonly ObjectDamage[],
): readonly RegionRow[] {
  if (damages.length === 0) return rows;
  const byRegion = new Map<bigint, NonNullable<RegionRow['damage']>>();
  for (const damage of damages)
    for (const range of damage.ranges) {
      const list = byRegion.get(range.regionId) ?? [];
      list.push({
        key: damage.key,
        seq: damage.seq,
        firstId: range.firstId,
        lastId: range.lastId,
        check: damage.check,
      });
      byRegion.set(range.regionId, list);
    }
  return rows.map((row) => {
    const damage = byRegion.get(row.regionId) ?? [];
    return { ...row, damage, holes: Math.max(row.holes, damage.length) };
  });
}

/** The damaged objects as the State derivation takes them. */
export function damageFacts(damages: readonly ObjectDamage[]): DamagedObjectFact[] {
  return damages.map((damage) => ({
    key: damage.key,
    check: damage.check,
    ranges: damage.onChain ? damage.ranges : [],
  }));
}
