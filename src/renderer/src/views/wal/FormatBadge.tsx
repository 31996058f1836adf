/** The badge every view of a GreptimeDB prefix carries: Cairn reads that format and never writes it. */
import type { WalFormat } from '../../../../shared/contract/wal';

export const GREPTIMEDB_BADGE_TITLE =
  "GreptimeDB's own object format (GTWALOBJ v1): its datanode owns the prefix; Cairn reads it and never writes, obsoletes or deletes there.";

export function FormatBadge({ format }: { format: WalFormat | null | undefined }) {
  if (format !== 'greptimedb-v1') return null;
  return (
    <span className="badge warn" title={GREPTIMEDB_BADGE_TITLE}>
      GreptimeDB v1 · read-only
    </span>
  );
}
