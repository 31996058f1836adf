import { afterEach, beforeEach, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../support/app-services';

let app: TestApp;
beforeEach(async () => {
  app = await makeTestApp();
});
afterEach(() => app.dispose());

it('opens a listing after a key (the bucket browser going to a key) and pages on from there', async () => {
  const { io } = await app.services.connections.io('embedded');
  for (const name of ['a', 'b', 'c', 'd', 'e'])
    await io.putIfAbsent(`logs/${name}.txt`, new TextEncoder().encode(name));
  await io.putIfAbsent('logs/sub/f.txt', new TextEncoder().encode('f'));
  const list = async (input: Record<string, unknown>) =>
    (await app.router.call('objects.list', {
      connectionId: 'embedded',
      prefix: 'logs/',
      ...input,
    })) as {
      objects: Array<{ key: string }>;
      commonPrefixes: string[];
      continuation?: string;
    };
  const first = await list({ startAfter: 'logs/b.txt', delimiter: '/', pageSize: 2 });
  expect(first.objects.map((o) => o.key)).toEqual(['logs/c.txt', 'logs/d.txt']);
  const next = await list({
    startAfter: 'logs/b.txt',
    delimiter: '/',
    continuation: first.continuation,
  });
  expect([...next.objects.map((o) => o.key), ...next.commonPrefixes]).toEqual([
    'logs/e.txt',
    'logs/sub/',
  ]);
  expect(next.continuation).toBeUndefined();
  await expect(
    app.router.call('objects.list', { connectionId: 'embedded', startAfter: '' }),
  ).rejects.toMatchObject({
    code: 'InvalidInput',
  });
});
