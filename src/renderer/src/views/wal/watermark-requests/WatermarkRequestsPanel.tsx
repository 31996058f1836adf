/**
 * Watermark requests of the selected prefix (docs/design/watermark-requests.md): each request
 * with its region, the id asked for, its state, how long it waited (a pending one counts up
 * while the panel is open), who asked, and the writer's answer - the epoch that applied it
 * and the watermark it left, or why it rejected it. Says who holds the register and whether
 * that writer reads requests or looks dead (then only a take-over applies them). Reads only.
 */
import { useEffect, useState } from 'react';
import type {
  WatermarkRequestRow,
  WatermarkRequestsView,
} from '../../../../../shared/contract/wal-watermark-requests';
import { formatEntryId } from '../../../../../shared/id-notation';
import { useApiQuery } from '../../../api/hooks';
import { regionName } from '../wal-words';
import { PanelHeading } from '../../../components/PrefixName';

/** Pending requests are re-read this often, so an apply shows within a few seconds. */
const PENDING_POLL_MS = 2_000;

export function waitedText(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}

function holderNote(view: WatermarkRequestsView): string {
  if (view.writerEpoch === 0n) return 'No writer ever opened this prefix.';
  if (!view.holderReads)
    return `The writer holding epoch ${view.writerEpoch} does not read requests (an older Cairn): take it over instead.`;
  const ago =
    view.holderWrittenAgoMs === null
      ? ''
      : `, last wrote ${waitedText(view.holderWrittenAgoMs)} ago`;
  return view.holderLive
    ? `The writer holding epoch ${view.writerEpoch} looks live${ago}: it applies requests at its next register write.`
    : `The writer holding epoch ${view.writerEpoch} looks idle or dead${ago}: requests wait until it writes again, or until a writer takes the prefix over (the new writer applies them).`;
}

/** A pending request's wait, counted up between reads. */
function Waited({ row, readAtMs }: { row: WatermarkRequestRow; readAtMs: number }) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (row.state !== 'pending') return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [row.state]);
  const extra = row.state === 'pending' ? Math.max(0, now - readAtMs) : 0;
  return <>{waitedText(row.waitedMs + extra)}</>;
}

function Outcome({ row }: { row: WatermarkRequestRow }) {
  if (row.state === 'pending') return <span className="wal-warn">waiting for the writer</span>;
  if (row.state === 'applied')
    return (
      <>
        applied by epoch {String(row.settledEpoch)}; watermark{' '}
        <span className="mono">{formatEntryId(row.effective ?? row.watermark)}</span>
      </>
    );
  return (
    <span className="wal-warn">
      rejected by epoch {String(row.settledEpoch)}: {row.reason}
    </span>
  );
}

export function WatermarkRequestsPanel({
  connectionId,
  prefix,
}: {
  connectionId: string;
  prefix: string;
}) {
  const query = useApiQuery(
    'wal.obsolete.requests',
    { connectionId, prefix },
    {
      refetchInterval: (q) =>
        q.state.data?.requests.some((row) => row.state === 'pending') === true
          ? PENDING_POLL_MS
          : 10_000,
    },
  );
  const view = query.data;
  if (view === undefined) return null;
  const readAtMs = query.dataUpdatedAt;
  const pending = view.requests.filter((row) => row.state === 'pending').length;
  return (
    <section className="wal-requests" aria-label="Watermark requests">
      <PanelHeading what="Watermark requests" prefix={prefix} level={3}>
        {pending > 0 ? ` · ${pending} pending` : ''}
      </PanelHeading>
      <p className="muted small" role="note" aria-label="Register holder">
        {holderNote(view)}
      </p>
      {view.requests.length > 0 && (
        <table className="small" aria-label="Watermark request list">
          <thead>
            <tr>
              <th>Region</th>
              <th>Up to</th>
              <th>State</th>
              <th>Waited</th>
              <th>Asked by</th>
              <th>Writer's answer</th>
            </tr>
          </thead>
          <tbody>
            {view.requests.map((row) => (
              <tr key={row.id} aria-label={`Request ${row.id}`}>
                <td className="mono">{regionName(row.region)}</td>
                <td className="mono">{formatEntryId(row.watermark)}</td>
                <td>{row.state}</td>
                <td aria-label="Waited">
                  <Waited row={row} readAtMs={readAtMs} />
                </td>
                <td>{row.requestedBy}</td>
                <td>
                  <Outcome row={row} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
