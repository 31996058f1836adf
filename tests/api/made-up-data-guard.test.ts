/**
 * Demo data and the load generator write made-up entries: offered freely on the embedded store
 * and on an empty one (the load generator: a prefix with no one else's entries); on any other
 * store the API refuses them unless the call confirms with the connection's name - checked in
 * the main process, whatever the page did - and a refusal writes nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MadeUpDataOffer } from '../../src/shared/contract/demo';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { walPrefix } from '../../src/main/engine/wal/keys';
import { seed } from '../wal-api/support';
import { makeTestApp, type TestApp } from '../support/app-services';
import { failureOf } from '../support/typed-failure';

const NAME = 'Production lab';
const PREFIX = walPrefix('wal', 0n, 0);

let app: TestApp;
let dir: string;
let lab: string;
beforeEach(async () => {
  app = await makeTestApp();
  dir = await mkdtemp(join(tmpdir(), 'cairn-lab-'));
  lab = (await app.services.connections.add({ kind: 'local', name: NAME, path: dir })).id;
});
afterEach(async () => {
  await app.services.wal.closeAll();
  await app.dispose();
  await rm(dir, { recursive: true, force: true });
});

const call = (name: string, input: Record<string, unknown>) =>
  app.router.call(name, { connectionId: lab, ...input });
const keys = async () => (await new LocalObjectIo(dir).listPage('')).objects.map((o) => o.key);

describe('demo data', () => {
  it('is offered freely on an empty store', async () => {
    expect(await call('demo.offer', {})).toEqual({
      connection: NAME,
      embedded: false,
      empty: true,
      confirmPhrase: null,
    } satisfies MadeUpDataOffer);
    await call('demo.generate', {});
    expect((await keys()).length).toBeGreaterThan(0);
  });

  it('needs the connection named on a store that holds something, and writes nothing without', async () => {
    const io = new LocalObjectIo(dir);
    await io.putIfAbsent('mine/precious.txt', new TextEncoder().encode('keep'));
    expect(await call('demo.offer', {})).toMatchObject({ empty: false, confirmPhrase: NAME });
    for (const confirm of [undefined, '', 'Embedded store', NAME.toLowerCase()])
      expect(await failureOf(call('demo.generate', { confirm }))).toMatchObject({
        code: 'ConfirmationRequired',
        details: { procedure: 'demo.generate', expected: NAME },
      });
    expect(await keys()).toEqual(['mine/precious.txt']);

    await call('demo.generate', { confirm: NAME });
    expect(await keys()).toContain('mine/precious.txt');
    expect((await keys()).some((key) => key.startsWith(`${PREFIX}/objects/`))).toBe(true);
    // Every attempt is in the activity log, the refused ones with their reason.
    const entries = (await app.services.audit.recent(20)).filter(
      (entry) => entry.action === 'demo.generate',
    );
    expect(entries.map((entry) => entry.result)).toEqual([
      'ok',
      'error',
      'error',
      'error',
      'error',
    ]);
  });

  it('is offered freely on the embedded store, whatever it holds', async () => {
    const { io } = await app.services.connections.io('embedded');
    await io.putIfAbsent('mine/precious.txt', new TextEncoder().encode('keep'));
    expect(await app.router.call('demo.offer', { connectionId: 'embedded' })).toMatchObject({
      embedded: true,
      empty: false,
      confirmPhrase: null,
    });
  });
});

describe('the load generator', () => {
  const open = () => call('wal.writer.open', { prefix: PREFIX, takeOver: true, confirm: PREFIX });

  it("needs the connection named on a prefix holding someone else's entries", async () => {
    await seed(new LocalObjectIo(dir), 20);
    await app.services.connections.setOperator(lab, true);
    await open();
    expect(await call('wal.load.offer', { prefix: PREFIX })).toMatchObject({
      empty: false,
      confirmPhrase: NAME,
    });
    expect(await failureOf(call('wal.load.start', { prefix: PREFIX, count: 10 }))).toMatchObject({
      code: 'ConfirmationRequired',
      details: { procedure: 'wal.load.start', expected: NAME },
    });
    expect(await call('wal.load.stop', { prefix: PREFIX })).toEqual({ acknowledged: 0, failed: 0 });
    await call('wal.load.start', { prefix: PREFIX, count: 10, confirm: NAME });
    expect(await call('wal.load.stop', { prefix: PREFIX })).toMatchObject({ failed: 0 });
  });

  it('is offered freely on a prefix this app started, and on the embedded store', async () => {
    await app.services.connections.setOperator(lab, true);
    await open();
    expect(await call('wal.load.offer', { prefix: PREFIX })).toMatchObject({
      empty: true,
      confirmPhrase: null,
    });
    await call('wal.load.start', { prefix: PREFIX, count: 10 });

    const { io } = await app.services.connections.io('embedded');
    await seed(io, 20);
    await app.services.connections.setOperator('embedded', true);
    await app.router.call('wal.writer.open', {
      connectionId: 'embedded',
      prefix: PREFIX,
      takeOver: true,
      confirm: PREFIX,
    });
    expect(
      await app.router.call('wal.load.offer', { connectionId: 'embedded', prefix: PREFIX }),
    ).toMatchObject({ embedded: true, empty: false, confirmPhrase: null });
  });
});
