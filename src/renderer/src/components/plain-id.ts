/**
 * Ids as plain cell props (text, monospace class, decimal on hover): a long virtualized table
 * spreads them onto its cells, so a row scrolled in makes no element per id. No JSX, so the
 * node-side tests read it too.
 */
import { formatEntryId, formatRegionId } from '../../../shared/id-notation';

/** What a plain id's element carries: its text, a monospace class, its decimal on hover. */
export interface PlainId {
  readonly className: string;
  readonly title: string;
  readonly children: string;
}

/**
 * An entry id as plain text (`none` for 0), its decimal u64 on hover: spread onto the cell of
 * a long virtualized table itself, so a scrolled-in row makes no element per id.
 */
export function plainEntryId(id: bigint): PlainId {
  if (id === 0n) return { className: 'mono muted', title: 'no entry (0)', children: 'none' };
  return plainId(formatEntryId(id), String(id), 'Entry id');
}

export function plainRegionId(region: bigint): PlainId {
  return plainId(formatRegionId(region), String(region), 'Region');
}

function plainId(shown: string, raw: string, what: string): PlainId {
  return { className: 'mono', title: `${what} ${shown} = ${raw} (decimal u64)`, children: shown };
}
