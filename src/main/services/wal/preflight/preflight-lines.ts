/**
 * A preflight's region verdicts in words, one line each - what `cairn wal preflight` prints and
 * the console's Preflight shows: `opens`, `opens with holes` (which, and where `fail` stops),
 * or `FAILS at entry seq:position of <key>` with the decoder's reason. Pure.
 */
import { formatEntryId, formatRegionId } from '../../../../shared/id-notation';
import type { PreflightHole, RegionPreflight } from './preflight';

function holeText(hole: PreflightHole): string {
  return `ids ${formatEntryId(hole.firstId)}-${formatEntryId(hole.lastId)} of ${hole.key} (${hole.check})`;
}

export function preflightLine(region: RegionPreflight): string {
  const name = `region ${formatRegionId(region.regionId)}`;
  const open = region.open;
  if (open.kind === 'opens') return `${name}  opens (${region.entries} entries)`;
  if (open.kind === 'opens-with-holes') {
    const stop = region.failsOnDamageAt;
    const fail = stop === null ? '' : `; with on_corrupted_segment = fail it fails at ${stop.key}`;
    return `${name}  opens with holes: ${region.holes.map(holeText).join(', ')}${fail}`;
  }
  if (open.kind === 'fails-at-entry')
    return `${name}  FAILS at entry ${formatEntryId(open.entryId)} of ${open.key}: ${open.reason} at byte ${open.offset}${open.detail === '' ? '' : ` (${open.detail})`}`;
  return `${name}  FAILS: ${open.code}: ${open.message}`;
}
