/** What a pending read says: "<what>…", then, once past its patience, that it is slow. Pure. */
export const PATIENCE_MS = 15_000;

export function pendingText(what: string, elapsedMs: number, patienceMs = PATIENCE_MS): string {
  return elapsedMs < patienceMs
    ? `${what}…`
    : `${what}: no answer after ${Math.round(patienceMs / 1000)} s; the store may be slow or unreachable (it is still being read)`;
}
