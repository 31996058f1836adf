/**
 * How far a replay is, 0..1: ids reached of the ids between its start and the region's latest
 * id (ids are not dense across objects, so the id range stands in for the entries). Counted
 * from the start id, so a replay from the middle begins empty, not half full.
 */
export function replayFraction(progress: {
  readonly fromId: bigint;
  readonly lastId: bigint;
  readonly latestId: bigint;
}): number {
  const span = progress.latestId - progress.fromId;
  if (span <= 0n) return progress.lastId >= progress.latestId ? 1 : 0;
  if (progress.lastId < progress.fromId) return 0;
  const reached = progress.lastId - progress.fromId;
  return Math.min(1, Number((reached * 1000n) / span) / 1000);
}
