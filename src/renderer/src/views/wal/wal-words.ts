/** How the WAL views show ids, regions, ages and seal records. Pure. */
import { formatWalRegion } from '../../../../shared/contract/wal';
import type { SealRecordView } from '../../../../shared/contract/wal';

export { formatWalRegion as regionName };
export { ageText } from '../../../../shared/lag-text';

/** An entry id with its object (`seq.position`), the two facts an SRE reads from it. */
export function entryIdText(id: bigint): string {
  if (id === 0n) return 'none';
  return `${id} (seq ${id >> 20n} · #${id & ((1n << 20n) - 1n)})`;
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
