/**
 * The composition root of the app's services: one instance per running app (desktop,
 * browser mode or a CLI command), built from the data directory and the mode.
 */
import { mkdir } from 'node:fs/promises';
import { AuditLog } from './audit-log';
import { ConnectionsService } from './connections/connections-service';
import { EventBus } from './event-bus';
import { NamespaceService } from './namespaces/namespace-service';
import { TieringService } from './tiering/tiering-service';
import { WalService } from './wal/wal-service';
import { LedgerFile } from './wal/scrub/ledger-file';
import { verifyMaxAgeOf } from './wal/scrub/coverage-view';
import { ObjectIndexStore } from './object-index/index-store';
import { prefixIndexesIn } from './object-index/prefix-indexes';
import { ReadModels, readModelBudgetFromEnv } from './wal/read-model/read-models';

export interface AppIdentity {
  readonly name: string;
  readonly version: string;
  readonly mode: 'desktop' | 'browser';
  readonly dataDir: string;
  /**
   * The app verifies by itself each prefix its views read that is not verified within the
   * verify age (`CAIRN_VERIFY_MAX_AGE`, default 24 h); on unless false (most tests) or
   * `CAIRN_BACKGROUND_SCRUB=off` (a host whose store must see only the reads asked for).
   */
  readonly backgroundScrub?: boolean;
}

export interface Services {
  readonly identity: AppIdentity;
  readonly events: EventBus;
  readonly connections: ConnectionsService;
  readonly audit: AuditLog;
  readonly tiering: TieringService;
  readonly namespaces: NamespaceService;
  readonly wal: WalService;
}

export async function createServices(identity: AppIdentity): Promise<Services> {
  await mkdir(identity.dataDir, { recursive: true });
  const events = new EventBus();
  const connections = new ConnectionsService(identity.dataDir, events);
  const tiering = new TieringService(connections, events);
  const namespaces = new NamespaceService(connections, (event) => events.publish(event));
  const audit = new AuditLog(identity.dataDir, events);
  // One local index of big prefixes per data directory, shared with the CLI (`cairn cache`).
  const index = new ObjectIndexStore(identity.dataDir);
  const models = new ReadModels(readModelBudgetFromEnv(), prefixIndexesIn(index), () =>
    index.settled(),
  );
  // What scrubs and replays found damaged, kept across restarts in the data directory.
  const wal = new WalService(connections, events, models, audit, new LedgerFile(identity.dataDir), {
    verifyMaxAgeMs: verifyMaxAgeOf(),
    backgroundScrub:
      identity.backgroundScrub !== false && process.env.CAIRN_BACKGROUND_SCRUB !== 'off',
  });
  for (const user of [tiering, namespaces, wal]) connections.attach(user);
  return {
    identity,
    events,
    connections,
    audit,
    tiering,
    namespaces,
    wal,
  };
}
