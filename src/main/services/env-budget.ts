/**
 * A memory or disk budget set in MiB by an environment variable (`CAIRN_READ_MODEL_BUDGET_MIB`,
 * `CAIRN_INDEX_CACHE_MIB`): a positive number, else the default. Reads nothing else.
 */
export function budgetFromMib(value: string | undefined, defaultBytes: number): number {
  const mib = Number(value);
  return value !== undefined && Number.isFinite(mib) && mib > 0 ? mib * 1024 * 1024 : defaultBytes;
}
