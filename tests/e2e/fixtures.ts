/**
 * Each e2e test gets its own `cairn serve` on its own data directory (no shared state),
 * reached through the URL with its token, exactly as a user would open it.
 */
import { test as base, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';

export interface ServedApp {
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly dataDir: string;
}

const projectRoot = resolve(__dirname, '..', '..');

export async function startServe(
  dataDir: string,
): Promise<{ app: ServedApp; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [join(projectRoot, 'bin', 'cairn.mjs'), 'serve', '--dir', dataDir, '--port', '0', '--json'],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, ...s3CredentialsEnv() },
    },
  );
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolveLine, reject) => {
    lines.once('line', resolveLine);
    child.once('exit', (code) => reject(new Error(`cairn serve exited with ${code}`)));
  });
  const printed = JSON.parse(first) as { url: string; port: number };
  return {
    app: {
      url: printed.url,
      origin: `http://127.0.0.1:${printed.port}`,
      port: printed.port,
      dataDir,
    },
    child,
  };
}

/** SIGTERM (serve seals the writers it opened), then waits for the exit; SIGKILL after 10 s. */
export async function stopServe(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** The S3 lane's keys, handed to the server the way a user's AWS credential chain would be. */
export function s3CredentialsEnv(): Record<string, string> {
  const { CAIRN_S3_ACCESS_KEY: key, CAIRN_S3_SECRET_KEY: secret } = process.env;
  if (!key || !secret) return {};
  return {
    AWS_ACCESS_KEY_ID: key,
    AWS_SECRET_ACCESS_KEY: secret,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

export const test = base.extend<{ served: ServedApp }>({
  // eslint-disable-next-line no-empty-pattern
  served: async ({}, use) => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cairn-e2e-'));
    const { app, child } = await startServe(dataDir);
    await use(app);
    await stopServe(child);
    await rm(dataDir, { recursive: true, force: true });
  },
});

export { expect };
