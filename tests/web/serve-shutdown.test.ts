/**
 * `cairn serve` stopping with SIGTERM stops the writers opened in it first, so their epochs
 * are sealed as 'stopped' (not left for the next open to take over).
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { inspectPrefix } from '../../src/main/engine/wal/inspect';
import { callOverSocket, openApiSocket, startServe } from '../support/cairn-serve';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

describe('cairn serve shutdown', () => {
  it('seals the epoch of a writer opened in the app when it gets SIGTERM', async () => {
    const serve = await startServe();
    dirs.push(serve.dataDir);
    const socket = await openApiSocket(serve.port, serve.token);
    const prefix = 'wal/nodes/0/generations/0';
    expect(
      await callOverSocket(socket, 1, 'connections.setOperator', {
        id: 'embedded',
        operator: true,
      }),
    ).toMatchObject({ ok: true });
    expect(
      await callOverSocket(socket, 2, 'wal.writer.open', {
        connectionId: 'embedded',
        prefix,
        takeOver: true,
        confirm: prefix,
      }),
    ).toMatchObject({ ok: true });
    socket.close();

    serve.process.kill('SIGTERM');
    expect(await serve.exited).toBe(0);
    const report = await inspectPrefix(new LocalObjectIo(join(serve.dataDir, 'cairn-data')), {
      root: 'wal',
      nodeId: 0n,
      generation: 0,
    });
    expect(report.register.writerEpoch).toBe(1n);
    expect(report.register.sealed).toEqual([
      expect.objectContaining({ lastEpoch: 1n, reason: 'stopped' }),
    ]);
  });
});
