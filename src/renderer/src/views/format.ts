/** Display formats shared by the views. */
import { counted } from '../../../shared/plural';

/**
 * The runtime's default locale's number format, made once: Chromium's `toLocaleString()`
 * builds a formatter per call (about 50 us each), and a scrolled table formats a few numbers a
 * row, dozens of rows a frame. Same text as `n.toLocaleString()`.
 */
const COUNT_FORMAT = new Intl.NumberFormat();

/** A count as `toLocaleString()` writes it (`100,001`). */
export function formatCount(count: number | bigint): string {
  return COUNT_FORMAT.format(count);
}

/** The fields `Date.toLocaleString()` writes when asked for none, in one formatter made once. */
const DATE_TIME_FORMAT = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'numeric',
  day: 'numeric',
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
});

/** A date and time as `toLocaleString()` writes it (`12/6/2026, 11:52:07 AM`). */
export function formatDateTime(date: Date): string {
  return DATE_TIME_FORMAT.format(date);
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

/** A latency: tenths below 10 ms, whole milliseconds above. */
export function formatMs(ms: number): string {
  return `${ms < 10 ? ms.toFixed(1) : Math.round(ms).toLocaleString('en-US')} ms`;
}

/** A count with its unit: `1 object`, `3 objects`, `2 batches`; empty while not known. */
export function countText(count: number | null, unit: string, units?: string): string {
  return count === null ? '' : counted(count, unit, units);
}
