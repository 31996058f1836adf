/** A time shown relative to now ("4 s ago"), with the absolute UTC time on hover. */
import { relativeTime, utcText } from '../../../shared/relative-time';
import { useNow } from './use-now';

export function RelativeTime({ atMs }: { atMs: number }) {
  return <RelativeTimeAt atMs={atMs} nowMs={useNow()} />;
}

/**
 * The same, against a time the caller keeps: a list reads the clock once for all its rows
 * (and can hold it still while it scrolls) instead of every row subscribing to it.
 */
export function RelativeTimeAt({ atMs, nowMs }: { atMs: number; nowMs: number }) {
  return (
    <time dateTime={new Date(atMs).toISOString()} title={utcText(atMs)}>
      {relativeTime(atMs, nowMs)}
    </time>
  );
}
