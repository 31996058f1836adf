/**
 * What a view shows while its data is on the way: a spinner, and after `patienceMs` a
 * message saying the read is slow (the store may be unreachable) instead of waiting forever.
 */
import { useState } from 'react';
import { useNow } from './use-now';

export const PATIENCE_MS = 15_000;

export function Pending({
  what = 'Loading',
  patienceMs = PATIENCE_MS,
}: {
  what?: string;
  patienceMs?: number;
}) {
  const [since] = useState(() => Date.now());
  const now = useNow();
  const late = now - since >= patienceMs;
  return (
    <span className="pending" role="status" aria-label={what}>
      <span className="spinner" aria-hidden="true" />
      {late
        ? `${what}: no answer after ${Math.round(patienceMs / 1000)} s; the store may be slow or unreachable (it is still being read)`
        : `${what}…`}
    </span>
  );
}
