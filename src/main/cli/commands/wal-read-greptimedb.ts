/**
 * How `cairn wal inspect` prints a GreptimeDB prefix for people: tip, reclaim boundary,
 * counts, instances, damage and each region with its ids as the console shows them; the chain,
 * orphans and objects below the boundary only when asked (`--chain`).
 */
import { counted } from '../../../shared/plural';
import type { GtInspectReport, GtObjectRow } from '../../engine/greptimedb/inspect';
import { table } from '../output';
import { regionTable } from './wal-inspect-regions';

function objectRows(title: string, rows: readonly GtObjectRow[]): string[] {
  if (rows.length === 0) return [];
  return [
    '',
    title,
    ...table(
      ['SEQ', 'EPOCH', 'PREV', 'SIZE', 'SEGMENTS', 'ENTRIES', 'KEY'],
      rows.map((o) => [
        String(o.seq),
        String(o.epoch),
        o.prev === null ? 'none' : `${o.prev.seq}@${o.prev.epoch}`,
        String(o.size),
        String(o.segments),
        String(o.entries),
        o.key,
      ]),
    ),
  ];
}

export function describeGtInspect(report: GtInspectReport, withChain: boolean): string[] {
  const lines = [
    `prefix          ${report.prefix} (greptimedb-v1, read-only)`,
    `tip             ${report.tip ? `seq ${report.tip.seq} (epoch ${report.tip.epoch})` : 'none'}`,
    `reclaim bound.  ${report.reclaimBoundary}${report.reclaimedLink ? ' (objects below it already deleted)' : ''}`,
    `objects         ${report.listed} listed, ${report.chain.length} on the chain, ${counted(report.orphans.length, 'orphan')}, ${report.belowBoundary.length} below the boundary, ${report.damaged.length} damaged`,
    `instances       ${report.instances.map((i) => `epoch ${i.epoch} (start ${i.startSeq ?? 'gone'}, ${counted(i.objects, 'object')})`).join(', ') || 'none'}`,
  ];
  if (report.failure)
    lines.push(`REPLAY WOULD FAIL  ${report.failure.code}: ${report.failure.message}`);
  for (const damaged of report.damaged)
    lines.push(
      `DAMAGED  ${damaged.key}: ${damaged.check}${damaged.detail === '' ? '' : ` (${damaged.detail})`}`,
    );
  for (const other of report.otherLayout)
    lines.push(
      `OTHER LAYOUT  ${other.key}: ${other.layout} (writer instance ${other.writerInstance}, ${counted(other.segments, 'segment')}, ${counted(other.entries, 'entry')})`,
    );
  if (withChain)
    lines.push(
      ...objectRows('chain', report.chain),
      ...objectRows('orphans', report.orphans),
      ...objectRows('below the reclaim boundary', report.belowBoundary),
    );
  lines.push(
    '',
    ...regionTable(['FIRST', 'LATEST'], report.regions, (r) => [r.firstId, r.latestId]),
  );
  return lines;
}
