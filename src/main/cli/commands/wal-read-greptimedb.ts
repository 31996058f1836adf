/**
 * How `cairn wal inspect` prints a GreptimeDB prefix for people: tip, reclaim boundary,
 * counts, instances, damage and each region with its ids as the console shows them; the chain,
 * orphans and objects below the boundary only when asked (`--chain`). A merged-layout prefix
 * prints GreptimeDB's open verdict first (a refusal names object and rule), then the next
 * sequence, the writer runs and `two writers` when an instance came back.
 */
import type { GtInspectReport, GtMergedReport, GtObjectRow } from '../../engine/greptimedb/inspect';
import { GT_PREFIX_LAYOUT_NAMES } from '../../engine/greptimedb/merged/prefix-layout';
import { counted } from '../../../shared/plural';
import { table } from '../output';
import { regionTable } from './wal-inspect-regions';

function objectRows(title: string, rows: readonly GtObjectRow[]): string[] {
  if (rows.length === 0) return [];
  // The merged layout has no epoch or link: its objects name their writer instance instead.
  const merged = rows.some((o) => o.writerInstance !== null);
  return [
    '',
    title,
    ...table(
      merged
        ? ['SEQ', 'WRITER', 'SIZE', 'SEGMENTS', 'ENTRIES', 'KEY']
        : ['SEQ', 'EPOCH', 'PREV', 'SIZE', 'SEGMENTS', 'ENTRIES', 'KEY'],
      rows.map((o) => [
        String(o.seq),
        ...(merged
          ? [o.writerInstance ?? '-']
          : [String(o.epoch), o.prev === null ? 'none' : `${o.prev.seq}@${o.prev.epoch}`]),
        String(o.size),
        String(o.segments),
        String(o.entries),
        o.key,
      ]),
    ),
  ];
}

function atText(ms: number | null): string {
  return ms === null ? '-' : new Date(ms).toISOString();
}

/** The merged layout's verdict and writer runs, the verdict first. */
export function describeGtMerged(report: GtInspectReport, merged: GtMergedReport): string[] {
  const refusal = merged.refusals[0];
  const lines = [
    refusal === undefined
      ? `GREPTIMEDB OPENS  yes: ${report.chain.length} objects, next sequence ${merged.nextSeq ?? 'none'}`
      : `GREPTIMEDB WOULD REFUSE TO OPEN  ${refusal.rule} at ${refusal.key}: ${refusal.detail}`,
    ...merged.refusals.slice(1).map((r) => `  also ${r.rule} at ${r.key}: ${r.detail}`),
  ];
  if (merged.twoWriters !== null) lines.push(`TWO WRITERS  ${merged.twoWriters}`);
  lines.push(
    `prefix          ${report.prefix} (greptimedb-v1, ${GT_PREFIX_LAYOUT_NAMES.merged}, read-only)`,
    `tip             ${report.tip ? `seq ${report.tip.seq}` : 'none'}`,
    `objects         ${report.listed} listed, ${report.chain.length} read, ${report.damaged.length} damaged, ${report.missing.length} gone`,
    '',
    'writer runs',
    ...table(
      ['WRITER INSTANCE', 'FIRST', 'LAST', 'OBJECTS', 'FROM', 'TO'],
      merged.runs.map((r) => [
        r.writerInstance,
        String(r.firstSeq),
        String(r.lastSeq),
        String(r.objects),
        atText(r.firstAtMs),
        atText(r.lastAtMs),
      ]),
    ),
  );
  return lines;
}

export function describeGtInspect(report: GtInspectReport, withChain: boolean): string[] {
  if (report.merged !== null)
    return [...describeGtMerged(report, report.merged), ...tailOf(report, withChain)];
  const lines = [
    `prefix          ${report.prefix} (greptimedb-v1, read-only)`,
    `tip             ${report.tip ? `seq ${report.tip.seq} (epoch ${report.tip.epoch})` : 'none'}`,
    `reclaim bound.  ${report.reclaimBoundary}${report.reclaimedLink ? ' (objects below it already deleted)' : ''}`,
    `objects         ${report.listed} listed, ${report.chain.length} on the chain, ${counted(report.orphans.length, 'orphan')}, ${report.belowBoundary.length} below the boundary, ${report.damaged.length} damaged`,
    `instances       ${report.instances.map((i) => `epoch ${i.epoch} (start ${i.startSeq ?? 'gone'}, ${counted(i.objects, 'object')})`).join(', ') || 'none'}`,
  ];
  if (report.failure)
    lines.push(`REPLAY WOULD FAIL  ${report.failure.code}: ${report.failure.message}`);
  return [...lines, ...tailOf(report, withChain)];
}

/** Damage, the objects when asked, and the regions: the same for both layouts. */
function tailOf(report: GtInspectReport, withChain: boolean): string[] {
  const lines: string[] = [];
  for (const damaged of report.damaged)
    lines.push(
      `DAMAGED  ${damaged.key}: ${damaged.check}${damaged.detail === '' ? '' : ` (${damaged.detail})`}`,
    );
  if (withChain)
    lines.push(
      ...objectRows(report.merged === null ? 'chain' : 'objects', report.chain),
      ...objectRows('orphans', report.orphans),
      ...objectRows('below the reclaim boundary', report.belowBoundary),
    );
  lines.push(
    '',
    ...regionTable(['FIRST', 'LATEST'], report.regions, (r) => [r.firstId, r.latestId]),
  );
  return lines;
}
