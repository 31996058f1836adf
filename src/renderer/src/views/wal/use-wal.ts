/**
 * The WAL views' shared server state: the connection's access mode, the selected prefix (kept
 * in the ui-store and corrected when the prefix list changes), the writer this app holds on
 * it - kept live from `wal.writer.state` events - and the load samples of the chart (bounded).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import type { LoadSample, WriterView } from '../../../../shared/contract/wal';
import { api } from '../../api/client';
import { useApiQuery } from '../../api/hooks';
import { useToasts } from '../../components/Toasts';
import { useUiStore } from '../../state/ui-store';

export function useOperator(connectionId: string): boolean {
  const connections = useApiQuery('connections.list', {});
  return connections.data?.find((connection) => connection.id === connectionId)?.operator ?? false;
}

/** Every view using the selection notices a prefix gone; the toast says it once. */
let lastGone: { prefix: string; atMs: number } | null = null;

function announceGone(prefix: string): void {
  const now = Date.now();
  if (lastGone !== null && lastGone.prefix === prefix && now - lastGone.atMs < 10_000) return;
  lastGone = { prefix, atMs: now };
  useToasts.getState().push({
    tone: 'error',
    title: `${prefix} is gone`,
    description:
      'The store no longer holds this prefix (deleted since it was read). Showing the first prefix instead.',
  });
}

/** The connection's prefixes and the selected one (the first when none or a stale one is selected). */
export function useSelectedPrefix() {
  const connectionId = useUiStore((state) => state.connectionId);
  const selected = useUiStore((state) => state.walPrefix);
  const select = useUiStore((state) => state.selectWalPrefix);
  const prefixes = useApiQuery('wal.prefixes', { connectionId });
  const known = useMemo(() => prefixes.data?.map((entry) => entry.prefix) ?? [], [prefixes.data]);
  // A stale selection (another connection, a prefix gone) falls back to the first prefix,
  // which the place (URL) then names.
  const prefix = selected !== null && known.includes(selected) ? selected : (known[0] ?? null);
  const settle = useUiStore((state) => state.settle);
  const listedBefore = useRef<readonly string[]>([]);
  useEffect(() => {
    if (prefixes.data === undefined) return;
    // A prefix shown a refresh ago and gone now was deleted meanwhile: say so, never show it stale.
    if (selected !== null && listedBefore.current.includes(selected) && !known.includes(selected))
      announceGone(selected);
    listedBefore.current = known;
  }, [prefixes.data, known, selected]);
  useEffect(() => {
    if (prefix !== null && prefix !== selected) settle({ walPrefix: prefix });
  }, [prefix, selected, settle]);
  return { connectionId, prefix, prefixes, select };
}

/** The writer this app holds on the prefix, updated by events (at most 10 a second). */
export function useLiveWriter(connectionId: string, prefix: string | null): WriterView | null {
  const queryClient = useQueryClient();
  const input = useMemo(() => ({ connectionId, prefix: prefix ?? '' }), [connectionId, prefix]);
  const writer = useApiQuery('wal.writer.state', input, { enabled: prefix !== null });
  useEffect(
    () =>
      api.onEvent((event) => {
        if (
          event.type !== 'wal.writer.state' ||
          event.connectionId !== input.connectionId ||
          event.prefix !== input.prefix
        )
          return;
        const wasOpen = queryClient.getQueryData(['wal.writer.state', input]) != null;
        queryClient.setQueryData(['wal.writer.state', input], event.writer);
        if (wasOpen !== (event.writer !== null))
          void queryClient.invalidateQueries({ queryKey: ['wal.prefixes'] });
      }),
    [queryClient, input],
  );
  return prefix === null ? null : (writer.data ?? null);
}

/** Samples of the in-app load on the prefix, newest last, at most `keep`. */
export function useLoadSamples(
  connectionId: string,
  prefix: string | null,
  keep = 240,
): { samples: LoadSample[]; running: boolean } {
  const key = `${connectionId}\n${prefix ?? ''}`;
  const [state, setState] = useState<{ key: string; samples: LoadSample[]; running: boolean }>({
    key,
    samples: [],
    running: false,
  });
  useEffect(
    () =>
      api.onEvent((event) => {
        if (event.type !== 'wal.load.sample' || `${event.connectionId}\n${event.prefix}` !== key)
          return;
        setState((previous) => ({
          key,
          samples: [...(previous.key === key ? previous.samples : []), event.sample].slice(-keep),
          running: event.running,
        }));
      }),
    [key, keep],
  );
  // Samples of another prefix (before a switch) are not this one's.
  return state.key === key ? state : { samples: [], running: false };
}
