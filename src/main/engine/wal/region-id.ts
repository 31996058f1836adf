/**
 * The numeric layout of a RegionId: a u64 `tableId << 32 | regionNumber`, shown as
 * `tableId:regionNumber`. A leaf with no imports, so the error catalogue can show regions
 * the same way everything else does; parsing user text (which can fail) lives in
 * `provider.ts`.
 */

export type RegionId = bigint;

const U32_LIMIT = 1n << 32n;
const REGION_NUMBER_MASK = U32_LIMIT - 1n;
const U64_LIMIT = 1n << 64n;

export function isRegionId(value: bigint): boolean {
  return value >= 0n && value < U64_LIMIT;
}

export function tableIdOf(region: RegionId): number {
  return Number(region >> 32n);
}

export function regionNumberOf(region: RegionId): number {
  return Number(region & REGION_NUMBER_MASK);
}

/** The `tableId:regionNumber` form every message and view uses. */
export function formatRegionId(region: RegionId): string {
  return `${region >> 32n}:${region & REGION_NUMBER_MASK}`;
}
