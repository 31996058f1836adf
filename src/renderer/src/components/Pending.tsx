/**
 * What a view shows while its data is on the way: a spinner, and after `patienceMs` a
 * message saying the read is slow (the store may be unreachable) instead of waiting forever.
 */
import { useState } from 'react';
import { PATIENCE_MS, pendingText } from './pending-text';
import { useNow } from './use-now';

export function Pending({
  what = 'Loading',
  patienceMs = PATIENCE_MS,
}: {
  what?: string;
  patienceMs?: number;
}) {
  const [since] = useState(() => Date.now());
  const now = useNow();
  return (
    <span className="pending" role="status" aria-label={what}>
      <span className="spinner" aria-hidden="true" />
      {pendingText(what, now - since, patienceMs)}
    </span>
  );
}
