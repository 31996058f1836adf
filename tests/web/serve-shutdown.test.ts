/**
 * `cairn serve` stopping with SIGTERM stops the writers opened in it first, so their epochs
 * are sealed as 'stopped' (not left for the next open to take over).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import { inspectPrefix } from '../../src/main/engine/wal/inspect';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { CAIRN_BIN } from '../support/cairn-cli';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

function call(
  socket: WebSocket,
  id: number,
  name: string,
  input: unknown,
): Promise<{ ok: boolean; error?: { code: string } }> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const reply = decodeWire(data.toString()) as { id?: number; ok: boolean };
      if (reply.id !== id) return;
      socket.off('message', onMessage);
      resolve(reply);
    };
    socket.on('message', onMessage);
    socket.send(`${id}\n${name}\n${encodeWire(input)}`);
  });
}

describe('cairn serve shutdown', () => {
  it('seals the epoch of a writer opened in the app when it gets SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cairn-serve-stop-'));
    dirs.push(dataDir);
    const serve = spawn(
      process.execPath,
      [CAIRN_BIN, 'serve', '--dir', dataDir, '--port', '0', '--json'],
      {
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const exited = new Promise<number | null>((resolve) =>
      serve.on('exit', (code) => resolve(code)),
    );
    const printed = JSON.parse(
      await new Promise<string>((resolve) =>
        createInterface({ input: serve.stdout }).once('line', resolve),
      ),
    ) as { url: string; port: number };
    const token = new URL(printed.url).searchParams.get('token') ?? '';
    const socket = new WebSocket(`ws://127.0.0.1:${printed.port}/api?token=${token}`);
    await new Promise((resolve) => socket.once('open', resolve));
    const prefix = 'wal/nodes/0/generations/0';
    expect(
      await call(socket, 1, 'connections.setOperator', { id: 'embedded', operator: true }),
    ).toMatchObject({ ok: true });
    expect(
      await call(socket, 2, 'wal.writer.open', {
        connectionId: 'embedded',
        prefix,
        takeOver: true,
      }),
    ).toMatchObject({ ok: true });
    socket.close();

    serve.kill('SIGTERM');
    expect(await exited).toBe(0);
    const report = await inspectPrefix(new LocalObjectIo(join(dataDir, 'cairn-data')), {
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
