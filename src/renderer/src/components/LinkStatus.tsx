/**
 * The current connection's link in the title bar: its round trip (the fastest answer, what
 * the network costs) apart from the latency p50 of its recent answers (queueing included), and
 * the requests it has in flight (with those waiting for a slot), as its I/O controller last
 * measured them; re-read every second while the window is visible, unless refresh is paused.
 */
import { useApiQuery } from '../api/hooks';
import { useUiStore } from '../state/ui-store';
import { formatMs } from '../views/format';

const LINK_REFRESH_MS = 1_000;

export function LinkStatus({ connectionId }: { connectionId: string }) {
  const paused = useUiStore((state) => state.refreshMs === 0);
  const link = useApiQuery(
    'connections.link',
    { id: connectionId },
    { refetchInterval: paused ? false : LINK_REFRESH_MS },
  );
  if (!link.data) return null;
  const { roundTripMs, p50Ms, inFlight, waiting, limit } = link.data;
  const ms = (value: number | null) => (value === null ? '–' : formatMs(value));
  return (
    <span
      role="status"
      aria-label="Storage link"
      className="small muted link-status"
      title={`Round trip: the link's fastest answer, no queueing in it. Requests: the median latency of the store's recent answers, queueing and transfer included; requests in flight of the ${limit} its link allows now`}
    >
      round trip {ms(roundTripMs)} · requests p50 {ms(p50Ms)} · {inFlight} in flight
      {waiting > 0 ? ` (+${waiting} waiting)` : ''}
    </span>
  );
}
