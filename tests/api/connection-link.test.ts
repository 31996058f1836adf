/**
 * The connection's link as the console shows it: Test connection measures a burst through the
 * connection's own slots (p50 <= p99, a rate), the live view reports what its controller
 * measured since (answers counted, nothing left in flight), an unreachable store has no link.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FaultyObjectIo } from '../../src/main/engine/objectio/faulty-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { ConnectionsService } from '../../src/main/services/connections/connections-service';
import { EventBus } from '../../src/main/services/event-bus';

let dataDir = '';
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'cairn-link-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

describe('connection link', () => {
  it('Test connection measures a burst through the link, and the live view counts it', async () => {
    const connections = new ConnectionsService(
      dataDir,
      new EventBus(),
      async () => new MemoryObjectIo(),
    );
    expect(await connections.link('embedded')).toMatchObject({ p50Ms: null, inFlight: 0 });
    const tested = await connections.test('embedded');
    expect(tested.reachable).toBe(true);
    expect(tested.link?.requests).toBe(64);
    expect(tested.link!.p50Ms).toBeLessThanOrEqual(tested.link!.p99Ms);
    expect(tested.link!.requestsPerSecond).toBeGreaterThan(0);
    const live = await connections.link('embedded');
    expect(live.p50Ms).not.toBeNull();
    expect(live).toMatchObject({ inFlight: 0, waiting: 0 });
    expect(live.limit).toBeGreaterThanOrEqual(1);
    expect(live.requestsPerSecond).toBeGreaterThan(0);
  });

  it('reports no link for a store it cannot reach', async () => {
    const down = new FaultyObjectIo(new MemoryObjectIo());
    down.inject({ op: 'listPage', kind: 'unavailable' });
    const connections = new ConnectionsService(dataDir, new EventBus(), async () => down);
    const tested = await connections.test('embedded');
    expect(tested).toMatchObject({ reachable: false, link: null });
    expect(tested.detail).toContain('injected fault on listPage');
  });
});
