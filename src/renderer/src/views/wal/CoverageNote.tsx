/**
 * A prefix's State and what it covers, as the headline of Batches: `healthy` with when its
 * objects were last read whole, `unverified` with why (never, or not within the verify age) and
 * how many objects are known only by their footers, or the problems. The main process derives
 * both (the Overview's words); this only shows them.
 */
import type { InspectView } from '../../../../shared/contract/wal';

export function CoverageNote({ inspect }: { inspect: InspectView | undefined }) {
  const health = inspect?.health;
  if (health === undefined || health === null || health.state === 'reading') return null;
  const coverage = inspect?.coverage ?? null;
  const className =
    health.state === 'unhealthy'
      ? 'small wal-warn'
      : health.state === 'unverified'
        ? 'small wal-unverified'
        : 'small';
  return (
    <p className={className} role="status" aria-label="Prefix state">
      <strong>{health.state}</strong>
      {health.state === 'unhealthy' && <>: {health.text}</>}
      {coverage !== null && <> · {coverage.text}</>}
    </p>
  );
}
