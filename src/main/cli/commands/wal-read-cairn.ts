/**
 * How `cairn wal inspect` prints a Cairn prefix for people: the register, tip, counts and
 * what would stop an open, then each region with its ids as the console shows them; the
 * objects on the chain, the orphans and the excluded only when asked (`--chain`).
 */
import { counted } from '../../../shared/plural';
import type { InspectReport } from '../../engine/wal/inspect';
import type { RecoveredObject } from '../../engine/wal/session';
import { table } from '../output';
import { regionTable } from './wal-inspect-regions';

function objectRows(title: string, rows: readonly RecoveredObject[]): string[] {
  if (rows.length === 0) return [];
  return [
    '',
    title,
    ...table(
      ['SEQ', 'EPOCH', 'SIZE', 'KEY'],
      rows.map((o) => [String(o.seq), String(o.epoch), String(o.size), o.key]),
    ),
  ];
}

export function describeCairnInspect(report: InspectReport, withChain: boolean): string[] {
  const register = report.register;
  const lines = [
    `prefix        ${report.prefix} (cairn-v1)`,
    `writer        ${register.exists ? `epoch ${register.writerEpoch}, id ${register.writerId}` : 'none (no writer ever opened this prefix)'}`,
    `tail hint     ${register.tail ? `seq ${register.tail.seq}, epoch ${register.tail.epoch}` : 'none'}`,
    `boundary      ${register.boundary}`,
    `tip           ${report.tip ? `seq ${report.tip.seq} (epoch ${report.tip.epoch})` : 'none'}`,
    `next start    ${report.nextSeq ?? 'exhausted'}`,
    `objects       ${report.listed} listed, ${report.chain.length} on the chain, ${counted(report.orphans.length, 'orphan')}, ${report.excluded.length} excluded`,
    `sealed epochs ${register.sealed.map((s) => `${s.firstEpoch === s.lastEpoch ? s.lastEpoch : `${s.firstEpoch}-${s.lastEpoch}`}:${s.lastSeq ?? 'none'} (${s.reason})`).join(', ') || 'none'}`,
  ];
  if (report.failure)
    lines.push(`OPEN WOULD FAIL  ${report.failure.code}: ${report.failure.message}`);
  if (withChain)
    lines.push(
      ...objectRows('chain', report.chain),
      ...objectRows('orphans', report.orphans),
      ...objectRows('excluded', report.excluded),
    );
  lines.push(
    '',
    ...regionTable(['LATEST', 'WATERMARK'], report.regions, (r) => [r.latestId, r.watermark]),
  );
  return lines;
}
