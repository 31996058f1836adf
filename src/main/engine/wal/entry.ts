/**
 * The entry value callers hand to `appendBatch` and get back from `read`: a region's bytes and
 * an id. `makeEntry` only builds the value (after the provider check); the id it carries is
 * ignored by append, which assigns its own. Owns no state and never touches storage.
 */
import type { EntryId } from './ids';
import { regionOfProvider, type Provider } from './provider';
import type { RegionId } from './region-id';

export interface WalEntry {
  readonly provider: Provider;
  readonly regionId: RegionId;
  /** Ignored by append; the id a read found. */
  readonly id: EntryId;
  readonly data: Uint8Array;
}

/** What `appendBatch` returns: per region, the id of its last entry in this append. */
export interface AppendResult {
  readonly lastEntryIds: Map<RegionId, EntryId>;
}

/** `entry(data, id, region, provider)`: WrongProvider unless the provider names this store and region. */
export function makeEntry(
  storePrefix: string,
  data: Uint8Array,
  id: EntryId,
  region: RegionId,
  provider: Provider,
): WalEntry {
  regionOfProvider(storePrefix, provider, region);
  return { provider, regionId: region, id, data };
}
