/**
 * How far the open of a big prefix has come, as every WAL view of it says: objects indexed of
 * those listed, how many the local index held, and that the tip, chain and counts are
 * provisional until every object is indexed. While an open is in progress its views are read
 * again every half second, so the table and counts fill in as footers arrive.
 */
import type { OpenProgress } from '../../../../shared/contract/wal-pages';
import { formatCount } from '../format';

/** How often a view of a prefix whose open is in progress is read again. */
export const PROGRESS_POLL_MS = 500;

/** A query's refresh interval: `base`, or every half second while the open is in progress. */
export function progressInterval<T extends { progress: OpenProgress }>(
  base: number | false,
): (query: { state: { data?: T } }) => number | false {
  return (query) => (query.state.data?.progress.done === false ? PROGRESS_POLL_MS : base);
}

export function progressText(progress: OpenProgress): string {
  const total = progress.total === null ? 'listing…' : `of ${formatCount(progress.total)} objects`;
  const cached =
    progress.fromIndex > 0 ? ` (${formatCount(progress.fromIndex)} from the local index)` : '';
  return `Opening: ${formatCount(progress.indexed)} indexed ${total}${cached}`;
}

export function OpenProgressNote({ progress }: { progress: OpenProgress | undefined }) {
  if (progress === undefined || progress.done) return null;
  const share =
    progress.total === null || progress.total === 0 ? 0 : progress.indexed / progress.total;
  return (
    <p className="wal-progress small" role="status" aria-label="Open progress">
      <progress value={share} max={1} aria-hidden="true" /> {progressText(progress)} · the tip,
      chain and counts are provisional until every object is indexed
    </p>
  );
}
