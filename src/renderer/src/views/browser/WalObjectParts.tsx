/**
 * A WAL object in the inspector, part by part: header (sequence, epoch, chain link, reclaim
 * boundary; or GreptimeDB's writer instance in its other layout), each segment from the
 * footer, the footer and the trailer, with every CRC's status judged on its own. The headline
 * names the damaged part (`Damaged: segment 3 of region 1028:0, segment-crc`) and the view
 * scrolls to that segment's row; ids read as `seq:position` and `table:region`, their decimals
 * one click away. Either format, GreptimeDB's layout named.
 */
import { useEffect, useRef, useState } from 'react';
import type { DecodedObjectView } from '../../../../shared/contract/wal';
import { formatRegionId } from '../../../../shared/id-notation';
import { useApiQuery } from '../../api/hooks';
import { ErrorPanel } from '../../components/ErrorPanel';
import { EntryIdText, RegionIdText } from '../../components/IdText';
import { formatBytes, formatCount } from '../format';
import { counted } from '../../../../shared/plural';

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
  const damagedRow = useRef<HTMLTableRowElement | null>(null);
  const damagedAt = parts.data?.damagedSegment?.index ?? null;
  const damagedPage =
    damagedAt === null ? null : Math.floor(damagedAt / SEGMENT_PAGE) * SEGMENT_PAGE;
  // The object whose damaged part the view was sent to: once an object, so paging away from it
  // afterwards is the person's choice.
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (damagedPage !== null && sentTo !== objectKey) {
    setSentTo(objectKey);
    if (damagedPage !== segmentOffset) setSegmentOffset(damagedPage);
  }
  const shownOffset = parts.data?.segmentOffset ?? null;
  // The damaged row, once its page is shown, often sits below the fold.
  useEffect(() => {
    if (damagedPage !== null && shownOffset === damagedPage)
      damagedRow.current?.scrollIntoView({ block: 'center' });
  }, [damagedPage, shownOffset, objectKey]);
  if (parts.error) return <ErrorPanel error={parts.error} onRetry={() => void parts.refetch()} />;
  const view = parts.data;
  if (!view) return <p className="muted small">Decoding…</p>;
  const header = view.header;
  return (
    <section aria-label="WAL object" className="wal-panel">
      <h3 className="small">
        {view.format === 'greptimedb-v1'
          ? `GreptimeDB v1 object (${view.layout ?? 'GTWALOBJ'})`
          : 'Cairn v1 object (CAIRNWAL)'}
      </h3>
      {view.failure || view.damagedSegment ? (
        <Headline view={view} />
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
          {header.epoch === null ? (
            <>
              <dt>Sequence</dt>
              <dd className="mono">{String(header.seq)}</dd>
            </>
          ) : (
            <>
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
            </>
          )}
          {header.writerInstance !== null && (
            <>
              <dt>Writer instance</dt>
              <dd className="mono">{header.writerInstance}</dd>
            </>
          )}
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
              <th>#</th>
              <th>Region</th>
              <th>Ids</th>
              <th>Entries</th>
              <th>At</th>
              <th>Size</th>
              <th>CRC</th>
            </tr>
          </thead>
          <tbody>
            {view.segments.map((segment, onPage) => {
              const index = view.segmentOffset + onPage;
              return (
                <tr
                  key={`${String(segment.regionId)}@${segment.offset}`}
                  ref={index === damagedAt ? damagedRow : undefined}
                  className={index === damagedAt ? 'wal-warn' : undefined}
                  aria-current={index === damagedAt ? 'location' : undefined}
                >
                  <td>{index + 1}</td>
                  <td>
                    <RegionIdText region={segment.regionId} />
                  </td>
                  <td>
                    <EntryIdText id={segment.firstId} />–<EntryIdText id={segment.lastId} />
                  </td>
                  <td>{segment.entries}</td>
                  <td className="mono">{segment.offset}</td>
                  <td>{formatBytes(segment.length)}</td>
                  <td>
                    <Crc ok={segment.crcOk} />
                  </td>
                </tr>
              );
            })}
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
            {formatCount(view.segmentCount)}
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
              {counted(view.footer.count, 'segment')} <Crc ok={view.footer.crcOk} />
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

/**
 * What is damaged, by part: the segment (its place and region) when one fails its own check,
 * else the check the strict decode failed; the strict verdict beside it when it names another
 * check (a GreptimeDB whole-object CRC that a bad segment also breaks).
 */
function Headline({ view }: { view: DecodedObjectView }) {
  const segment = view.damagedSegment;
  const failure = view.failure;
  const detail = failure === null || failure.detail === '' ? '' : ` (${failure.detail})`;
  return (
    <p className="wal-warn" role="alert" aria-label="Damaged part">
      {segment === null
        ? `Damaged: ${failure?.check ?? ''}${detail}`
        : `Damaged: segment ${segment.index + 1} of region ${formatRegionId(segment.regionId)}, ${segment.check}`}
      {segment !== null && failure !== null && failure.check !== segment.check && (
        <span className="small">
          {' '}
          · the object's first failing check: {failure.check}
          {detail}
        </span>
      )}
    </p>
  );
}
