/**
 * The Namespaces view (console.md, view 6): the registry's records with filters and a sort, a
 * detail drawer, and - in operator mode only - register, create explicit, set placement,
 * deprecate and take shard ownership. A NotOwner is explained, never hidden. Read-only shows
 * no mutation control (and the main process refuses them anyway).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { useToasts } from '../components/Toasts';
import { useUiStore } from '../state/ui-store';
import { DamagedShards } from './namespaces/DamagedShards';
import { CreateExplicitDialog } from './namespaces/CreateExplicitDialog';
import { NamespaceDrawer } from './namespaces/NamespaceDrawer';
import { NamespaceErrorNotice } from './namespaces/NamespaceErrorNotice';
import {
  filterNamespaces,
  NO_FILTER,
  ownersByShard,
  sortNamespaces,
  type SortDirection,
  type SortKey,
} from './namespaces/namespace-filters';
import { NamespaceFilters } from './namespaces/NamespaceFilters';
import { NAMESPACE_QUERIES } from './namespaces/namespace-queries';
import { NamespaceTable } from './namespaces/NamespaceTable';
import { RegisterDialog } from './namespaces/RegisterDialog';
import { TakeOwnershipDialog } from './namespaces/TakeOwnershipDialog';
import { Pending } from '../components/Pending';
import { counted } from '../../../shared/plural';

/** Refresh on a record minted anywhere in this app, and say so. */
function useCreatedAnnouncements(connectionId: string): void {
  const queryClient = useQueryClient();
  const push = useToasts((state) => state.push);
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'namespaces.created' || event.connectionId !== connectionId) return;
        for (const query of NAMESPACE_QUERIES)
          void queryClient.invalidateQueries({ queryKey: [query] });
        push({
          tone: 'ok',
          title: `Namespace "${event.record.name}" created`,
          description: `Origin ${event.record.origin}.`,
        });
      }),
    [connectionId, queryClient, push],
  );
}

export function NamespacesView() {
  const connectionId = useUiStore((state) => state.connectionId);
  const connections = useApiQuery('connections.list', {});
  const operator =
    connections.data?.find((connection) => connection.id === connectionId)?.operator === true;
  const records = useApiQuery('namespaces.list', { connectionId });
  const shards = useApiQuery('namespaces.shards', { connectionId });
  const [filter, setFilter] = useState(NO_FILTER);
  const [sort, setSort] = useState<{ key: SortKey; direction: SortDirection }>({
    key: 'createdAt',
    direction: 'ascending',
  });
  // The record open in the drawer is part of the place (URL).
  const selected = useUiStore((state) => state.namespace);
  const select = useUiStore((state) => state.select);
  const setSelected = (namespace: string | null) => select({ namespace });
  const [takeShard, setTakeShard] = useState<number | null>(null);
  const queryClient = useQueryClient();
  useCreatedAnnouncements(connectionId);
  // The confirmation must name the shard's owner as it is now, not as the page last saw it.
  const offerTakeOwnership = (shard: number) => {
    void queryClient.invalidateQueries({ queryKey: ['namespaces.shards'] });
    setTakeShard(shard);
  };

  const owners = useMemo(() => ownersByShard(shards.data), [shards.data]);
  const shown = useMemo(
    () =>
      sortNamespaces(
        filterNamespaces(records.data ?? [], filter, owners),
        sort.key,
        sort.direction,
      ),
    [records.data, filter, owners, sort],
  );
  const record = records.data?.find((candidate) => candidate.name === selected);
  const onSort = (key: SortKey) =>
    setSort((current) => ({
      key,
      direction:
        current.key === key && current.direction === 'ascending' ? 'descending' : 'ascending',
    }));
  // Only an operator may act; a read-only connection never offers to take a shard.
  const onTakeOwnership = operator ? offerTakeOwnership : undefined;

  return (
    <section aria-labelledby="namespaces-title" className="view">
      <header className="view-header">
        <h1 id="namespaces-title">Namespaces</h1>
        {operator ? (
          <div className="inline" role="group" aria-label="Registry actions" style={{ gap: 8 }}>
            <RegisterDialog connectionId={connectionId} onTakeOwnership={offerTakeOwnership} />
            <CreateExplicitDialog
              connectionId={connectionId}
              onTakeOwnership={offerTakeOwnership}
            />
          </div>
        ) : (
          <p className="muted small">
            Read-only: switch this connection to operator mode to change the registry.
          </p>
        )}
      </header>
      <DamagedShards shards={shards.data ?? []} />
      <NamespaceFilters filter={filter} onChange={setFilter} shards={shards.data ?? []} />
      {records.error && (
        <NamespaceErrorNotice
          error={records.error}
          onRetry={() => void records.refetch()}
          onTakeOwnership={onTakeOwnership}
        />
      )}
      {shards.error && (
        <NamespaceErrorNotice error={shards.error} onRetry={() => void shards.refetch()} />
      )}
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: record ? '1fr auto' : '1fr',
          gap: 12,
          alignItems: 'start',
        }}
      >
        <div>
          <NamespaceTable
            records={shown}
            owners={owners}
            sort={sort}
            onSort={onSort}
            selected={selected}
            onSelect={setSelected}
          />
          {records.isPending ? (
            <Pending what="Reading the registry" />
          ) : (
            <p className="muted small" role="status" aria-label="Namespace count">
              {`${shown.length} of ${counted(records.data?.length ?? 0, 'namespace')}`}
            </p>
          )}
        </div>
        {record && (
          <NamespaceDrawer
            connectionId={connectionId}
            record={record}
            owner={shards.data ? (owners.get(record.shard) ?? null) : undefined}
            operator={operator}
            onClose={() => setSelected(null)}
            onTakeOwnership={offerTakeOwnership}
          />
        )}
      </div>
      {operator && (
        <TakeOwnershipDialog
          connectionId={connectionId}
          shard={takeShard}
          owner={takeShard === null ? undefined : owners.get(takeShard)}
          onClose={() => setTakeShard(null)}
        />
      )}
    </section>
  );
}
