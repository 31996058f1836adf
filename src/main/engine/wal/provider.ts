/**
 * Providers and region ids as callers name them. A `Provider` is `{ prefix, regionId }`: the
 * log (by its prefix) and one region in it. Owns parsing and showing region ids and the one
 * check every store method runs on a provider (`WrongProvider`, naming both sides). It never
 * looks at storage or at the catalog.
 */
import { InvalidRegionIdError, WrongProviderError } from './errors';
import { formatRegionId, isRegionId, type RegionId } from './region-id';

export { formatRegionId, isRegionId, regionNumberOf, tableIdOf, type RegionId } from './region-id';

export interface Provider {
  /** The WAL prefix `<root>/nodes/<nodeId>/generations/<generation>`. */
  readonly prefix: string;
  readonly regionId: RegionId;
}

const U32_MAX = 0xffff_ffff;

function checkU32(text: string, what: string, value: number): bigint {
  if (!Number.isInteger(value) || value < 0 || value > U32_MAX) {
    throw new InvalidRegionIdError(text, `${what} ${value} is not a u32`);
  }
  return BigInt(value);
}

export function makeRegionId(tableId: number, regionNumber: number): RegionId {
  const text = `${tableId}:${regionNumber}`;
  return (
    (checkU32(text, 'table id', tableId) << 32n) | checkU32(text, 'region number', regionNumber)
  );
}

const SHOWN_FORM = /^(\d{1,10}):(\d{1,10})$/;
const RAW_FORM = /^\d{1,20}$/;

/** Reads `tableId:regionNumber` (the shown form) or the raw decimal u64. */
export function parseRegionId(text: string): RegionId {
  const trimmed = text.trim();
  const shown = SHOWN_FORM.exec(trimmed);
  if (shown !== null) return makeRegionId(Number(shown[1]), Number(shown[2]));
  if (RAW_FORM.test(trimmed)) {
    const raw = BigInt(trimmed);
    if (isRegionId(raw)) return raw;
    throw new InvalidRegionIdError(text, 'above the u64 range');
  }
  throw new InvalidRegionIdError(text, 'expected tableId:regionNumber or a decimal u64');
}

function describeProvider(prefix: string, region?: RegionId): string {
  return region === undefined
    ? `prefix ${prefix}`
    : `prefix ${prefix} region ${formatRegionId(region)}`;
}

/**
 * The region a provider names, after checking that it names this store's prefix (and, when a
 * region is passed beside it, that same region). Otherwise `WrongProvider`, naming both.
 */
export function regionOfProvider(
  storePrefix: string,
  provider: Provider,
  region?: RegionId,
): RegionId {
  if (provider.prefix !== storePrefix) {
    throw new WrongProviderError(
      describeProvider(storePrefix, region),
      describeProvider(provider.prefix, provider.regionId),
    );
  }
  if (region !== undefined && region !== provider.regionId) {
    throw new WrongProviderError(
      describeProvider(storePrefix, region),
      describeProvider(provider.prefix, provider.regionId),
    );
  }
  return provider.regionId;
}

export function formatProvider(provider: Provider): string {
  return describeProvider(provider.prefix, provider.regionId);
}
