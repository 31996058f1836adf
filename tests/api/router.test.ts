import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTestApp, type TestApp } from '../support/app-services';
import { failureOf } from '../support/typed-failure';

let app: TestApp;
beforeEach(async () => {
  app = await makeTestApp();
});
afterEach(() => app.dispose());

describe('the API router', () => {
  it('answers app.info from the main process', async () => {
    const info = (await app.router.call('app.info', {})) as {
      version: string;
      dataDir: string;
      mode: string;
    };
    expect(info).toMatchObject({ version: '0.0.0-test', dataDir: app.dataDir, mode: 'browser' });
  });

  it('lists the embedded store first and keeps added connections across restarts', async () => {
    const added = (await app.router.call('connections.add', {
      kind: 'local',
      name: 'Scratch',
      path: join(app.dataDir, 'scratch'),
    })) as { id: string };
    const listed = (await app.router.call('connections.list', {})) as Array<{
      id: string;
      builtIn: boolean;
      operator: boolean;
    }>;
    expect(listed.map((c) => c.id)).toEqual(['embedded', added.id]);
    expect(listed[0]).toMatchObject({ builtIn: true, operator: false });
    const saved = JSON.parse(await readFile(join(app.dataDir, 'connections.json'), 'utf8')) as {
      profiles: Array<{ id: string }>;
    };
    expect(saved.profiles.map((p) => p.id)).toEqual([added.id]);
  });

  it('refuses an unknown procedure with a typed error', async () => {
    expect(await failureOf(app.router.call('wal.dropEverything', {}))).toMatchObject({
      code: 'UnknownProcedure',
      details: { procedure: 'wal.dropEverything' },
    });
  });

  it.each([
    ['a wrong type', { kind: 'local', name: 42, path: '/tmp/x' }, 'name'],
    ['a missing field', { kind: 'local', name: 'x' }, 'path'],
    ['an unknown field', { kind: 'local', name: 'x', path: '/tmp/x', extra: true }, ''],
    ['a bad bucket', { kind: 's3', name: 'x', bucket: 'UPPER' }, 'bucket'],
    ['a root with ..', { kind: 's3', name: 'x', bucket: 'good-bucket', root: 'a/../b' }, 'root'],
    ['a huge name', { kind: 'local', name: 'x'.repeat(10_000), path: '/tmp/x' }, 'name'],
  ])('rejects %s, naming the field, and saves nothing', async (_label, input, field) => {
    const error = await failureOf(app.router.call('connections.add', input));
    expect(error.code).toBe('InvalidInput');
    expect(error.details.field).toBe(field);
    expect(((await app.router.call('connections.list', {})) as unknown[]).length).toBe(1);
  });

  it('refuses to remove the embedded store and unknown ids', async () => {
    expect((await failureOf(app.router.call('connections.remove', { id: 'embedded' }))).code).toBe(
      'BuiltInConnection',
    );
    expect((await failureOf(app.router.call('connections.remove', { id: 'nope' }))).code).toBe(
      'ConnectionNotFound',
    );
  });

  it('starts every connection read-only and audits config changes', async () => {
    const switched = (await app.router.call('connections.setOperator', {
      id: 'embedded',
      operator: true,
    })) as { operator: boolean };
    expect(switched.operator).toBe(true);
    expect(app.services.connections.isOperator('embedded')).toBe(true);
    const audit = await app.services.audit.recent(10);
    expect(audit[0]).toMatchObject({
      action: 'connections.setOperator',
      target: 'embedded',
      result: 'ok',
    });
  });

  it('reads objects of a connection in pages and bounds a read to 1 MiB', async () => {
    const { io } = await app.services.connections.io('embedded');
    for (let index = 0; index < 5; index += 1)
      await io.putIfAbsent(`logs/${index}.txt`, new TextEncoder().encode(`entry ${index}`));
    await io.putIfAbsent('big.bin', new Uint8Array(3 * 1024 * 1024).fill(7));
    const page = (await app.router.call('objects.list', {
      connectionId: 'embedded',
      prefix: 'logs/',
      pageSize: 2,
    })) as { objects: Array<{ key: string }>; continuation?: string };
    expect(page.objects.map((o) => o.key)).toEqual(['logs/0.txt', 'logs/1.txt']);
    const next = (await app.router.call('objects.list', {
      connectionId: 'embedded',
      prefix: 'logs/',
      pageSize: 2,
      continuation: page.continuation,
    })) as { objects: Array<{ key: string }> };
    expect(next.objects.map((o) => o.key)).toEqual(['logs/2.txt', 'logs/3.txt']);
    const folders = (await app.router.call('objects.list', {
      connectionId: 'embedded',
      delimiter: '/',
    })) as { commonPrefixes: string[]; objects: Array<{ key: string }> };
    expect(folders).toMatchObject({ commonPrefixes: ['logs/'], objects: [{ key: 'big.bin' }] });
    const big = (await app.router.call('objects.get', {
      connectionId: 'embedded',
      key: 'big.bin',
    })) as { bytes: Uint8Array; size: number; truncated: boolean };
    expect([big.bytes.length, big.size, big.truncated]).toEqual([
      1024 * 1024,
      3 * 1024 * 1024,
      true,
    ]);
    expect(
      (
        await failureOf(
          app.router.call('objects.head', { connectionId: 'embedded', key: 'missing' }),
        )
      ).code,
    ).toBe('NotFound');
  });
});
