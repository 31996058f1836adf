/** The id flags of `wal replay` and `wal obsolete`, read as the console writes them, or refused. */
import { parseRegionId, type RegionId } from '../../engine/wal/provider';
import { parseEntryId } from '../../../shared/id-notation';
import { UsageError } from '../usage-error';

/** An entry id flag, as `seq:position` (what the console shows) or the decimal u64. */
export function entryIdOf(flag: string, text: string): bigint {
  const id = parseEntryId(text);
  if (id === null)
    throw new UsageError(`${flag} must be an entry id (seq:position or decimal), got "${text}"`);
  return id;
}

/** A `--region` flag, as `tableId:regionNumber` or the decimal u64. */
export function regionOf(text: string): RegionId {
  try {
    return parseRegionId(text);
  } catch (error) {
    throw new UsageError(`--region: ${error instanceof Error ? error.message : String(error)}`);
  }
}
