/** The WAL prefix every WAL view shows, picked once and shared through the ui-store. */
import { ErrorPanel } from '../../components/ErrorPanel';
import { Pending } from '../../components/Pending';
import { useSelectedPrefix } from './use-wal';

export function PrefixPicker() {
  const { prefix, prefixes, select } = useSelectedPrefix();
  if (prefixes.error)
    return <ErrorPanel error={prefixes.error} onRetry={() => void prefixes.refetch()} />;
  if (prefixes.isPending) return <Pending what="Listing WAL prefixes" />;
  if (prefixes.data?.length === 0)
    return (
      <p className="muted">
        No WAL prefix under this connection yet: write one with{' '}
        <span className="mono">cairn wal append</span>, or generate demo data in Connections.
      </p>
    );
  return (
    <label className="inline wal-prefix-picker">
      <span>WAL prefix</span>
      <select
        aria-label="WAL prefix"
        value={prefix ?? ''}
        onChange={(event) => select(event.target.value)}
        className="mono"
      >
        {prefixes.data?.map((entry) => (
          <option key={entry.prefix} value={entry.prefix}>
            {entry.prefix}
            {entry.openInApp ? ' (writer open here)' : ''}
          </option>
        ))}
      </select>
    </label>
  );
}
