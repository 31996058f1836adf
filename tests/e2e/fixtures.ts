/**
 * Each e2e test gets its own `cairn serve` on its own data directory (no shared state), run
 * from the built CLI as `npm start` runs it and reached through the URL with its token,
 * exactly as a user would open it.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { LocalObjectIo } from '../../src/main/engine/objectio/local-object-io';
import type { ObjectIo } from '../../src/main/engine/objectio/object-io';
import { createBucketIfMissing, S3ObjectIo } from '../../src/main/engine/objectio/s3-object-io';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** The built CLI, which `npm start`'s browser mode runs (`npm test` builds it first). */
const BUILT_CLI = join(projectRoot, 'out', 'main', 'cli.js');

export async function startServe(
  dataDir: string,
): Promise<{ app: ServedApp; child: ChildProcess }> {
  if (!existsSync(BUILT_CLI)) throw new Error(`${BUILT_CLI} is missing: run \`npm run build\``);
  const child = spawn(
    process.execPath,
    [BUILT_CLI, 'serve', '--dir', dataDir, '--port', '0', '--json'],
    {
      cwd: projectRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
      // The app verifies by itself what it reads (the background scrub); the specs see each
      // state deterministically without it (tests/wal-health covers it through the API).
      env: { CAIRN_BACKGROUND_SCRUB: 'off', ...process.env, ...s3CredentialsEnv() },
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

/** The store a spec operates on: the embedded local store, or (project "s3") an S3 bucket. */
export interface StoreUnderTest {
  readonly kind: 'local' | 's3';
  /** The connection's name in the console. */
  readonly name: string;
  /** Connection flags for `cairn` commands on the same store. */
  readonly cliFlags: readonly string[];
  /** Environment for those commands (S3 credentials). */
  readonly env: NodeJS.ProcessEnv;
  /** Opens the console and selects this store's connection. */
  open(page: Page): Promise<void>;
  /** The store itself, for a spec that lays out objects another program would write. */
  io(): ObjectIo;
}

async function s3Store(served: ServedApp): Promise<StoreUnderTest> {
  const endpoint = process.env.CAIRN_S3_ENDPOINT;
  if (!endpoint) throw new Error('the s3 project needs CAIRN_S3_ENDPOINT');
  const bucket = `cairn-e2e-${randomBytes(5).toString('hex')}`;
  const credentials = {
    accessKeyId: process.env.CAIRN_S3_ACCESS_KEY ?? '',
    secretAccessKey: process.env.CAIRN_S3_SECRET_KEY ?? '',
  };
  await createBucketIfMissing({ bucket, endpoint, forcePathStyle: true, credentials });
  const io = new S3ObjectIo({ bucket, endpoint, forcePathStyle: true, credentials });
  const cliFlags = ['--bucket', bucket, '--s3-endpoint', endpoint, '--path-style'];
  const env = { ...process.env, ...s3CredentialsEnv() };
  execFileSync(
    process.execPath,
    [
      join(projectRoot, 'bin', 'cairn.mjs'),
      'connections',
      'add-s3',
      '--data-dir',
      served.dataDir,
      '--name',
      'Lab S3',
      ...cliFlags,
    ],
    { env, stdio: 'ignore' },
  );
  return {
    kind: 's3',
    name: 'Lab S3',
    cliFlags,
    env,
    open: async (page) => {
      await page.goto(served.url);
      await page.getByRole('combobox', { name: 'Connection' }).selectOption({ label: 'Lab S3' });
    },
    io: () => io,
  };
}

function localStore(served: ServedApp): StoreUnderTest {
  const io = new LocalObjectIo(join(served.dataDir, 'cairn-data'));
  return {
    kind: 'local',
    name: 'Embedded store',
    cliFlags: ['--dir', join(served.dataDir, 'cairn-data')],
    env: process.env,
    open: async (page) => {
      await page.goto(served.url);
    },
    io: () => io,
  };
}

export const test = base.extend<{
  served: ServedApp;
  store: StoreUnderTest;
  storeKind: 'local' | 's3';
}>({
  storeKind: ['local', { option: true }],
  store: async ({ served, storeKind }, use) => {
    await use(storeKind === 's3' ? await s3Store(served) : localStore(served));
  },
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
