/**
 * The Search view's words: its progress line, and the `cairn wal search` command that prints
 * exactly what the page's export holds (the same flags, so a link, the page and the CLI name
 * one search). Pure.
 */
import type { SearchProgress } from '../../../../../shared/contract/wal-search';
import type { SearchPlace } from '../../../state/search-place';
import { formatBytes, formatCount } from '../../format';
import { shellWord } from '../replay/rows-model';

function perSecond(count: number, elapsedMs: number): number {
  return elapsedMs <= 0 ? 0 : Math.round((count * 1000) / elapsedMs);
}

/** `objects 12 of 2,000 · 3.4 MiB of 1.2 GiB · 120,000 rows (40,000 rows/s, 12 MiB/s) · 3 hits`. */
export function progressText(progress: SearchProgress): string {
  const scanned =
    progress.kind === 'row'
      ? `${formatCount(progress.rows)} rows (${formatCount(perSecond(progress.rows, progress.elapsedMs))} rows/s`
      : `${formatCount(progress.entries)} entries (${formatCount(perSecond(progress.entries, progress.elapsedMs))} entries/s`;
  const parts = [
    `objects ${formatCount(progress.objectsRead)} of ${formatCount(progress.objectsPlanned)}`,
    `${formatBytes(progress.bytesRead)} of ${formatBytes(progress.bytesPlanned)}`,
    `${scanned}, ${formatBytes(perSecond(progress.bytesRead, progress.elapsedMs))}/s)`,
    `${formatCount(progress.hits)} ${progress.hits === 1 ? 'hit' : 'hits'}`,
  ];
  if (progress.objectsSkipped > 0)
    parts.push(`${formatCount(progress.objectsSkipped)} objects skipped by their footers`);
  if (progress.holes > 0) parts.push(`${progress.holes} damaged segments skipped`);
  if (progress.bulkSkipped > 0)
    parts.push(`${progress.bulkSkipped} bulk entries skipped by their time range`);
  if (progress.damagedPayloads > 0)
    parts.push(`${progress.damagedPayloads} payloads or bulk entries gave no rows`);
  if (progress.limited) parts.push('stopped at the limit');
  return parts.join(' · ');
}

export function stateText(progress: SearchProgress): string {
  switch (progress.state) {
    case 'running':
      return 'Searching';
    case 'paused':
      return 'Paused';
    case 'finished':
      return 'Done';
    case 'cancelled':
      return `Cancelled: ${progress.cancelReason ?? ''}`;
    case 'failed':
      return `Failed: ${progress.error?.code ?? ''} ${progress.error?.message ?? ''}`;
  }
}

/** The `cairn wal search` command printing what the export holds. */
export function searchCommand(
  prefix: string,
  place: SearchPlace,
  format: 'ndjson' | 'csv',
): string {
  const words = ['cairn', 'wal', 'search', '--prefix', prefix];
  for (const condition of place.where) words.push('--where', condition);
  if (place.since !== '') words.push('--since', place.since);
  if (place.until !== '') words.push('--until', place.until);
  if (place.regions !== 'all') words.push('--regions', place.regions);
  if (place.ids !== '') words.push('--ids', place.ids);
  if (place.text !== '') words.push('--text', place.text);
  if (place.order !== 'ids') words.push('--order', place.order);
  words.push('--limit', String(place.limit));
  if (format === 'csv') words.push('--format', 'csv');
  return words.map(shellWord).join(' ');
}
