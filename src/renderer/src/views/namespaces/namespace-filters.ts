/**
 * What the Namespaces table shows: the filters (state, origin, owner node, shard, text) and
 * the sort, as pure functions over the listed records and the shards' owners. Never fetches.
 */
import type { ListedNamespace, ShardInfo } from '../../../../shared/contract/namespaces';

export type SortKey = 'createdAt' | 'name' | 'lastSeen';
export type SortDirection = 'ascending' | 'descending';

export interface NamespaceFilter {
  readonly state: 'any' | 'active' | 'deprecated';
  readonly origin: 'any' | 'minted' | 'explicit';
  /** An owner node id, or 'any'. */
  readonly owner: string;
  /** A shard number, or 'any'. */
  readonly shard: string;
  readonly text: string;
}

export const NO_FILTER: NamespaceFilter = {
  state: 'any',
  origin: 'any',
  owner: 'any',
  shard: 'any',
  text: '',
};

/** Owner node of each shard (absent: nobody has written the shard). */
export function ownersByShard(
  shards: readonly ShardInfo[] | undefined,
): Map<number, ShardInfo['owner']> {
  return new Map((shards ?? []).map((info) => [info.shard, info.owner]));
}

/** Text search over the name, the placement and the config (as JSON), case-insensitive. */
function matchesText(record: ListedNamespace, text: string): boolean {
  const needle = text.trim().toLowerCase();
  if (needle === '') return true;
  const haystack = [
    record.name,
    JSON.stringify(record.placement ?? {}),
    JSON.stringify(record.config),
  ]
    .join(' ')
    .toLowerCase();
  return haystack.includes(needle);
}

export function filterNamespaces(
  records: readonly ListedNamespace[],
  filter: NamespaceFilter,
  owners: ReadonlyMap<number, ShardInfo['owner']>,
): ListedNamespace[] {
  return records.filter(
    (record) =>
      (filter.state === 'any' || record.state === filter.state) &&
      (filter.origin === 'any' || record.origin === filter.origin) &&
      (filter.shard === 'any' || String(record.shard) === filter.shard) &&
      (filter.owner === 'any' || String(owners.get(record.shard)?.nodeId) === filter.owner) &&
      matchesText(record, filter.text),
  );
}

/** Stable: ties keep the registry's order (createdAt, then name). */
export function sortNamespaces(
  records: readonly ListedNamespace[],
  key: SortKey,
  direction: SortDirection,
): ListedNamespace[] {
  const sign = direction === 'ascending' ? 1 : -1;
  const compare = (a: ListedNamespace, b: ListedNamespace): number => {
    if (key === 'name') return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
    return a[key] - b[key];
  };
  return records
    .map((record, index) => ({ record, index }))
    .sort((a, b) => sign * compare(a.record, b.record) || a.index - b.index)
    .map(({ record }) => record);
}

export function formatUtc(millis: number): string {
  return new Date(millis)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, 'Z');
}

export function describePlacement(placement: ListedNamespace['placement']): string {
  if (placement === null) return '—';
  const parts = Object.entries(placement).map(([field, value]) =>
    field === 'pinned' ? (value ? 'pinned' : 'not pinned') : `${field} ${String(value)}`,
  );
  return parts.length === 0 ? '(empty)' : parts.join(', ');
}
