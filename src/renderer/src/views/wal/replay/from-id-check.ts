/**
 * Whether a replay's start fits its region: a typed id must parse and be at most the region's
 * latest entry id; one below its first entry starts at the first, with a notice saying so.
 * Pure; says what is wrong in the words the form shows.
 */
import type { RegionRow } from '../../../../../shared/contract/wal';
import { formatEntryId, formatRegionId, parseEntryId } from '../../../../../shared/id-notation';

export type FromCheck =
  | { readonly ok: true; readonly id: bigint | null; readonly notice?: string }
  | { readonly ok: false; readonly problem: string };

/**
 * `text` checked against `region` (null: its facts are not known here, the server checks).
 * Empty text is the region's first entry.
 */
export function checkFromId(text: string, region: RegionRow | null): FromCheck {
  if (text.trim() === '') return { ok: true, id: null };
  const id = parseEntryId(text);
  if (id === null)
    return { ok: false, problem: 'From id: must be seq:position or a decimal u64 entry id' };
  if (region === null) return { ok: true, id };
  const name = formatRegionId(region.regionId);
  if (region.entries === 0)
    return { ok: false, problem: `Region ${name} holds no entries: clear From id to replay it` };
  // Nothing of the region is below its first entry: starting there replays what was asked for.
  if (id < region.firstId)
    return {
      ok: true,
      id: region.firstId,
      notice: `From id ${formatEntryId(id)} is before region ${name}'s first entry: the replay starts at its first entry ${formatEntryId(region.firstId)}`,
    };
  if (id > region.latestId)
    return {
      ok: false,
      problem: `From id ${formatEntryId(id)} is after region ${name}'s latest entry ${formatEntryId(region.latestId)}`,
    };
  return { ok: true, id };
}
