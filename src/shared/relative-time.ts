/** How long ago an instant was, in the coarse words a reader wants ("4 s ago"), and its UTC form. */
export function relativeTime(atMs: number, nowMs: number): string {
  const seconds = Math.round((nowMs - atMs) / 1000);
  if (seconds < 0) return 'in the future';
  if (seconds < 1) return 'just now';
  if (seconds < 120) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 120) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} d ago`;
}

/** `2026-12-02 05:04:33 UTC`. */
export function utcText(atMs: number): string {
  return `${new Date(atMs).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}
