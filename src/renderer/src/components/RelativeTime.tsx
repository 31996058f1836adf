/** A time shown relative to now ("4 s ago"), with the absolute UTC time on hover. */
import { relativeTime, utcText } from '../../../shared/relative-time';
import { useNow } from './use-now';

export function RelativeTime({ atMs }: { atMs: number }) {
  const now = useNow();
  return (
    <time dateTime={new Date(atMs).toISOString()} title={utcText(atMs)}>
      {relativeTime(atMs, now)}
    </time>
  );
}
