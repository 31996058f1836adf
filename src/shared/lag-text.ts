/**
 * How a prefix's lag reads wherever it is shown (the Overview's Lag column, `cairn wal fleet`):
 * the objects the tip runs ahead of the floor, and the age of the oldest of them, each with its
 * unit - `12 objects · 3.0 s`. Pure.
 */
import { counted } from './plural';

/** A duration in the unit that reads best: `850 ms`, `3.0 s`, `12 min`, `5 h`. */
export function ageText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

/** `12 objects · 3.0 s`, `1 object`, or '' while the lag is not known. */
export function lagText(lag: { lagObjects: number | null; lagMs: number | null }): string {
  if (lag.lagObjects === null) return '';
  const objects = counted(lag.lagObjects, 'object');
  return lag.lagMs === null ? objects : `${objects} · ${ageText(lag.lagMs)}`;
}
