/**
 * One whole pass of the fleet overview, for a caller that waits for the table rather than
 * polling it (the CLI's `wal fleet`): the Overview's walk and reads, as many prefixes at a time
 * as the link's width while the walk goes on; a prefix that fails to read is a row with its
 * error, a walk that fails is thrown. Rows come back in prefix order. Reads only.
 */
import type { FleetRow } from '../../../../shared/contract/wal';
import { fanOutWhilePaging, type IoSlots } from '../../../engine/objectio/link';
import type { FleetSource } from './fleet-reader';
import { failedFleetRow, pendingFleetRow } from './fleet-row';
import { FoundChannel } from './found-channel';

export interface FleetTable {
  readonly rows: readonly FleetRow[];
  /** The walk reached one of its bounds: more prefixes may exist. */
  readonly truncated: boolean;
}

export async function readFleetOnce(
  source: FleetSource,
  slots: Pick<IoSlots, 'width' | 'noteWork'>,
): Promise<FleetTable> {
  const found = new FoundChannel<string>();
  const walked = source.walk((prefix) => found.push(prefix)).finally(() => found.close());
  const readRow = (prefix: string): Promise<FleetRow> =>
    source
      .read(prefix, 0)
      .catch((error: unknown) =>
        failedFleetRow(pendingFleetRow(prefix, source.held(prefix)), error),
      );
  const [{ truncated }, { results }] = await Promise.all([
    walked,
    fanOutWhilePaging(found, slots, readRow),
  ]);
  return { rows: [...results].sort((a, b) => a.prefix.localeCompare(b.prefix)), truncated };
}
