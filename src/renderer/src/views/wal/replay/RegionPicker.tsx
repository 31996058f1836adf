/**
 * Replay's region and start pickers. The region is picked from the prefix's regions, each
 * with its entry count, listed a page at a time ("List more"); a region a link names that is
 * not listed stays shown, marked as such. The start is typed (`seq:position` or a decimal) or
 * set to the region's first or latest entry with one click, and checked against the region.
 */
import type { RegionRow } from '../../../../../shared/contract/wal';
import { formatEntryId } from '../../../../../shared/id-notation';
import { regionName } from '../wal-words';
import type { RegionChoices } from './use-region-choices';
import { counted } from '../../../../../shared/plural';
import { formatCount } from '../../format';

export function RegionPicker({
  choices,
  value,
  onChange,
}: {
  choices: RegionChoices;
  value: string | null;
  onChange: (region: string) => void;
}) {
  const listed = value !== null && choices.rows.some((row) => regionName(row.regionId) === value);
  return (
    <>
      <label>
        Region{' '}
        <select
          aria-label="Region"
          className="mono"
          value={value ?? ''}
          onChange={(event) => onChange(event.target.value)}
        >
          {value === null && (
            <option value="" disabled>
              {choices.pending ? 'Listing regions…' : 'No region'}
            </option>
          )}
          {value !== null && !listed && (
            <option value={value}>
              {value} ({choices.complete ? 'not in this prefix' : 'not listed yet'})
            </option>
          )}
          {choices.rows.map((row) => (
            <option key={String(row.regionId)} value={regionName(row.regionId)}>
              {regionName(row.regionId)} · {counted(row.entries, 'entry')}
            </option>
          ))}
        </select>
      </label>
      {!choices.complete && choices.total !== null && (
        <button type="button" onClick={choices.more}>
          List more regions ({formatCount(choices.rows.length)} of {formatCount(choices.total)})
        </button>
      )}
    </>
  );
}

export function FromIdPicker({
  value,
  region,
  onChange,
}: {
  value: string | null;
  region: RegionRow | null;
  onChange: (from: string | null) => void;
}) {
  const hasEntries = region !== null && region.entries > 0;
  return (
    <>
      <label>
        From id{' '}
        <input
          name="from"
          className="mono"
          value={value ?? ''}
          placeholder={hasEntries ? formatEntryId(region.firstId) : '0:1'}
          title="seq:position or a decimal u64; empty: the region's first entry"
          aria-describedby="replay-from-range"
          onChange={(event) => onChange(event.target.value === '' ? null : event.target.value)}
          autoComplete="off"
        />
      </label>
      <span id="replay-from-range" className="small muted wal-replay-range">
        {hasEntries ? (
          <>
            ids <IdChoice label="first" id={region.firstId} onChoose={onChange} /> to{' '}
            <IdChoice label="latest" id={region.latestId} onChoose={onChange} />
          </>
        ) : region !== null ? (
          'no entries'
        ) : null}
      </span>
    </>
  );
}

/** One end of the region's ids, a click away from being the start. */
function IdChoice({
  label,
  id,
  onChoose,
}: {
  label: string;
  id: bigint;
  onChoose: (from: string) => void;
}) {
  return (
    <button
      type="button"
      className="link mono"
      aria-label={`From the ${label} entry ${formatEntryId(id)}`}
      onClick={() => onChoose(formatEntryId(id))}
    >
      {formatEntryId(id)}
    </button>
  );
}
