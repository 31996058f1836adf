/** The filter bar: state, origin, owner node, shard, and free text. */
import type { ShardInfo } from '../../../../shared/contract/namespaces';
import { shardLabel } from '../../../../shared/contract/namespaces';
import type { NamespaceFilter } from './namespace-filters';

export function NamespaceFilters({
  filter,
  onChange,
  shards,
}: {
  filter: NamespaceFilter;
  onChange: (next: NamespaceFilter) => void;
  shards: readonly ShardInfo[];
}) {
  const nodes = [
    ...new Set(shards.flatMap((info) => (info.owner ? [info.owner.nodeId] : []))),
  ].sort((a, b) => a - b);
  const set = <K extends keyof NamespaceFilter>(field: K, value: NamespaceFilter[K]) =>
    onChange({ ...filter, [field]: value });
  return (
    <div
      role="search"
      aria-label="Filter namespaces"
      className="inline"
      style={{ gap: 12, flexWrap: 'wrap', marginBottom: 12 }}
    >
      <label className="inline">
        State{' '}
        <select
          value={filter.state}
          onChange={(event) => set('state', event.target.value as NamespaceFilter['state'])}
        >
          <option value="any">any</option>
          <option value="active">active</option>
          <option value="deprecated">deprecated</option>
        </select>
      </label>
      <label className="inline">
        Origin{' '}
        <select
          value={filter.origin}
          onChange={(event) => set('origin', event.target.value as NamespaceFilter['origin'])}
        >
          <option value="any">any</option>
          <option value="minted">minted</option>
          <option value="explicit">explicit</option>
        </select>
      </label>
      <label className="inline">
        Owner{' '}
        <select value={filter.owner} onChange={(event) => set('owner', event.target.value)}>
          <option value="any">any</option>
          {nodes.map((node) => (
            <option key={node} value={String(node)}>
              node {node}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        Shard{' '}
        <select value={filter.shard} onChange={(event) => set('shard', event.target.value)}>
          <option value="any">any</option>
          {shards.map((info) => (
            <option key={info.shard} value={String(info.shard)}>
              {shardLabel(info.shard)}
            </option>
          ))}
        </select>
      </label>
      <label className="inline">
        <span className="sr-only">Search namespaces</span>
        <input
          type="search"
          aria-label="Search namespaces"
          placeholder="Search name, placement, config"
          value={filter.text}
          onChange={(event) => set('text', event.target.value)}
        />
      </label>
    </div>
  );
}
