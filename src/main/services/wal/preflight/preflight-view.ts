/**
 * The console's preflight of a prefix: the connection's store and link, a GreptimeDB prefix
 * only (Cairn's own prefixes open by Cairn's rules: `InvalidPrefix` names why), the report in
 * the contract's shape with each region's line. Reads only.
 */
import type { PreflightView } from '../../../../shared/contract/wal-preflight';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { InvalidPrefixError } from '../../../engine/wal/errors';
import { locatePrefix } from '../wal-locate';
import { preflightPrefix } from './preflight';
import { preflightLine } from './preflight-lines';

export interface PreflightDeps {
  readonly connections: {
    io(connectionId: string): Promise<{ io: ObjectIo; root: string }>;
  };
}

export async function preflightView(
  deps: PreflightDeps,
  connectionId: string,
  prefix: string,
): Promise<PreflightView> {
  const { io, root } = await deps.connections.io(connectionId);
  const at = await locatePrefix(io, root, connectionId, prefix);
  if (at.format !== 'greptimedb-v1')
    throw new InvalidPrefixError(
      at.prefix,
      "preflight reads GreptimeDB's open; this prefix is Cairn's",
    );
  const report = await preflightPrefix(at.io, at.prefix);
  return {
    prefix: report.prefix,
    layout: report.layout,
    failure: report.failure,
    allOpen: report.allOpen,
    regions: report.regions.map((region) => ({
      regionId: region.regionId,
      entries: region.entries,
      verdict: region.open.kind,
      holes: [...region.holes],
      failsOnDamageAt: region.failsOnDamageAt,
      line: preflightLine(region),
    })),
  };
}
