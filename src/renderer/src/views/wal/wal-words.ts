/** How the WAL views show ids, regions, ages and seal records. Pure. */
import { formatWalRegion } from '../../../../shared/contract/wal';
import type { SealRecordView } from '../../../../shared/contract/wal';

export { formatWalRegion as regionName };

/** An entry id with its object (`seq.position`), the two facts an SRE reads from it. */
export function entryIdText(id: bigint): string {
  if (id === 0n) return 'none';
  return `${id} (seq ${id >> 20n} · #${id & ((1n << 20n) - 1n)})`;
}

export function ageText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 7_200_000) return `${Math.round(ms / 60_000)} min`;
  return `${Math.round(ms / 3_600_000)} h`;
}

export function sealEpochs(record: SealRecordView): string {
  return record.firstEpoch === record.lastEpoch
    ? String(record.lastEpoch)
    : `${record.firstEpoch}–${record.lastEpoch}`;
}

/** The last path parts of a prefix (`node 0 · gen 0`), for compact labels. */
export function prefixLabel(prefix: string): string {
  const match = /nodes\/(\d+)\/generations\/(\d+)$/.exec(prefix);
  return match ? `node ${match[1]} · generation ${match[2]}` : prefix;
}
