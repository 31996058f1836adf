/**
 * What a scrub or a replay found wrong with the inspected WAL object, if anything: the check
 * that failed, when and by whom it was found, and the regions and entry ranges every replay
 * loses to it. Nothing is shown for an object with no finding.
 */
import { useApiQuery } from '../../api/hooks';
import { EntryIdText, RegionIdText } from '../../components/IdText';
import { RelativeTime } from '../../components/RelativeTime';

export function ObjectDamageNotice({
  connectionId,
  objectKey,
}: {
  connectionId: string;
  objectKey: string;
}) {
  const damage = useApiQuery('wal.damage.object', { connectionId, key: objectKey });
  const found = damage.data;
  if (found === undefined || found === null) return null;
  return (
    <div role="alert" aria-label="Object damage" className="wal-warn">
      <p>
        Found by a {found.source} <RelativeTime atMs={found.foundAtMs} />: {found.check} check
        failed{found.detail === '' ? '' : ` (${found.detail})`}
      </p>
      {found.ranges.length > 0 ? (
        <ul className="wal-damage-list small">
          {found.ranges.map((range) => (
            <li key={String(range.regionId)}>
              region <RegionIdText region={range.regionId} />: ids{' '}
              <EntryIdText id={range.firstId} />–<EntryIdText id={range.lastId} /> are skipped by
              every replay
            </li>
          ))}
        </ul>
      ) : (
        <p className="small">Not on the replayed chain: no replay reads it.</p>
      )}
    </div>
  );
}
