/**
 * Operator mode is granted only on a store that enforces create-if-absent, to one session at a
 * time; read-only is enforced by the API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { ConnectionsService } from '../../src/main/services/connections/connections-service';
import { EventBus } from '../../src/main/services/event-bus';
import { failureOf } from '../support/typed-failure';
import { makeTestApp } from '../support/app-services';
import { addInput } from '../tiering-api/support';
import { PROCESS_SESSION, type Caller, type Session } from '../../src/main/services/caller';
import type { Connection } from '../../src/shared/contract';

let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'cairn-operator-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('operator mode', () => {
  it('is granted on a store that enforces create-if-absent', async () => {
    const connections = new ConnectionsService(
      dataDir,
      new EventBus(),
      async () => new MemoryObjectIo(),
    );
    expect((await connections.setOperator('embedded', true)).operator).toBe(true);
    expect(connections.isOperator('embedded')).toBe(true);
  });

  it('is refused, with the typed reason, on a store that overwrites instead', async () => {
    const overwriting = new FaultyObjectIo(new MemoryObjectIo(), { ignoreCreateIfAbsent: true });
    const connections = new ConnectionsService(dataDir, new EventBus(), async () => overwriting);
    expect((await failureOf(connections.setOperator('embedded', true))).code).toBe(
      'CreateIfAbsentNotEnforced',
    );
    expect(connections.isOperator('embedded')).toBe(false);
    // It can still be browsed read-only.
    const { io } = await connections.io('embedded');
    expect((await io.listPage('')).objects.length).toBe(0);
  });

  it('is refused on a store whose credentials cannot create', async () => {
    const denying = new FaultyObjectIo(new MemoryObjectIo());
    denying.inject({ op: 'putIfAbsent', kind: 'backend' });
    const connections = new ConnectionsService(dataDir, new EventBus(), async () => denying);
    expect((await failureOf(connections.setOperator('embedded', true))).code).toBe('ReadOnlyStore');
    expect(connections.isOperator('embedded')).toBe(false);
  });
});

// Issue #38: a second browser on the same `cairn serve` came up in operator mode because the
// first had switched it on. Operator mode belongs to a session, never to the process.
describe('operator mode per session', () => {
  const first: Session = { id: 'first-session', name: 'browser aaaaaa' };
  const second: Session = { id: 'second-session', name: 'browser bbbbbb' };
  const callerOf = (session: Session): Caller => ({ session, channel: null });

  it('is switched for one session; every other session stays read-only', async () => {
    const app = await makeTestApp();
    try {
      await app.router.call(
        'connections.setOperator',
        { id: 'embedded', operator: true },
        callerOf(first),
      );
      const seen = async (session: Session) =>
        ((await app.router.call('connections.list', {}, callerOf(session))) as Connection[])[0]
          ?.operator;
      expect([await seen(first), await seen(second), await seen(PROCESS_SESSION)]).toEqual([
        true,
        false,
        false,
      ]);
      const operate = (session: Session) =>
        app.router.call(
          'segments.add',
          { connectionId: 'embedded', ...addInput() },
          callerOf(session),
        );
      expect((await failureOf(operate(second))).code).toBe('ReadOnly');
      await operate(first);

      // The audit log says which session switched it, and which acted.
      const audit = await app.services.audit.recent(10);
      expect(audit.find((entry) => entry.action === 'connections.setOperator')).toMatchObject({
        session: 'browser aaaaaa',
        connection: 'Embedded store',
        target: 'embedded',
      });
      expect(audit[0]).toMatchObject({ action: 'segments.add', session: 'browser aaaaaa' });

      // A session that ends takes its switches with it.
      app.services.connections.endSession(first);
      expect(await seen(first)).toBe(false);
    } finally {
      await app.dispose();
    }
  });
});
