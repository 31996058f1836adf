/**
 * How people type a search's scope, the same in `cairn wal search` and the console's Search
 * (and its link): regions as `all` or `R,R,...` (each `table:region` or a decimal u64), ids as
 * `FROM..TO` (either end may be left out; each `seq:position` or a decimal u64, both
 * inclusive). Pure; bad input is an Error naming what is wrong.
 */
import { formatEntryId, formatRegionId, parseEntryId, parseRegionId } from '../id-notation';

/** The regions typed; null for every region. */
export function parseRegionList(text: string): bigint[] | null | Error {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'all') return null;
  const regions: bigint[] = [];
  for (const part of trimmed.split(',')) {
    const region = parseRegionId(part);
    if (region === null)
      return new Error(`"${part.trim()}" is not a region (table:region or a u64)`);
    regions.push(region);
  }
  return regions;
}

export interface IdRange {
  readonly from: bigint;
  /** Null: to the last id. */
  readonly to: bigint | null;
}

export const ALL_IDS: IdRange = { from: 0n, to: null };

export function parseIdRange(text: string): IdRange | Error {
  const trimmed = text.trim();
  if (trimmed === '') return ALL_IDS;
  const at = trimmed.indexOf('..');
  if (at < 0) return new Error(`"${trimmed}" is not FROM..TO (either end may be left out)`);
  const end = (part: string): bigint | null | Error => {
    if (part.trim() === '') return null;
    return (
      parseEntryId(part) ?? new Error(`"${part.trim()}" is not an entry id (seq:position or a u64)`)
    );
  };
  const from = end(trimmed.slice(0, at));
  const to = end(trimmed.slice(at + 2));
  if (from instanceof Error) return from;
  if (to instanceof Error) return to;
  if (from !== null && to !== null && from > to)
    return new Error(`the range ${trimmed} is empty: FROM is above TO`);
  return { from: from ?? 0n, to };
}

/** The regions as typed back (`all` for every region). */
export function regionListText(regions: readonly bigint[] | null): string {
  return regions === null ? 'all' : regions.map(formatRegionId).join(',');
}

export function idRangeText(range: IdRange): string {
  if (range.from === 0n && range.to === null) return '';
  return `${range.from === 0n ? '' : formatEntryId(range.from)}..${range.to === null ? '' : formatEntryId(range.to)}`;
}
