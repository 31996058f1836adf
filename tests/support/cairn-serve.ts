/** A real `cairn serve` process on a throwaway data directory, and calls over its socket. */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { WebSocket } from 'ws';
import { decodeWire, encodeWire } from '../../src/shared/wire';
import { CAIRN_BIN } from './cairn-cli';

export interface ServeProcess {
  readonly process: ChildProcess;
  readonly dataDir: string;
  readonly port: number;
  readonly token: string;
  /** Resolves with the exit code once the process ends. */
  readonly exited: Promise<number | null>;
}

/** `env` is added to this process's environment (the S3 credential chain, say). */
export async function startServe(env: NodeJS.ProcessEnv = {}): Promise<ServeProcess> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-serve-'));
  const child = spawn(
    process.execPath,
    [CAIRN_BIN, 'serve', '--data-dir', dataDir, '--port', '0', '--json'],
    { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, ...env } },
  );
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const printed = JSON.parse(
    await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    ),
  ) as { url: string; port: number };
  const token = new URL(printed.url).searchParams.get('token') ?? '';
  return { process: child, dataDir, port: printed.port, token, exited };
}

/** A socket on `/api`; `cookie` (a browser session's) makes it one of that browser's sockets. */
export async function openApiSocket(
  port: number,
  token: string,
  cookie?: string,
): Promise<WebSocket> {
  const socket = new WebSocket(`ws://127.0.0.1:${port}/api?token=${token}`, {
    headers: cookie === undefined ? {} : { cookie },
  });
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  return socket;
}

export interface SocketReply {
  readonly id?: number;
  readonly ok: boolean;
  readonly result?: unknown;
  readonly error?: { code: string; message: string; details: Record<string, unknown> };
}

export function callOverSocket(
  socket: WebSocket,
  id: number,
  name: string,
  input: unknown,
): Promise<SocketReply> {
  return new Promise((resolve) => {
    const onMessage = (data: Buffer) => {
      const reply = decodeWire(data.toString()) as SocketReply;
      if (reply.id !== id) return;
      socket.off('message', onMessage);
      resolve(reply);
    };
    socket.on('message', onMessage);
    socket.send(`${id}\n${name}\n${encodeWire(input)}`);
  });
}
