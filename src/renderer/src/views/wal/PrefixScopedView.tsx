/**
 * The frame of every view that works on one WAL prefix: its title, the prefix picker, and
 * the body for the selected (connection, prefix), remounted when either changes so no state
 * of one prefix leaks into another.
 */
import type { ComponentType } from 'react';
import { PrefixPicker } from './PrefixPicker';
import { useSelectedPrefix } from './use-wal';

export interface PrefixBodyProps {
  readonly connectionId: string;
  readonly prefix: string;
}

export function PrefixScopedView({
  id,
  title,
  Body,
}: {
  id: string;
  title: string;
  Body: ComponentType<PrefixBodyProps>;
}) {
  const { connectionId, prefix } = useSelectedPrefix();
  return (
    <section aria-labelledby={`${id}-title`} className="view">
      <header className="view-header">
        <h1 id={`${id}-title`}>{title}</h1>
        <PrefixPicker />
      </header>
      {prefix !== null && (
        <Body key={`${connectionId}\n${prefix}`} connectionId={connectionId} prefix={prefix} />
      )}
    </section>
  );
}
