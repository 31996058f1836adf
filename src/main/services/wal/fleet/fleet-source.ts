/**
 * What the fleet overview of one connection reads through: the walk of the connection's root
 * (Cairn's layout counts only under its WAL root, GreptimeDB's anywhere), each prefix's row
 * from its read model, and whether a writer of this app holds it.
 */
import { slotsOf } from '../../../engine/objectio/link';
import type { ObjectIo } from '../../../engine/objectio/object-io';
import { walkPrefixes } from '../../../engine/wal-read/discover';
import { parseCairnPrefix } from '../../../engine/wal-read/target';
import type { ObjectDamage } from '../../../../shared/contract/wal-damage';
import type { PrefixSnapshot } from '../read-model/prefix-model';
import type { ReadModels } from '../read-model/read-models';
import type { CoverageView } from '../../../../shared/contract/wal-coverage';
import type { PrefixCoverage } from '../scrub/coverage-book';
import { DEFAULT_VERIFY_MAX_AGE_MS } from '../scrub/coverage-view';
import { slotOf, type Located } from '../wal-locate';
import { walRootOf } from '../wal-target';
import type { FleetSource } from './fleet-reader';
import type { FleetRow } from '../../../../shared/contract/wal';
import { fleetRowOf } from './fleet-row';

/** A prefix the console lists under `root`: GreptimeDB's anywhere, Cairn's under the WAL root. */
export function isListedPrefix(root: string, prefix: string): boolean {
  return parseCairnPrefix(prefix) === null || prefix.startsWith(`${walRootOf(root)}/nodes/`);
}

export interface FleetDeps {
  io(connectionId: string): Promise<{ io: ObjectIo; root: string }>;
  locate(connectionId: string, prefix: string): Promise<Located>;
  readonly models: ReadModels;
  /** Whether a writer of this app holds the slot. */
  held(slot: string): boolean;
  /** What scrubs and replays found damaged in the prefix (none when absent). */
  damage?(at: Located, snapshot: PrefixSnapshot): Promise<ObjectDamage[]>;
  /** What verifies read whole of the prefix (unknown when absent: never `healthy`). */
  coverage?(at: Located): Promise<PrefixCoverage>;
  /** The age beyond which a verify no longer counts (default 24 h). */
  readonly verifyMaxAgeMs?: number;
  /** Told each row's coverage (the background scrub queues what is not verified). */
  noteCoverage?(at: Located, coverage: CoverageView): void;
}

export function fleetSourceOf(connectionId: string, deps: FleetDeps): FleetSource {
  return {
    walk: async (onFound, width) => {
      const { io, root } = await deps.io(connectionId);
      const found = (prefix: string): void => {
        if (isListedPrefix(root, prefix)) onFound(prefix);
      };
      return walkPrefixes(io, root, found, undefined, slotsOf(io), width);
    },
    read: async (prefix, maxAgeMs) => {
      const at = await deps.locate(connectionId, prefix);
      const row = await fleetRowAt(at, deps, maxAgeMs);
      if (row.coverage !== null) deps.noteCoverage?.(at, row.coverage);
      return row;
    },
    held: (prefix) => deps.held(slotOf(connectionId, prefix)),
  };
}

/**
 * The located prefix's row from its read model (at most `maxAgeMs` old, or the `snapshot` a
 * view just read), damage and coverage.
 */
export async function fleetRowAt(
  at: Located,
  deps: FleetDeps,
  maxAgeMs: number,
  read?: PrefixSnapshot,
): Promise<FleetRow> {
  const snapshot = read ?? (await deps.models.read(at, maxAgeMs));
  const damage = (await deps.damage?.(at, snapshot)) ?? [];
  const coverage = await deps.coverage?.(at);
  return fleetRowOf(
    at.prefix,
    snapshot,
    deps.held(at.slot),
    damage,
    coverage === undefined
      ? null
      : { coverage, maxAgeMs: deps.verifyMaxAgeMs ?? DEFAULT_VERIFY_MAX_AGE_MS },
  );
}
