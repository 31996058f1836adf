/** The fleet filter bar: free text over every column, the format, and "problems only". */
import type { FleetRow } from '../../../../shared/contract/wal';
import { hasProblem, searchText } from './fleet-columns';

export interface FleetFilter {
  readonly text: string;
  readonly format: 'any' | 'cairn-v1' | 'greptimedb-v1';
  readonly problemsOnly: boolean;
}

export const NO_FLEET_FILTER: FleetFilter = { text: '', format: 'any', problemsOnly: false };

export function filterRows(rows: readonly FleetRow[], filter: FleetFilter): FleetRow[] {
  const needle = filter.text.trim().toLowerCase();
  return rows.filter(
    (row) =>
      (filter.format === 'any' || row.format === filter.format) &&
      (!filter.problemsOnly || hasProblem(row)) &&
      (needle === '' || searchText(row).includes(needle)),
  );
}

export function FleetFilters({
  filter,
  onChange,
}: {
  filter: FleetFilter;
  onChange: (next: FleetFilter) => void;
}) {
  return (
    <div role="search" aria-label="Filter prefixes" className="inline fleet-filters">
      <label className="inline">
        Filter{' '}
        <input
          type="search"
          value={filter.text}
          placeholder="prefix, state, error code…"
          onChange={(event) => onChange({ ...filter, text: event.target.value })}
        />
      </label>
      <label className="inline">
        Format{' '}
        <select
          value={filter.format}
          onChange={(event) =>
            onChange({ ...filter, format: event.target.value as FleetFilter['format'] })
          }
        >
          <option value="any">any</option>
          <option value="cairn-v1">Cairn v1</option>
          <option value="greptimedb-v1">GreptimeDB v1</option>
        </select>
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={filter.problemsOnly}
          onChange={(event) => onChange({ ...filter, problemsOnly: event.target.checked })}
        />{' '}
        Problems only (failures, damage, orphans, stale)
      </label>
    </div>
  );
}
