/**
 * A WAL object in the inspector, part by part: header (sequence, epoch, chain link, reclaim
 * boundary), each segment from the footer, the footer and the trailer, with every CRC's
 * status judged on its own, and the first check a strict decode fails. Either format.
 */
import { useState } from 'react';
import { useApiQuery } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { formatBytes } from '../format';
import { regionName } from '../wal/wal-words';

const WAL_OBJECT = /(^|\/)objects\/\d{20}\.wal$/;
/** Segments laid out a page at a time: an object may hold 300,000 regions. */
const SEGMENT_PAGE = 200;

export function isWalObjectKey(key: string): boolean {
  return WAL_OBJECT.test(key);
}

function Crc({ ok }: { ok: boolean | null }) {
  if (ok === null) return <span className="muted">—</span>;
  return <span className={`badge ${ok ? 'ok' : 'warn'}`}>{ok ? 'CRC ok' : 'CRC bad'}</span>;
}

export function WalObjectParts({
  connectionId,
  objectKey,
}: {
  connectionId: string;
  objectKey: string;
}) {
  const [segmentOffset, setSegmentOffset] = useState(0);
  const parts = useApiQuery(
    'wal.decodeObject',
    { connectionId, key: objectKey, segmentOffset, segmentLimit: SEGMENT_PAGE },
    { placeholderData: (previous) => previous },
  );
  if (parts.error) return <ErrorPanel error={parts.error} onRetry={() => void parts.refetch()} />;
  const view = parts.data;
  if (!view) return <p className="muted small">Decoding…</p>;
  const header = view.header;
  return (
    <section aria-label="WAL object" className="wal-panel">
      <h3 className="small">
        {view.format === 'greptimedb-v1'
          ? 'GreptimeDB v1 object (GTWALOBJ)'
          : 'Cairn v1 object (CAIRNWAL)'}
      </h3>
      {view.failure ? (
        <p className="wal-warn" role="alert">
          Damaged: {view.failure.check}
          {view.failure.detail === '' ? '' : ` (${view.failure.detail})`}
        </p>
      ) : (
        <p className="small">Every check passes.</p>
      )}
      {header && (
        <dl className="facts" aria-label="Header">
          <dt>Header</dt>
          <dd>
            v{header.version} {header.magicOk ? '' : '(bad magic) '}
            <Crc ok={header.crcOk} />
          </dd>
          <dt>Sequence · epoch</dt>
          <dd className="mono">
            {String(header.seq)} · {String(header.epoch)}
          </dd>
          <dt>Extends</dt>
          <dd className="mono">
            {header.prev
              ? `seq ${String(header.prev.seq)} · epoch ${String(header.prev.epoch)}`
              : 'none (a chain start)'}
          </dd>
          {header.reclaimBoundary !== null && (
            <>
              <dt>Reclaim boundary</dt>
              <dd className="mono">{String(header.reclaimBoundary)}</dd>
            </>
          )}
        </dl>
      )}
      {view.segments.length > 0 && (
        <table className="table" aria-label="Segments">
          <thead>
            <tr>
              <th>Region</th>
              <th>Ids</th>
              <th>Entries</th>
              <th>At</th>
              <th>Size</th>
              <th>CRC</th>
            </tr>
          </thead>
          <tbody>
            {view.segments.map((segment) => (
              <tr key={`${String(segment.regionId)}@${segment.offset}`}>
                <td className="mono">{regionName(segment.regionId)}</td>
                <td className="mono">
                  {String(segment.firstId)}–{String(segment.lastId)}
                </td>
                <td>{segment.entries}</td>
                <td className="mono">{segment.offset}</td>
                <td>{formatBytes(segment.length)}</td>
                <td>
                  <Crc ok={segment.crcOk} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {view.segmentCount > SEGMENT_PAGE && (
        <div className="wal-pager">
          <button
            type="button"
            disabled={segmentOffset === 0}
            onClick={() => setSegmentOffset(Math.max(0, segmentOffset - SEGMENT_PAGE))}
          >
            Previous segments
          </button>
          <span className="small muted" role="status" aria-label="Segments shown">
            {view.segmentOffset + 1}–
            {Math.min(view.segmentOffset + SEGMENT_PAGE, view.segmentCount)} of{' '}
            {view.segmentCount.toLocaleString()}
          </span>
          <button
            type="button"
            disabled={segmentOffset + SEGMENT_PAGE >= view.segmentCount}
            onClick={() => setSegmentOffset(segmentOffset + SEGMENT_PAGE)}
          >
            Next segments
          </button>
        </div>
      )}
      <dl className="facts" aria-label="Footer and trailer">
        <dt>Footer</dt>
        <dd>
          {view.footer ? (
            <>
              {view.footer.count} segments <Crc ok={view.footer.crcOk} />
            </>
          ) : (
            'unreadable'
          )}
        </dd>
        <dt>Trailer</dt>
        <dd>
          {view.trailer ? (
            <>
              footer at {String(view.trailer.footerOffset)} ({String(view.trailer.footerLength)} B)
              {view.trailer.magicOk ? '' : ' · bad magic'}
              {view.trailer.objectCrcOk !== null && (
                <>
                  {' '}
                  · object <Crc ok={view.trailer.objectCrcOk} />
                </>
              )}
            </>
          ) : (
            'unreadable'
          )}
        </dd>
      </dl>
    </section>
  );
}
