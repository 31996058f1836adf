/** Operator mode is granted only on a store that enforces create-if-absent; read-only is enforced by the API. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { ConnectionsService } from '../../src/main/services/connections/connections-service';
import { EventBus } from '../../src/main/services/event-bus';
import { failureOf } from '../support/typed-failure';

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
