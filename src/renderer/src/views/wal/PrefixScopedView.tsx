/**
 * The frame of every view that works on one WAL prefix: its title, the prefix picker, and
 * the format badge of a GreptimeDB prefix, and the body for the selected (connection, prefix), remounted when either changes so no state
 * of one prefix leaks into another.
 */
import type { ComponentType } from 'react';
import type { WalFormat } from '../../../../shared/contract/wal';
import { FormatBadge } from './FormatBadge';
import { PrefixPicker } from './PrefixPicker';
import { SearchThisPrefix } from './search/SearchThisPrefix';
import { useSelectedPrefix } from './use-wal';

export interface PrefixBodyProps {
  readonly connectionId: string;
  readonly prefix: string;
  /** Null while the prefix holds no object yet. */
  readonly format: WalFormat | null;
}

export function PrefixScopedView({
  id,
  title,
  Body,
  searchable = false,
}: {
  id: string;
  title: string;
  Body: ComponentType<PrefixBodyProps>;
  /** Offers "Search this prefix" beside the picker. */
  searchable?: boolean;
}) {
  const { connectionId, prefix, prefixes } = useSelectedPrefix();
  const format = prefixes.data?.find((entry) => entry.prefix === prefix)?.format ?? null;
  return (
    <section aria-labelledby={`${id}-title`} className="view">
      <header className="view-header">
        <h1 id={`${id}-title`}>{title}</h1>
        <PrefixPicker />
        <FormatBadge format={format} />
        {searchable && prefix !== null && <SearchThisPrefix prefix={prefix} />}
      </header>
      {prefix !== null && (
        <Body
          key={`${connectionId}\n${prefix}`}
          connectionId={connectionId}
          prefix={prefix}
          format={format}
        />
      )}
    </section>
  );
}
