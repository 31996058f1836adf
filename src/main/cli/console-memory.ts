/**
 * The console's memory, for the CLI: the data directory's damage ledger (what the console's
 * scrubs and replays found, and what every verify covered - `DATA_DIR/damage-ledger.json`),
 * opened for the store the command's flags name. The ledger keys findings by the console's
 * connection id, so the store is matched to a saved connection (the embedded store, a local
 * directory by path, S3 by endpoint and bucket); a store the console does not know is kept
 * under a name of the CLI's own (`cli:...`), so repeated CLI runs still share what they learnt.
 */
import { resolve } from 'node:path';
import { ConnectionStore, type SavedProfile } from '../services/connections/connection-store';
import { embeddedStoreDir } from '../services/app-paths';
import { catalogOfSnapshot } from '../services/wal/scrub/damage-views';
import { DamageFindings } from '../services/wal/scrub/damage-findings';
import { LedgerFile } from '../services/wal/scrub/ledger-file';
import type { FleetDeps } from '../services/wal/fleet/fleet-source';
import { ReadModels } from '../services/wal/read-model/read-models';
import { locatePrefix } from '../services/wal/wal-locate';
import type { OpenedConnection, ConnectionOptions } from './connection-flags';
import { dataDirOf } from './data-dir-flag';

export interface ConsoleMemory {
  /** The console's connection this store is (or the CLI's own name for it). */
  readonly connectionId: string;
  /** Whether the console has this store as a saved connection. */
  readonly known: boolean;
  readonly ledgerPath: string;
  readonly findings: DamageFindings;
  /** The fleet's reads with the ledger's damage and coverage. */
  readonly fleet: FleetDeps;
}

function sameEndpoint(a: string | undefined, b: string | undefined): boolean {
  const clean = (text: string | undefined) => (text ?? '').replace(/\/+$/, '');
  return clean(a) === clean(b);
}

/** The saved connection the flags name, if the console has one for this store. */
function matchingProfile(
  profiles: readonly SavedProfile[],
  options: ConnectionOptions,
  localDir: string | null,
): SavedProfile | undefined {
  return profiles.find((profile) =>
    profile.kind === 'local'
      ? localDir !== null && resolve(profile.path) === localDir
      : localDir === null &&
        profile.bucket === options.bucket &&
        sameEndpoint(profile.endpoint, options.s3Endpoint),
  );
}

export async function openConsoleMemory(
  options: ConnectionOptions & { verifyMaxAgeMs?: number },
  opened: OpenedConnection,
): Promise<ConsoleMemory> {
  const dataDir = dataDirOf(options);
  const localDir =
    options.bucket === undefined
      ? resolve(options.store ?? options.dir ?? embeddedStoreDir(dataDir))
      : null;
  const profile = matchingProfile(await new ConnectionStore(dataDir).list(), options, localDir);
  const connectionId =
    profile?.id ??
    (localDir !== null
      ? `cli:local:${localDir}`
      : `cli:s3:${options.s3Endpoint ?? 'aws'}/${options.bucket ?? ''}`);
  const { io, root } = opened;
  const models = new ReadModels();
  const fleet: FleetDeps = {
    io: async () => ({ io, root }),
    locate: (id, prefix) => locatePrefix(io, root, id, prefix),
    models,
    held: () => false,
    damage: (at, snapshot) => findings.of(at, catalogOfSnapshot(snapshot)),
    coverage: (at) => findings.coverageOf(at),
    verifyMaxAgeMs: options.verifyMaxAgeMs,
  };
  const ledgerFile = new LedgerFile(dataDir);
  const findings: DamageFindings = new DamageFindings({
    fleet,
    catalogOf: async (at) => catalogOfSnapshot(await models.read(at, Number.POSITIVE_INFINITY)),
    onPrefixScrubbed: async () => undefined,
    ledgerFile,
    verifyMaxAgeMs: options.verifyMaxAgeMs,
  });
  return {
    connectionId,
    known: profile !== undefined,
    ledgerPath: ledgerFile.path,
    findings,
    fleet,
  };
}
