/**
 * The namespace API as the app serves it, on a throwaway data directory: the real services
 * (createServices), a NamespaceService on them, and the real ApiRouter over the namespace
 * handlers. Every "namespaces.created" event is captured.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { namespaceHandlers } from '../../src/main/api/handlers/namespace-handlers';
import { ApiRouter, type Handlers } from '../../src/main/api/router';
import { NamespaceService } from '../../src/main/services/namespaces/namespace-service';
import { createServices, type Services } from '../../src/main/services/services';
import type { NamespaceCreatedEvent } from '../../src/shared/contract/namespaces';
export { failureOf } from '../support/typed-failure';

export const CONNECTION = 'embedded';

export interface NamespaceApi {
  readonly services: Services;
  readonly namespaces: NamespaceService;
  readonly router: ApiRouter;
  readonly created: NamespaceCreatedEvent[];
  call(name: string, input: Record<string, unknown>): Promise<unknown>;
  operator(on: boolean): Promise<void>;
  dispose(): Promise<void>;
}

export async function makeNamespaceApi(clock?: () => number): Promise<NamespaceApi> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-ns-api-'));
  const services = await createServices({
    name: 'Cairn',
    version: '0.0.0-test',
    mode: 'browser',
    dataDir,
  });
  const created: NamespaceCreatedEvent[] = [];
  const namespaces = new NamespaceService(services.connections, (event) => created.push(event), {
    clock,
  });
  // The namespace handlers alone: every other procedure is someone else's and unused here.
  const router = new ApiRouter(
    namespaceHandlers({ namespaces }) as unknown as Handlers,
    services.connections,
    services.audit,
  );
  return {
    services,
    namespaces,
    router,
    created,
    call: (name, input) => router.call(name, { connectionId: CONNECTION, ...input }),
    operator: async (on) => {
      await services.connections.setOperator(CONNECTION, on);
    },
    dispose: () => rm(dataDir, { recursive: true, force: true }),
  };
}

/** A clock that moves only when told, so listing order and timestamps are exact. */
export function steppedClock(start = 1_700_000_000_000): {
  now: () => number;
  advance: (ms?: number) => void;
} {
  let at = start;
  return { now: () => at, advance: (ms = 1) => void (at += ms) };
}
