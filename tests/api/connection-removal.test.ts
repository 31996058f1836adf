/**
 * Removing a connection: refused while the app holds a writer on it (typed, naming the prefix,
 * nothing changed); otherwise every view of it goes (replays cancelled, read models dropped)
 * and its storage client is closed - on S3, the client's sockets on the S3 thread.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ApiEvent } from '../../src/shared/contract';
import type { ReplayProgress } from '../../src/shared/contract/wal';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { MemoryObjectIo } from '../../src/main/engine/objectio/memory-object-io';
import { S3ObjectIo } from '../../src/main/engine/objectio/s3-object-io';
import { ConnectionsService } from '../../src/main/services/connections/connections-service';
import type { SavedProfile } from '../../src/main/services/connections/connection-store';
import { EventBus } from '../../src/main/services/event-bus';
import { ReadModels } from '../../src/main/services/wal/read-model/read-models';
import { WalService } from '../../src/main/services/wal/wal-service';
import { makeTestApp, type TestApp } from '../support/app-services';
import { s3Lane } from '../support/s3';
import { codeOf, failureOf } from '../support/typed-failure';
import { PREFIX, seed } from '../wal-api/support';

let app: TestApp;
let scratch: string;
let id: string;
let events: ApiEvent[];

const call = (name: string, input: Record<string, unknown> = {}): Promise<unknown> =>
  app.router.call(name, { connectionId: id, ...input });
const listedIds = async (): Promise<string[]> =>
  ((await app.router.call('connections.list', {})) as Array<{ id: string }>).map((c) => c.id);

beforeEach(async () => {
  app = await makeTestApp();
  events = [];
  app.services.events.subscribe((event) => events.push(event));
  scratch = join(app.dataDir, 'scratch');
  await mkdir(scratch);
  await seed(new LocalObjectIo(scratch), 40);
  const added = (await app.router.call('connections.add', {
    kind: 'local',
    name: 'Scratch',
    path: scratch,
  })) as { id: string };
  id = added.id;
});
afterEach(async () => {
  await app.services.wal.closeAll();
  await app.dispose();
});

describe('connections.remove', () => {
  it('is refused while a writer is open on the connection, and passes once it is closed', async () => {
    await app.router.call('connections.setOperator', { id, operator: true });
    await call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });

    const refused = await failureOf(app.router.call('connections.remove', { id }));
    expect(refused.code).toBe('ConnectionInUse');
    expect(refused.message).toContain(`a writer is open on prefix ${PREFIX}`);
    expect(await listedIds()).toContain(id);
    expect(await call('wal.writer.state', { prefix: PREFIX })).not.toBeNull();

    await call('wal.writer.close', { prefix: PREFIX });
    expect(await app.router.call('connections.remove', { id })).toEqual({ removed: true });
    expect(await listedIds()).toEqual(['embedded']);
    expect((await failureOf(call('wal.inspect', { prefix: PREFIX }))).code).toBe(
      'ConnectionNotFound',
    );
  });

  it('never leaves a writer open on a removed connection, whichever of the two calls wins', async () => {
    for (let ticks = 0; ticks < 12; ticks++) {
      const { id: raced } = await app.services.connections.add({
        kind: 'local',
        name: `Raced ${ticks}`,
        path: scratch,
      });
      const opened = app.services.wal.openWriter(raced, PREFIX, {
        takeOver: true,
        ackMode: 'durable',
        flushIntervalMs: 20,
      });
      for (let tick = 0; tick < ticks; tick++) await new Promise((next) => setImmediate(next));
      const [open, removal] = await Promise.allSettled([
        opened,
        app.services.connections.remove(raced),
      ]);
      if (open.status === 'fulfilled') {
        // The writer was first: the removal was refused, and passes once it is closed.
        expect(removal.status === 'rejected' && codeOf(removal.reason)).toBe('ConnectionInUse');
        await app.services.wal.closeWriter(raced, PREFIX);
        await app.services.connections.remove(raced);
      } else {
        expect(removal.status).toBe('fulfilled');
        expect(codeOf(open.reason)).toBe('ConnectionNotFound');
      }
      expect(app.services.wal.holdOn(raced)).toBeNull();
    }
  });

  it('cancels the replays that read through the connection, which then say why', async () => {
    const started = (await call('wal.replay.start', {
      prefix: PREFIX,
      region: '1:1',
      chunkSize: 1,
      ratePerSecond: 5,
    })) as ReplayProgress;

    await app.router.call('connections.remove', { id });

    const done = events.find(
      (event) => event.type === 'wal.replay.done' && event.jobId === started.jobId,
    );
    expect(done).toMatchObject({ progress: { state: 'cancelled' } });
    expect(await app.router.call('wal.replay.progress', { jobId: started.jobId })).toMatchObject({
      state: 'cancelled',
      cancelReason: 'its connection was removed',
    });
  });
});

describe('the views of a removed connection', () => {
  it('are dropped: its read models go, another connection keeps its own', async () => {
    const events = new EventBus();
    const connections = new ConnectionsService(app.dataDir, events);
    const models = new ReadModels();
    const wal = new WalService(connections, events, models);
    connections.attach(wal);
    const { id: added } = await connections.add({ kind: 'local', name: 'Again', path: scratch });
    const { id: kept } = await connections.add({ kind: 'local', name: 'Kept', path: scratch });
    for (const connectionId of [added, kept]) await wal.inspect(connectionId, PREFIX);
    expect(models.stats().models).toBe(2);

    await connections.remove(added);

    expect(models.stats().models).toBe(1);
    expect((await failureOf(wal.inspect(added, PREFIX))).code).toBe('ConnectionNotFound');
    await wal.inspect(kept, PREFIX);
    expect(models.stats().models).toBe(1);
    await wal.closeAll();
  });
});

describe('the storage client of a removed connection', () => {
  class ClosableIo extends MemoryObjectIo {
    destroyed = 0;
    destroy(): void {
      this.destroyed += 1;
    }
  }

  it('is closed once, after the services let go of it; a refused removal keeps it', async () => {
    const opened: ClosableIo[] = [];
    const connections = new ConnectionsService(app.dataDir, new EventBus(), async () => {
      opened.push(new ClosableIo());
      return opened.at(-1)!;
    });
    const released: string[] = [];
    let holding = true;
    connections.attach({
      holdOn: () => (holding ? 'held by the test' : null),
      release: async (connectionId) => {
        released.push(connectionId);
        expect(opened[0]!.destroyed).toBe(0);
      },
    });
    const { id: added } = await connections.add({ kind: 'local', name: 'Mem', path: scratch });
    await connections.io(added);

    expect((await failureOf(connections.remove(added))).code).toBe('ConnectionInUse');
    expect(opened[0]!.destroyed).toBe(0);
    expect(released).toEqual([]);

    holding = false;
    await connections.remove(added);
    expect(released).toEqual([added]);
    expect(opened.map((io) => io.destroyed)).toEqual([1]);
  });
});

const lane = s3Lane();
describe.skipIf(lane === null)('the S3 client of a removed connection (real S3)', () => {
  afterAll(() => lane?.dispose());

  it('answers nothing more once the connection is removed', async () => {
    // The lane's own client makes the bucket and empties it afterwards.
    const io = await lane!.makeIo('removal');
    const bucket = /^s3:\/\/(\S+) at /.exec(io.endpoint)![1]!;
    const open = async (profile: SavedProfile): Promise<S3ObjectIo> => {
      if (profile.kind !== 's3') throw new Error('an S3 profile was expected');
      return new S3ObjectIo({ ...lane!.settings, bucket: profile.bucket });
    };
    const connections = new ConnectionsService(app.dataDir, new EventBus(), open);
    const { id: added } = await connections.add({
      kind: 's3',
      name: 'Lane',
      bucket,
      region: 'us-east-1',
      endpoint: lane!.settings.endpoint,
      forcePathStyle: true,
      root: '',
    });
    const { io: client } = await connections.io(added);
    await client.putIfAbsent('kept', new Uint8Array([1, 2, 3]));
    expect((await client.listPage('')).objects.map((object) => object.key)).toEqual(['kept']);

    await connections.remove(added);

    const closed = await failureOf(client.listPage(''));
    expect(closed.code).toBe('Backend');
    expect(closed.message).toContain('the S3 store was closed');
    expect((await io.listPage('')).objects.map((object) => object.key)).toEqual(['kept']);
    await io.delete('kept');
  });
});
